import type { Authenticated } from '../domain/api-keys/authenticate.js';
import type { AuditBatcher } from '../domain/audit/batcher.js';
import type { ApiKeyRecord, IdempotencyRecord, Scope } from '../store/records.js';
import type { Store } from '../store/store.js';

export interface IdempotencyClaim {
  scope: Scope;
  key: string;
  /** Fingerprint of the request's method, path and body. */
  requestHash: string;
  /** Set once the response was stored in the same transaction as the write. */
  completed: boolean;
  /** The claim to make inside the write's transaction (a key nobody used yet); null once claimed. */
  deferred: IdempotencyRecord | null;
  /** Where a write made of several transactions claims the key first. */
  claimer: Store;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Tests flush it to see the events of reads at once. */
    auditBatcher: AuditBatcher | null;
  }
  interface FastifyRequest {
    /** The key and account that authenticated the request; null on routes without auth. */
    auth: Authenticated | null;
    /** The API version this request is served in. */
    apiVersion: string;
    idempotencyKey: string | null;
    idempotency: IdempotencyClaim | null;
    /** The key this request presented, once recognised (valid, revoked or expired): whom the audit log records. */
    auditKey: ApiKeyRecord | null;
    /** Set when the key was refused as expired (unix seconds of its expiry). */
    auditKeyExpiredAt: number | null;
    /** Writes this request's `api_key.used` event into a write's transaction (render.ts runWrite). */
    auditInTransaction: ((tx: Store, status: number) => Promise<void>) | null;
    /** The `api_key.used` event is already committed. */
    auditRecorded: boolean;
  }
}
