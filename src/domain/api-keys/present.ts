import type { ApiKeyKind, ApiKeyRecord, Permissions } from '../../store/records.js';

export interface ApiKeyObject {
  id: string;
  object: 'api_key';
  kind: ApiKeyKind;
  prefix: string;
  last4: string;
  livemode: boolean;
  name: string | null;
  note: string | null;
  permissions: Permissions | null;
  created: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  /** The whole key: only in the response that created it. */
  secret?: string;
}

export function presentKey(k: ApiKeyRecord, secret?: string): ApiKeyObject {
  const object: ApiKeyObject = {
    id: k.id,
    object: 'api_key',
    kind: k.kind,
    prefix: k.prefix,
    last4: k.last4,
    livemode: k.livemode,
    name: k.name,
    note: k.note,
    permissions: k.permissions,
    created: k.created,
    expires_at: k.expiresAt,
    revoked_at: k.revokedAt,
    last_used_at: k.lastUsedAt,
  };
  if (secret !== undefined) object.secret = secret;
  return object;
}

/** What an idempotent replay of a key-creating request answers: the plaintext is gone. */
export function redactSecret(object: ApiKeyObject): Omit<ApiKeyObject, 'secret'> & { secret_redacted: true } {
  const { secret: _secret, ...rest } = object;
  return { ...rest, secret_redacted: true };
}
