import { ApiError } from '../../errors/api-error.js';
import type { AccountRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';

export const MAX_RATE_LIMIT = 1_000_000;

export interface RateLimitChange {
  /** Requests per second; null returns to the service default. */
  perSecond?: number | null;
  /** Bucket size; null returns to the service default. */
  burst?: number | null;
}

function checked(value: number | null | undefined, param: string): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (!Number.isInteger(value) || value < 1 || value > MAX_RATE_LIMIT) {
    throw new ApiError('parameter_invalid', `${param} must be a whole number from 1 to ${MAX_RATE_LIMIT}.`, { param });
  }
  return value;
}

/**
 * The operator's per-account limit (`payments accounts set-limit`). Running instances apply it
 * once their cached copy of the account expires: within KEY_CACHE_TTL_MS.
 */
export async function setAccountRateLimit(store: Store, accountId: string, change: RateLimitChange): Promise<AccountRecord> {
  const perSecond = checked(change.perSecond, 'rate');
  const burst = checked(change.burst, 'burst');
  return store.transaction(async (tx) => {
    const account = await tx.findAccountById(accountId);
    if (!account) throw new ApiError('resource_missing', `No such account: '${accountId}'.`, { param: 'account' });
    await tx.updateAccount(accountId, { rateLimitPerSecond: perSecond, rateLimitBurst: burst });
    return (await tx.findAccountById(accountId)) as AccountRecord;
  });
}
