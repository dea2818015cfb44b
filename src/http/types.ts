import type { Authenticated } from '../domain/api-keys/authenticate.js';
import type { Scope } from '../store/records.js';

export interface IdempotencyClaim {
  scope: Scope;
  key: string;
  /** Set once the response was stored in the same transaction as the write. */
  completed: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key and account that authenticated the request; null on routes without auth. */
    auth: Authenticated | null;
    /** The API version this request is served in. */
    apiVersion: string;
    idempotencyKey: string | null;
    idempotency: IdempotencyClaim | null;
  }
}
