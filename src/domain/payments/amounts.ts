import type { PaymentRecord } from '../../store/records.js';

/**
 * Money rules of a payment, as pure functions. The invariant every change keeps:
 * 0 ≤ amount_refunded ≤ amount_received ≤ amount, amount_capturable > 0 only while
 * requires_capture, amount_received > 0 only once succeeded.
 */

/** Seven days (contract section 10). */
export const AUTHORIZATION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

export function refundable(p: Pick<PaymentRecord, 'amountReceived' | 'amountRefunded'>): number {
  return p.amountReceived - p.amountRefunded;
}

export function amountsConsistent(
  p: Pick<PaymentRecord, 'status' | 'amount' | 'amountCapturable' | 'amountReceived' | 'amountRefunded'>,
): boolean {
  const { amount, amountCapturable: capturable, amountReceived: received, amountRefunded: refunded } = p;
  if (refunded < 0 || refunded > received || received > amount || capturable < 0 || capturable > amount) return false;
  if (capturable > 0 && p.status !== 'requires_capture') return false;
  if (received > 0 && p.status !== 'succeeded') return false;
  return true;
}
