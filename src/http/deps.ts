import type { KeyCache } from '../domain/api-keys/key-cache.js';
import type { AuditBatcher } from '../domain/audit/batcher.js';
import type { RateLimiter } from '../domain/rate-limit/rate-limiter.js';
import type { PaymentServices } from '../domain/payments/services.js';
import type { Clock } from '../lib/clock.js';
import type { Store } from '../store/store.js';

/** What the HTTP layer is built from. */
export interface AppDeps {
  store: Store;
  clock: Clock;
  keyCache: KeyCache;
  /** Processors and the card vault's keys; `publicBaseUrl` empty means "the request's origin". */
  payments: PaymentServices;
  /** Commits the audit events of reads and refused requests; null when audit is off (benchmarks only). */
  audit: AuditBatcher | null;
  /** Per account and mode; null when RATE_LIMIT_ENABLED=false. */
  rateLimiter: RateLimiter | null;
}
