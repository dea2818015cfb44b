import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';
/** How old a signature a receiver should accept; docs/webhooks.md recommends it. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new signing secret: `whsec_` and 192 random bits. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** Hex HMAC-SHA256 of `t.body`, keyed with the whole secret string as it stands (`whsec_...`). */
export function computeSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The `Service-Signature` header value: `t=<unix seconds>,v1=<hex>`. */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, body)}`;
}

/**
 * What a receiver does (and the tests' receiver does): parse the header, recompute the HMAC over
 * the raw body, compare in constant time, and refuse old timestamps (replays).
 */
export function verifySignature(
  header: string | undefined,
  body: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  let timestamp = Number.NaN;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const [name, value] = part.split('=', 2).map((s) => s.trim());
    if (name === 't') timestamp = Number(value);
    if (name === 'v1' && value) candidates.push(value);
  }
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(computeSignature(secret, timestamp, body), 'hex');
  return candidates.some((c) => {
    const given = Buffer.from(c, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
