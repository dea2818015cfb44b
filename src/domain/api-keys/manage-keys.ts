import { ApiError } from '../../errors/api-error.js';
import { type Clock, DAY } from '../../lib/clock.js';
import type { ApiKeyRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { issueKey } from './issue-key.js';

/** During a roll the old key keeps working this long (spec section 5), or until its own expiry. */
export const ROLL_OVERLAP_MS = 1 * DAY;

async function findKey(store: Store, accountId: string, id: string): Promise<ApiKeyRecord> {
  const key = await store.findApiKeyById(accountId, id);
  if (!key) throw new ApiError('resource_missing', `No such API key: '${id}'.`, { param: 'id', status: 404 });
  return key;
}

function assertUsable(key: ApiKeyRecord, nowSeconds: number, action: string): void {
  if (key.revokedAt !== null && key.revokedAt <= nowSeconds) {
    throw new ApiError('parameter_invalid', `You cannot ${action} a revoked key.`, { param: 'id' });
  }
  if (key.expiresAt !== null && key.expiresAt <= nowSeconds) {
    throw new ApiError('parameter_invalid', `You cannot ${action} an expired key.`, { param: 'id' });
  }
}

/** Issues a key of the same kind and permissions; the old one stays valid for the overlap only. */
export async function rollKey(
  store: Store,
  clock: Clock,
  accountId: string,
  id: string,
): Promise<{ previous: ApiKeyRecord; record: ApiKeyRecord; secret: string }> {
  return store.transaction(async (tx) => {
    const old = await findKey(tx, accountId, id);
    const nowSeconds = Math.floor(clock.now() / 1000);
    assertUsable(old, nowSeconds, 'roll');
    const overlapEnd = nowSeconds + ROLL_OVERLAP_MS / 1000;
    const expiresAt = old.expiresAt === null ? overlapEnd : Math.min(old.expiresAt, overlapEnd);
    await tx.updateApiKey(old.id, { expiresAt });
    const issued = await issueKey(tx, clock, {
      accountId,
      livemode: old.livemode,
      kind: old.kind,
      name: old.name,
      permissions: old.permissions,
    });
    return { previous: { ...old, expiresAt }, ...issued };
  });
}

export async function revokeKey(store: Store, clock: Clock, accountId: string, id: string): Promise<ApiKeyRecord> {
  return store.transaction(async (tx) => {
    const key = await findKey(tx, accountId, id);
    const nowSeconds = Math.floor(clock.now() / 1000);
    if (key.revokedAt !== null) throw new ApiError('parameter_invalid', 'This key is already revoked.', { param: 'id' });
    await tx.updateApiKey(key.id, { revokedAt: nowSeconds });
    return { ...key, revokedAt: nowSeconds };
  });
}
