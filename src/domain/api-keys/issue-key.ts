import { type Clock, DAY } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/hash.js';
import { newId } from '../../lib/ids.js';
import type { ApiKeyKind, ApiKeyRecord, AuditRequest, Permissions } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { appendAuditEvents, auditDraft } from '../audit/audit-log.js';
import { generateKey, keyPrefix } from './key-format.js';

/** Secret keys live 90 days unless rolled (spec section 5). */
export const SECRET_KEY_LIFETIME_MS = 90 * DAY;

export interface IssueKeyInput {
  accountId: string;
  livemode: boolean;
  kind: ApiKeyKind;
  name?: string | null;
  note?: string | null;
  permissions?: Permissions | null;
  /** The API request that asked for the key, for the audit log; null from the CLI. */
  request?: AuditRequest | null;
}

/**
 * Creates and stores a key and logs `api_key.created` in the same transaction. The returned
 * `secret` is the only copy of the key there will ever be.
 */
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
    note: input.note ?? null,
    permissions: input.kind === 'restricted' ? (input.permissions ?? {}) : null,
    created,
    expiresAt: input.kind === 'secret' ? created + SECRET_KEY_LIFETIME_MS / 1000 : null,
    revokedAt: null,
    lastUsedAt: null,
  };
  await store.transaction(async (tx) => {
    await tx.insertApiKey(record);
    await appendAuditEvents(tx, [auditDraft('api_key.created', record, nowMs, input.request ?? null)]);
  });
  return { record, secret };
}
