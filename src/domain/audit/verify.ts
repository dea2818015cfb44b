import type { AuditEventRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { chainHash, GENESIS_HASH } from './chain.js';

export type ChainReport =
  | { accountId: string; ok: true; checked: number; firstSeq: number; lastSeq: number }
  | { accountId: string; ok: false; checked: number; seq: number; eventId: string | null; reason: string };

const PAGE = 1000;

/**
 * Walks one account's chain in order and reports the first broken link: a missing event, a
 * `previous_hash` that is not the previous event's hash, a `hash` that does not match the
 * event's content, or a chain that ends before its recorded head. After a purge the chain is
 * checked from the purge mark (the hash of the last purged event) instead of the genesis hash.
 */
export async function verifyAuditChain(store: Store, accountId: string): Promise<ChainReport> {
  const head = (await store.listAuditChainHeads()).find((h) => h.accountId === accountId);
  const mark = await store.findAuditRetention(accountId);
  let expectedSeq = (mark?.purgedThroughSeq ?? 0) + 1;
  let previous = mark && mark.purgedThroughSeq > 0 ? mark.purgedThroughHash : GENESIS_HASH;
  const firstSeq = expectedSeq;
  let checked = 0;
  const broken = (seq: number, event: AuditEventRecord | null, reason: string): ChainReport => ({
    accountId,
    ok: false,
    checked,
    seq,
    eventId: event?.id ?? null,
    reason,
  });
  // The walk stops at the head read first: events appended meanwhile (by any instance) commit
  // with a later head, so they are left for the next verification instead of looking like a gap.
  const lastToCheck = head?.seq ?? Number.POSITIVE_INFINITY;
  walk: for (;;) {
    const events = await store.listAuditEventsBySeq(accountId, expectedSeq - 1, PAGE);
    for (const e of events) {
      if (e.seq > lastToCheck) break walk;
      if (e.seq !== expectedSeq) return broken(expectedSeq, e, `event ${expectedSeq} is missing (the next one present is ${e.seq})`);
      if (e.previousHash !== previous) {
        return broken(e.seq, e, `previous_hash does not match the hash of event ${e.seq - 1}`);
      }
      if (chainHash(e.previousHash, e) !== e.hash) return broken(e.seq, e, 'hash does not match the event’s content (the row was altered)');
      previous = e.hash;
      expectedSeq += 1;
      checked += 1;
    }
    if (events.length < PAGE) break;
  }
  const lastSeq = expectedSeq - 1;
  if (head && head.seq !== lastSeq) {
    return broken(lastSeq + 1, null, `the chain ends at event ${lastSeq} but its head records ${head.seq} events (events were deleted)`);
  }
  if (head && head.seq > 0 && head.hash !== previous) return broken(lastSeq, null, 'the last event’s hash does not match the chain head');
  return { accountId, ok: true, checked, firstSeq, lastSeq };
}

/** Every account's chain (or the one named). */
export async function verifyAuditChains(store: Store, accountId?: string): Promise<ChainReport[]> {
  const accounts = accountId ? [accountId] : (await store.listAuditChainHeads()).map((h) => h.accountId);
  const reports: ChainReport[] = [];
  for (const id of accounts) reports.push(await verifyAuditChain(store, id));
  return reports;
}
