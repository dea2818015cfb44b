import { ApiError } from '../../errors/api-error.js';
import { HOUR, MINUTE } from '../../lib/clock.js';
import { canonicalJson, sha256Hex } from '../../lib/hash.js';

/** How long a key and its stored response are kept (contract section 6). */
export const IDEMPOTENCY_RETENTION_MS = 24 * HOUR;
/** A claim older than this with no result belongs to a process that died; a retry may take it over. */
export const IDEMPOTENCY_STALE_CLAIM_MS = 5 * MINUTE;

/** The methods that must carry an Idempotency-Key (contract section 6). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT']);

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

export function checkIdempotencyKey(value: string | string[] | undefined): string {
  if (value === undefined) {
    throw new ApiError('idempotency_key_missing', 'An Idempotency-Key header is required on every POST and PUT request.', {
      param: 'Idempotency-Key',
    });
  }
  if (Array.isArray(value) || !PRINTABLE_ASCII.test(value)) {
    throw new ApiError('idempotency_key_invalid', 'The Idempotency-Key must be 1 to 255 printable ASCII characters.', {
      param: 'Idempotency-Key',
    });
  }
  return value;
}

/** Fingerprint of what the request asks for: same method, path and body give the same hash. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return sha256Hex(`${method} ${path}\n${canonicalJson(body ?? {})}`);
}
