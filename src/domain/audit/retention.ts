import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DAY } from '../../lib/clock.js';
import type { AuditEventRecord, AuditRetentionMark } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { presentAuditEvent } from './audit-log.js';
import { GENESIS_HASH } from './chain.js';

const PAGE = 1000;

function initialMark(accountId: string): AuditRetentionMark {
  return { accountId, exportedThroughSeq: 0, exportedThroughHash: GENESIS_HASH, purgedThroughSeq: 0, purgedThroughHash: GENESIS_HASH };
}

/** One line of an export file: the API object plus what a verifier needs to re-check the chain. */
export function exportLine(e: AuditEventRecord): string {
  return JSON.stringify({ ...presentAuditEvent(e), account: e.accountId, seq: e.seq });
}

/** The account's events after `afterSeq`, in chain order, as long as `keep` holds: a gap-free prefix. */
async function* chainPrefix(store: Store, accountId: string, afterSeq: number, keep: (e: AuditEventRecord) => boolean) {
  let after = afterSeq;
  for (;;) {
    const events = await store.listAuditEventsBySeq(accountId, after, PAGE);
    for (const e of events) {
      if (!keep(e)) return;
      yield e;
      after = e.seq;
    }
    if (events.length < PAGE) return;
  }
}

export interface ExportResult {
  accountId: string;
  file: string | null;
  exported: number;
  fromSeq: number | null;
  toSeq: number | null;
  purged: number;
}

/**
 * Writes each account's not yet exported events created before `beforeSeconds` to a JSON Lines
 * file (one per account and range, fsynced, then renamed into place), records how far the
 * export got, and, unless `keep`, deletes what was exported. Events are taken in chain order and
 * the export stops at the first newer one, so the exported and the remaining parts of the chain
 * are each contiguous.
 */
export async function exportAuditEvents(
  store: Store,
  options: { beforeSeconds: number; outDir: string; accountId?: string | undefined; keep?: boolean },
): Promise<ExportResult[]> {
  mkdirSync(options.outDir, { recursive: true });
  const heads = (await store.listAuditChainHeads()).filter((h) => !options.accountId || h.accountId === options.accountId);
  const results: ExportResult[] = [];
  for (const { accountId } of heads) {
    const mark = (await store.findAuditRetention(accountId)) ?? initialMark(accountId);
    const start = Math.max(mark.exportedThroughSeq, mark.purgedThroughSeq);
    let fd: number | undefined;
    let tmp = '';
    let first: AuditEventRecord | undefined;
    let last: AuditEventRecord | undefined;
    let count = 0;
    for await (const e of chainPrefix(store, accountId, start, (ev) => ev.created < options.beforeSeconds)) {
      if (fd === undefined) {
        tmp = join(options.outDir, `.audit-${accountId}-${e.seq}.jsonl.tmp`);
        fd = openSync(tmp, 'w');
        first = e;
      }
      writeSync(fd, `${exportLine(e)}\n`);
      last = e;
      count += 1;
    }
    let file: string | null = null;
    if (fd !== undefined && first && last) {
      fsyncSync(fd);
      closeSync(fd);
      file = join(options.outDir, `audit-${accountId}-${String(first.seq).padStart(12, '0')}-${String(last.seq).padStart(12, '0')}.jsonl`);
      renameSync(tmp, file);
      mark.exportedThroughSeq = last.seq;
      mark.exportedThroughHash = last.hash;
    }
    let purged = 0;
    if (!options.keep && mark.exportedThroughSeq > mark.purgedThroughSeq) {
      purged = await store.transaction(async (tx) => {
        const n = await tx.purgeAuditEvents(accountId, mark.exportedThroughSeq);
        mark.purgedThroughSeq = mark.exportedThroughSeq;
        mark.purgedThroughHash = mark.exportedThroughHash;
        await tx.saveAuditRetention(mark);
        return n;
      });
    } else if (file) {
      await store.saveAuditRetention(mark);
    }
    results.push({ accountId, file, exported: count, fromSeq: first?.seq ?? null, toSeq: last?.seq ?? null, purged });
  }
  return results;
}

export interface PurgeResult {
  purged: number;
  /** Events past retention that are not exported yet: kept, and reported so that nothing is lost silently. */
  unexportedPastRetention: number;
}

/**
 * The server's periodic purge: deletes events older than the retention that have been exported,
 * and never any other. Counts the old events still waiting for an export.
 */
export async function purgeExportedAuditEvents(store: Store, nowMs: number, retentionDays: number): Promise<PurgeResult> {
  const cutoff = Math.floor((nowMs - retentionDays * DAY) / 1000);
  const result: PurgeResult = { purged: 0, unexportedPastRetention: 0 };
  for (const { accountId } of await store.listAuditChainHeads()) {
    const mark = (await store.findAuditRetention(accountId)) ?? initialMark(accountId);
    let through: AuditEventRecord | undefined;
    let oldUnexported = 0;
    for await (const e of chainPrefix(store, accountId, mark.purgedThroughSeq, (ev) => ev.created < cutoff)) {
      if (e.seq <= mark.exportedThroughSeq) through = e;
      else oldUnexported += 1;
    }
    result.unexportedPastRetention += oldUnexported;
    if (!through) continue;
    const last = through;
    result.purged += await store.transaction(async (tx) => {
      const n = await tx.purgeAuditEvents(accountId, last.seq);
      await tx.saveAuditRetention({ ...mark, purgedThroughSeq: last.seq, purgedThroughHash: last.hash });
      return n;
    });
  }
  return result;
}
