import { randomFillSync } from 'node:crypto';

/**
 * Object ids: `<prefix>_<time><sequence><random>` in lower-case Crockford base32.
 * 10 chars of milliseconds (sortable), 3 chars of per-millisecond sequence (so ids made in the
 * same millisecond still sort in creation order), 20 chars (100 bits) of fresh randomness.
 * See docs/adr/0004-id-format.md.
 */
export const ID_PREFIXES = {
  account: 'acct',
  customer: 'cus',
  payment: 'pay',
  refund: 're',
  token: 'tok',
  card: 'card',
  checkoutSession: 'cs',
  apiKey: 'key',
  event: 'evt',
  auditEvent: 'aud',
  webhookEndpoint: 'we',
  webhookDelivery: 'whd',
  webhookAttempt: 'wha',
  request: 'req',
  processorOperation: 'pop',
} as const;

export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES];

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_CHARS = 10;
const SEQ_CHARS = 3;
const RANDOM_CHARS = 20;
const MAX_SEQ = 32 ** SEQ_CHARS - 1;
export const ID_BODY_LENGTH = TIME_CHARS + SEQ_CHARS + RANDOM_CHARS;
const FIRST_SEQ = '0'.repeat(SEQ_CHARS);

/** Random bytes already mapped to ALPHABET's character codes, used RANDOM_CHARS at a time. */
const pool = Buffer.alloc(RANDOM_CHARS * 256);
let poolOffset = pool.length;
let lastMs = -1;
let seq = 0;
/** The time part of the last id, reused while the millisecond is the same (most ids of a burst). */
let encodedMs = -1;
let encodedTime = '';

function encodeNumber(value: number, width: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[v % 32] + out;
    v = Math.floor(v / 32);
  }
  return out;
}

function randomChars(): string {
  if (poolOffset + RANDOM_CHARS > pool.length) {
    randomFillSync(pool);
    for (let i = 0; i < pool.length; i++) pool[i] = ALPHABET.charCodeAt(pool[i]! & 31);
    poolOffset = 0;
  }
  // One flat string per id, instead of one string per character.
  const out = pool.toString('latin1', poolOffset, poolOffset + RANDOM_CHARS);
  poolOffset += RANDOM_CHARS;
  return out;
}

export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  let ms = Math.max(0, Math.floor(nowMs));
  if (ms === lastMs) {
    seq++;
    if (seq > MAX_SEQ) {
      ms = lastMs + 1;
      seq = 0;
    }
  } else {
    seq = 0;
  }
  lastMs = ms;
  if (ms !== encodedMs) {
    encodedMs = ms;
    encodedTime = encodeNumber(ms, TIME_CHARS);
  }
  return `${prefix}_${encodedTime}${seq === 0 ? FIRST_SEQ : encodeNumber(seq, SEQ_CHARS)}${randomChars()}`;
}

/** The smallest id body that any id created at `ms` or later sorts at or after. */
export function idLowerBoundForTime(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeNumber(Math.max(0, ms), TIME_CHARS)}${'0'.repeat(SEQ_CHARS + RANDOM_CHARS)}`;
}

const ID_SHAPE = new RegExp(`^[a-z]+_[${ALPHABET}]{${ID_BODY_LENGTH}}$`);

export function hasIdShape(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_SHAPE.test(value);
}
