import { canonicalJson, sha256Hex } from '../../lib/hash.js';
import type { AuditEventRecord } from '../../store/records.js';

/** The `previous_hash` of an account's first event. */
export const GENESIS_HASH = '0'.repeat(64);

const REQUEST_KEYS = new Set(['id', 'ip', 'method', 'path', 'status', 'user_agent']);

/** An object with exactly the keys of an AuditRequest (rows read back may have been altered). */
function isRequestShaped(r: unknown): r is Record<string, unknown> {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return false;
  const keys = Object.keys(r);
  return keys.length === REQUEST_KEYS.size && keys.every((k) => REQUEST_KEYS.has(k));
}

/** canonicalJson of one value, without building an object for it first. */
function c(v: unknown): string {
  return v === null || typeof v !== 'object' ? (JSON.stringify(v) ?? 'null') : canonicalJson(v);
}

/**
 * What the hash covers: every field of the event but the hashes, plus its account and place in
 * the chain, as canonical JSON (keys sorted). Written out key by key because every request hashes
 * one; equal to `canonicalJson` of the same object for any field values (test/domain/audit/chain.test.ts).
 */
export function hashedContent(e: Omit<AuditEventRecord, 'hash' | 'previousHash'>): string {
  const r = e.request;
  const request = isRequestShaped(r)
    ? `{"id":${c(r.id)},"ip":${c(r.ip)},"method":${c(r.method)},"path":${c(r.path)},"status":${c(r.status)},"user_agent":${c(r.user_agent)}}`
    : c(r);
  return `{"account":${c(e.accountId)},"api_key":${c(e.apiKeyId)},"created":${c(e.created)},"id":${c(e.id)},"livemode":${c(e.livemode)},"object":"audit_event","request":${request},"seq":${c(e.seq)},"type":${c(e.type)}}`;
}

/** `hash = sha256(previous_hash + canonical JSON of the event)`. */
export function chainHash(previousHash: string, e: Omit<AuditEventRecord, 'hash' | 'previousHash'>): string {
  return sha256Hex(previousHash + hashedContent(e));
}
