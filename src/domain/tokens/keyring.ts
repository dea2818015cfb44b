import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The card vault's keys: AES-256-GCM keys by version. The first key in CARD_ENCRYPTION_KEY is
 * current (it encrypts); every listed key decrypts what it encrypted, so a key is rotated by
 * putting a new one first (`v2:<base64>,v1:<base64>`) and re-encrypting (rewrapCards).
 */
export interface CardKeyring {
  current: { version: number; key: Buffer };
  keys: ReadonlyMap<number, Buffer>;
  /** HMAC key for fingerprints; derived from the oldest key so rotation keeps fingerprints stable. */
  fingerprintKey: Buffer;
}

export class KeyringError extends Error {}

const KEY_FILE = 'card-encryption.key';

export function parseKeyring(spec: string, fingerprintKey?: string): CardKeyring {
  const entries = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((part, i, all) => {
      const m = /^(?:v(\d+):)?([A-Za-z0-9+/=_-]+)$/.exec(part);
      if (!m) throw new KeyringError('CARD_ENCRYPTION_KEY must be base64 keys, optionally as v2:<base64>,v1:<base64>.');
      const version = m[1] ? Number(m[1]) : all.length - i;
      const key = Buffer.from(m[2] as string, 'base64');
      if (key.length !== 32) throw new KeyringError(`CARD_ENCRYPTION_KEY version ${version} must be 32 bytes of base64.`);
      return { version, key };
    });
  const first = entries[0];
  if (!first) throw new KeyringError('CARD_ENCRYPTION_KEY is empty.');
  const keys = new Map(entries.map((e) => [e.version, e.key]));
  if (keys.size !== entries.length) throw new KeyringError('CARD_ENCRYPTION_KEY lists a version twice.');
  const oldest = entries.reduce((a, b) => (b.version < a.version ? b : a));
  const fp = fingerprintKey
    ? Buffer.from(fingerprintKey, 'base64')
    : Buffer.from(hkdfSync('sha256', oldest.key, Buffer.alloc(0), 'card-fingerprint', 32));
  return { current: first, keys, fingerprintKey: fp };
}

/** A throwaway keyring (tests and apps built without one). */
export function ephemeralKeyring(): CardKeyring {
  return parseKeyring(`v1:${randomBytes(32).toString('base64')}`);
}

/**
 * CARD_ENCRYPTION_KEY when set; otherwise the key kept in DATA_DIR, created with 0600 on first
 * start. `notice` tells the operator when that happens.
 */
export function loadKeyring(
  configured: string | undefined,
  fingerprintKey: string | undefined,
  dataDir: string,
  notice: (message: string) => void,
): CardKeyring {
  if (configured) return parseKeyring(configured, fingerprintKey);
  const path = join(dataDir, KEY_FILE);
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path, `v1:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
    notice(
      `Created a card encryption key in ${path} (mode 0600). Back it up: cards stored under it cannot be read without it. ` +
        'With several instances, set CARD_ENCRYPTION_KEY instead so they share one key.',
    );
  }
  return parseKeyring(readFileSync(path, 'utf8'), fingerprintKey);
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `v<version>.<base64(iv | tag | ciphertext)>`; `aad` binds the ciphertext to its row. */
export function seal(keyring: CardKeyring, plaintext: string, aad: string): string {
  const { version, key } = keyring.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v${version}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

export function sealedVersion(sealed: string): number {
  return Number(/^v(\d+)\./.exec(sealed)?.[1] ?? Number.NaN);
}

export function open(keyring: CardKeyring, sealed: string, aad: string): string {
  const version = sealedVersion(sealed);
  const key = keyring.keys.get(version);
  if (!key) throw new KeyringError(`No card encryption key of version ${version} is configured.`);
  const raw = Buffer.from(sealed.slice(sealed.indexOf('.') + 1), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** Same card, same account → same fingerprint; nothing about the number can be read from it. */
export function fingerprint(keyring: CardKeyring, accountId: string, number: string): string {
  return createHmac('sha256', keyring.fingerprintKey).update(`${accountId}:${number}`).digest('base64url').slice(0, 16);
}
