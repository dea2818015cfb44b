import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignatureVerificationError } from './error-base.js';

/** Events older than this (seconds) are refused, so a captured delivery cannot be replayed later. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const SIGNATURE_SCHEME = 'v1';

/**
 * Verifies webhook deliveries: `Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`
 * keyed with the endpoint's `whsec_...` secret.
 */
export class Webhooks<E = unknown> {
  /**
   * Checks the signature and age of a delivery and returns the parsed event.
   * Pass the raw body exactly as received (a string or the bytes), not a re-serialised object.
   *
   * @example
   * const event = client.webhooks.constructEvent(rawBody, req.headers['service-signature'], process.env.WEBHOOK_SECRET);
   */
  constructEvent(
    payload: string | Uint8Array,
    header: string | string[] | undefined,
    secret: string,
    tolerance: number = DEFAULT_TOLERANCE_SECONDS,
  ): E {
    const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
    this.verifySignature(body, header, secret, tolerance);
    try {
      return JSON.parse(body) as E;
    } catch (err) {
      throw new SignatureVerificationError('The webhook payload is not JSON.', { type: 'signature_verification_error', cause: err });
    }
  }

  /** Throws a SignatureVerificationError unless some `v1` signature matches and `t` is within `tolerance` seconds of now. */
  verifySignature(
    payload: string,
    header: string | string[] | undefined,
    secret: string,
    tolerance: number = DEFAULT_TOLERANCE_SECONDS,
  ): void {
    const fail = (message: string) => new SignatureVerificationError(message, { type: 'signature_verification_error' });
    const value = Array.isArray(header) ? header[0] : header;
    if (!value) throw fail('No Service-Signature header.');
    const parts = value.split(',').map((part) => part.trim().split('='));
    const timestamp = Number(parts.find(([k]) => k === 't')?.[1]);
    const signatures = parts.filter(([k]) => k === SIGNATURE_SCHEME).map(([, v]) => v ?? '');
    if (!Number.isInteger(timestamp) || signatures.length === 0)
      throw fail('The Service-Signature header is malformed: expected t=<unix>,v1=<hex>.');
    const expected = Buffer.from(sign(payload, secret, timestamp), 'hex');
    const matches = signatures.some((s) => {
      const given = Buffer.from(s, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!matches) throw fail('No signature matches the payload. Check the endpoint secret and that the body is the raw one.');
    const age = Math.floor(Date.now() / 1000) - timestamp;
    if (tolerance > 0 && Math.abs(age) > tolerance)
      throw fail(`The signature's timestamp is ${age} s old, outside the ${tolerance} s tolerance.`);
  }

  /** Builds a valid header for a payload, for testing your webhook handler. */
  generateTestHeaderString(options: { payload: string; secret: string; timestamp?: number }): string {
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    return `t=${timestamp},${SIGNATURE_SCHEME}=${sign(options.payload, options.secret, timestamp)}`;
  }
}

function sign(payload: string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
}
