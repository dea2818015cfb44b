import type { Store } from '../../store/store.js';
import { type AuditDraft, appendAuditEvents, auditDraft } from '../audit/audit-log.js';

/**
 * Logs `api_key.expired` for keys whose expiry has passed, once per key (an expired key refused
 * at the door is logged by the audit batcher; this sweep covers keys nobody tried). Answers how
 * many it logged.
 */
export async function recordKeyExpiries(store: Store, nowMs: number, limit = 500): Promise<number> {
  const nowSeconds = Math.floor(nowMs / 1000);
  const keys = await store.listExpiredUnrecordedApiKeys(nowSeconds, limit);
  if (keys.length === 0) return 0;
  return store.transaction(async (tx) => {
    const drafts: AuditDraft[] = [];
    for (const key of keys) {
      if (await tx.markApiKeyExpiryRecorded(key.id, nowSeconds))
        drafts.push(auditDraft('api_key.expired', key, Math.min(nowMs, (key.expiresAt ?? nowSeconds) * 1000)));
    }
    await appendAuditEvents(tx, drafts);
    return drafts.length;
  });
}
