import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../config.js';
import { exportLine } from '../domain/audit/retention.js';
import { PERMISSION_LEVELS, PERMISSION_RESOURCES, type Permissions } from '../store/records.js';
import type { Store } from '../store/store.js';

type Out = (line: string) => void;

/** `payments=read,customers=write` or the same as JSON. */
export function parsePermissions(value: string): Permissions {
  let entries: [string, unknown][];
  if (value.trim().startsWith('{')) {
    try {
      entries = Object.entries(JSON.parse(value) as Record<string, unknown>);
    } catch {
      throw new ConfigError('--permissions is not valid JSON.');
    }
  } else {
    entries = value
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('=', 2).map((s) => s.trim()) as [string, string]);
  }
  const permissions: Permissions = {};
  for (const [resource, level] of entries) {
    if (!(PERMISSION_RESOURCES as readonly string[]).includes(resource)) {
      throw new ConfigError(`Unknown resource '${resource}' in --permissions; one of ${PERMISSION_RESOURCES.join(', ')}.`);
    }
    if (!(PERMISSION_LEVELS as readonly string[]).includes(level as string)) {
      throw new ConfigError(`Permission for ${resource} must be one of ${PERMISSION_LEVELS.join(', ')}.`);
    }
    permissions[resource as keyof Permissions] = level as Permissions[keyof Permissions];
  }
  return permissions;
}

/** Where each account's chain was when last printed. */
export type Positions = Map<string, number>;

/**
 * Prints the newest `limit` events of each account (or of one), oldest first, as JSON lines.
 * Answers each chain's position so that `followAudit` continues from there.
 */
export async function tailAudit(store: Store, options: { accountId?: string | undefined; limit: number }, out: Out): Promise<Positions> {
  const positions: Positions = new Map();
  for (const head of await store.listAuditChainHeads()) {
    if (options.accountId && head.accountId !== options.accountId) continue;
    const from = Math.max(0, head.seq - options.limit);
    let after = from;
    while (after < head.seq) {
      const events = await store.listAuditEventsBySeq(head.accountId, after, Math.min(1000, head.seq - after));
      if (events.length === 0) break;
      for (const e of events) out(exportLine(e));
      after = events[events.length - 1]!.seq;
    }
    positions.set(head.accountId, head.seq);
  }
  return positions;
}

/**
 * Like `tail -f`: polls the chain heads and prints each account's new events in chain order, as
 * they are committed, until the signal aborts. Chain order is commit order, so nothing is skipped
 * even when events commit out of id order (batched reads next to writes).
 */
export async function followAudit(
  store: Store,
  positions: Positions,
  options: { accountId?: string | undefined; intervalMs: number; signal?: AbortSignal | undefined },
  out: Out,
): Promise<void> {
  while (!options.signal?.aborted) {
    for (const head of await store.listAuditChainHeads()) {
      if (options.accountId && head.accountId !== options.accountId) continue;
      let after = positions.get(head.accountId) ?? 0;
      while (after < head.seq) {
        const events = await store.listAuditEventsBySeq(head.accountId, after, 1000);
        if (events.length === 0) break;
        for (const e of events) out(exportLine(e));
        after = events[events.length - 1]!.seq;
      }
      positions.set(head.accountId, after);
    }
    try {
      await sleep(options.intervalMs, undefined, { signal: options.signal });
    } catch {
      return;
    }
  }
}
