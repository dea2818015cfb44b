import { type Clock, DAY } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/hash.js';
import { newId } from '../../lib/ids.js';
import type { ApiKeyKind, ApiKeyRecord, Permissions } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { generateKey, keyPrefix } from './key-format.js';

/** Secret keys live 90 days unless rolled (spec section 5). */
export const SECRET_KEY_LIFETIME_MS = 90 * DAY;

export interface IssueKeyInput {
  accountId: string;
  livemode: boolean;
  kind: ApiKeyKind;
  name?: string | null;
  permissions?: Permissions | null;
}

/** Creates and stores a key. The returned `secret` is the only copy of the key there will ever be. */
export async function issueKey(store: Store, clock: Clock, input: IssueKeyInput): Promise<{ record: ApiKeyRecord; secret: string }> {
  const secret = generateKey(input.kind, input.livemode);
  const nowMs = clock.now();
  const created = Math.floor(nowMs / 1000);
  const record: ApiKeyRecord = {
    id: newId('key', nowMs),
    accountId: input.accountId,
    livemode: input.livemode,
    kind: input.kind,
    prefix: keyPrefix(input.kind, input.livemode),
    last4: secret.slice(-4),
    secretHash: sha256Hex(secret),
    name: input.name ?? null,
    permissions: input.kind === 'restricted' ? (input.permissions ?? {}) : null,
    created,
    expiresAt: input.kind === 'secret' ? created + SECRET_KEY_LIFETIME_MS / 1000 : null,
    revokedAt: null,
    lastUsedAt: null,
  };
  await store.insertApiKey(record);
  return { record, secret };
}
