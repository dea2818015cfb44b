import { ApiError } from '../../errors/api-error.js';
import { digestsEqual, sha256Hex } from '../../lib/hash.js';
import type { AccountRecord, ApiKeyRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { KeyCache } from './key-cache.js';
import { parseKey } from './key-format.js';

export interface Authenticated {
  key: ApiKeyRecord;
  account: AccountRecord;
}

/** A recognised key refused because it was revoked or expired: the audit log records the attempt. */
export class KeyRefusedError extends ApiError {
  constructor(
    code: 'api_key_revoked' | 'api_key_expired',
    message: string,
    readonly key: ApiKeyRecord,
  ) {
    super(code, message);
  }
}

// A compact JWS/JWT: three base64url parts (the third empty for `alg: none`), header starting `eyJ`.
const JWT_SHAPE = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;
const ZERO_DIGEST = '0'.repeat(64);

/** Reads `Authorization` and returns the bearer token, or throws the contract's 401. */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') {
    throw new ApiError('api_key_missing', 'No API key provided. Send it as `Authorization: Bearer <API_KEY>`.');
  }
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  const token = space === -1 ? '' : header.slice(space + 1).trim();
  if (scheme.toLowerCase() !== 'bearer') {
    throw new ApiError(
      'unsupported_auth_scheme',
      `The ${scheme.slice(0, 20)} authorization scheme is not accepted. Send the API key as \`Authorization: Bearer <API_KEY>\`.`,
    );
  }
  if (JWT_SHAPE.test(token)) {
    throw new ApiError('jwt_not_accepted', 'JSON Web Tokens are not accepted, signed or not. Authenticate with an API key.');
  }
  return token;
}

/**
 * Finds the key and its account, or throws the contract's 401. The key is hashed first and
 * looked up by hash; the stored hash is compared in constant time, and an unknown key costs the
 * same comparison as a known one.
 */
export async function authenticateKey(store: Store, cache: KeyCache, token: string, nowMs: number): Promise<Authenticated> {
  const parsed = parseKey(token);
  if (!parsed) {
    throw new ApiError('api_key_malformed', 'The API key is malformed. Keys look like `service_test_...`, `pk_test_...` or `rk_test_...`.');
  }
  const hash = sha256Hex(token);
  let entry = cache.get(hash, nowMs);
  if (!entry && !cache.isUnknown(hash, nowMs)) {
    const key = await store.findApiKeyByHash(hash);
    const account = key && (await store.findAccountById(key.accountId));
    if (key && account) {
      entry = { key, account, fetchedAt: nowMs };
      cache.set(hash, entry);
    } else {
      cache.setUnknown(hash, nowMs);
    }
  }
  const matches = digestsEqual(entry?.key.secretHash ?? ZERO_DIGEST, hash);
  if (!entry || !matches || entry.key.prefix !== parsed.prefix) {
    throw new ApiError('api_key_invalid', `Invalid API key provided: ${parsed.prefix}...${token.slice(-4)}.`);
  }
  const nowSeconds = Math.floor(nowMs / 1000);
  if (entry.key.revokedAt !== null && entry.key.revokedAt <= nowSeconds) {
    throw new KeyRefusedError('api_key_revoked', `The API key ending in ${entry.key.last4} was revoked.`, entry.key);
  }
  if (entry.key.expiresAt !== null && entry.key.expiresAt <= nowSeconds) {
    throw new KeyRefusedError('api_key_expired', `The API key ending in ${entry.key.last4} expired. Create a new key.`, entry.key);
  }
  return { key: entry.key, account: entry.account };
}
