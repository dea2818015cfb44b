import { randomBytes } from 'node:crypto';
import type { ApiKeyKind } from '../../store/records.js';

/** What each kind of key starts with (spec section 2). */
export const KEY_PREFIX_BY_KIND: Record<ApiKeyKind, string> = {
  secret: 'service',
  publishable: 'pk',
  restricted: 'rk',
};
const KIND_BY_PREFIX: Record<string, ApiKeyKind> = { service: 'secret', pk: 'publishable', rk: 'restricted' };

const SECRET_LENGTH = 32; // 32 base62 characters ≈ 190 bits
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const KEY_PATTERN = /^(service|pk|rk)_(live|test)_([0-9A-Za-z]{24,128})$/;
/** Any value that looks like a key, anywhere in a string (for query strings and log scrubbing). */
export const KEY_ANYWHERE = /(?:service|pk|rk)_(?:live|test)_[0-9A-Za-z]{8,}/;
export const KEY_ANYWHERE_GLOBAL = new RegExp(KEY_ANYWHERE.source, 'g');

export interface ParsedKey {
  kind: ApiKeyKind;
  livemode: boolean;
  prefix: string;
}

export function parseKey(value: string): ParsedKey | undefined {
  const m = KEY_PATTERN.exec(value);
  if (!m) return undefined;
  const kind = KIND_BY_PREFIX[m[1] as string] as ApiKeyKind;
  const mode = m[2] as string;
  return { kind, livemode: mode === 'live', prefix: `${m[1]}_${mode}_` };
}

export function keyPrefix(kind: ApiKeyKind, livemode: boolean): string {
  return `${KEY_PREFIX_BY_KIND[kind]}_${livemode ? 'live' : 'test'}_`;
}

/** A new key of the given kind and mode: prefix + 32 random base62 characters. */
export function generateKey(kind: ApiKeyKind, livemode: boolean): string {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(SECRET_LENGTH * 2)) {
      // 248 = 4 × 62: rejecting bytes at or above it keeps every character equally likely.
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  return keyPrefix(kind, livemode) + secret;
}

/** Replaces anything key-shaped in a string, for logs. */
export function redactKeys(value: string): string {
  return value.replace(KEY_ANYWHERE_GLOBAL, (k) => `${k.slice(0, k.indexOf('_', k.indexOf('_') + 1) + 1)}[REDACTED]`);
}
