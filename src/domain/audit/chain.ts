import { canonicalJson, sha256Hex } from '../../lib/hash.js';
import type { AuditEventRecord } from '../../store/records.js';

/** The `previous_hash` of an account's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash covers: every field of the event but the hashes, plus its account and place in the chain. */
export function hashedContent(e: Omit<AuditEventRecord, 'hash' | 'previousHash'>): string {
  return canonicalJson({
    account: e.accountId,
    seq: e.seq,
    id: e.id,
    object: 'audit_event',
    type: e.type,
    api_key: e.apiKeyId,
    request: e.request,
    created: e.created,
    livemode: e.livemode,
  });
}

/** `hash = sha256(previous_hash + canonical JSON of the event)`. */
export function chainHash(previousHash: string, e: Omit<AuditEventRecord, 'hash' | 'previousHash'>): string {
  return sha256Hex(previousHash + hashedContent(e));
}
