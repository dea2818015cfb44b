import type { PaymentRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { type OperationContext, seconds } from '../context.js';
import { recordEvent } from '../events/events.js';
import { presentCheckoutSession } from './present.js';

/** Statuses in which a checkout's payment has done what the customer came for. */
export const COMPLETING_PAYMENT_STATUSES = new Set(['succeeded', 'requires_capture']);

/**
 * Completes the open checkout session of `payment`, if it has one, in the transaction that
 * moved the payment: the guarded status change makes `checkout.session.completed` happen
 * exactly once, whichever path (confirm, authentication, reconciliation) got there first.
 */
export async function completeCheckoutSessionOf(tx: Store, ctx: OperationContext, payment: PaymentRecord, baseUrl: string): Promise<void> {
  if (!COMPLETING_PAYMENT_STATUSES.has(payment.status)) return;
  const session = await tx.findOpenCheckoutSessionByPayment(payment.id);
  if (!session) return;
  const completedAt = seconds(ctx.nowMs);
  if (!(await tx.updateCheckoutSessionStatus(session.id, 'open', 'complete', completedAt))) return;
  await recordEvent(
    tx,
    ctx,
    'checkout.session.completed',
    presentCheckoutSession({ ...session, status: 'complete', completedAt }, payment, baseUrl),
  );
}
