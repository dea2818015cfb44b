import { randomBytes } from 'node:crypto';
import { ApiError, CommittedFailure } from '../../errors/api-error.js';
import { newId } from '../../lib/ids.js';
import type { PaymentRecord, ProcessorOperationKind, ProcessorOperationRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { completeCheckoutSessionOf } from '../checkout/complete.js';
import { type OperationContext, seconds } from '../context.js';
import { recordEvent } from '../events/events.js';
import type { AuthorizeOutcome, Declined, SimpleOutcome } from '../processor/connector.js';
import { AUTHORIZATION_LIFETIME_SECONDS } from './amounts.js';
import { type PaymentObject, presentPayment } from './present.js';
import { type PaymentStatus, transition } from './state-machine.js';

export const newClientSecret = (paymentId: string) => `${paymentId}_secret_${randomBytes(18).toString('base64url')}`;

export function authenticationUrl(baseUrl: string, p: Pick<PaymentRecord, 'id' | 'clientSecret'>): string {
  return `${baseUrl}/authenticate/${p.id}?client_secret=${encodeURIComponent(p.clientSecret ?? '')}`;
}

/** The intent row written (and committed) before the processor is called. */
export function newOperation(
  ctx: OperationContext,
  p: PaymentRecord,
  kind: ProcessorOperationKind,
  amount: number,
  processor: string,
  refundId: string | null = null,
): ProcessorOperationRecord {
  return {
    id: newId('pop', ctx.nowMs),
    accountId: p.accountId,
    livemode: p.livemode,
    paymentId: p.id,
    refundId,
    kind,
    amount,
    processor,
    state: 'pending',
    reference: p.processorReference ?? null,
    outcome: null,
    created: ctx.nowMs,
    updated: ctx.nowMs,
  };
}

export async function assertNoOperationInFlight(store: Store, p: PaymentRecord, operation: string): Promise<void> {
  if (await store.findPendingOperationForPayment(p.id)) {
    throw new ApiError(
      'payment_unexpected_state',
      `You cannot ${operation} this payment while the processor is still working on it (status ${p.status}). Retry shortly.`,
    );
  }
}

/** Moves the payment from the status it was read in, or fails if another writer moved it first. */
export async function applyPaymentChange(
  store: Store,
  ctx: OperationContext,
  p: PaymentRecord,
  patch: Partial<PaymentRecord>,
): Promise<PaymentRecord> {
  const { id: _id, accountId: _a, livemode: _l, created: _c, ...changes } = patch;
  if (!(await store.updatePaymentIfStatus(ctx.scope, p.id, p.status, changes))) {
    throw new Error(`payment ${p.id} changed status under a lock`);
  }
  return { ...p, ...changes };
}

export function declineError(d: Pick<Declined, 'code' | 'declineCode' | 'message'>): ApiError {
  return new ApiError(d.code, d.message, { declineCode: d.declineCode });
}

function paymentError(d: Declined, p: PaymentRecord): Record<string, unknown> {
  return {
    type: 'card_error',
    code: d.code,
    decline_code: d.declineCode,
    message: d.message,
    payment_method: p.paymentMethod,
  };
}

/**
 * Applies the processor's answer to an authorisation (or to the authentication that finished
 * one) to a payment in `processing`: the one place these transitions happen, for requests and
 * for reconciliation alike. Settles the intent row in the same transaction; if someone else
 * settled it first, the payment is returned as it stands.
 */
export async function applyAuthorizeOutcome(
  tx: Store,
  ctx: OperationContext,
  operation: ProcessorOperationRecord,
  outcome: AuthorizeOutcome,
  baseUrl: string,
): Promise<PaymentObject | CommittedFailure> {
  const settled = await tx.settleProcessorOperation(operation.id, {
    state: outcome.status === 'declined' ? 'failed' : 'succeeded',
    reference: outcome.reference,
    outcome: outcome as unknown as Record<string, unknown>,
    updated: ctx.nowMs,
  });
  const current = await tx.findPaymentById(ctx.scope, operation.paymentId, { forUpdate: true });
  if (!current) throw new Error(`operation ${operation.id} names a missing payment`);
  if (!settled || current.status !== 'processing') return presentPayment(current);
  const status = current.status as PaymentStatus;

  if (outcome.status === 'declined') {
    const next = await applyPaymentChange(tx, ctx, current, {
      status: transition(status, 'charge_failed'),
      lastPaymentError: paymentError(outcome, current),
      paymentMethod: null,
      cardId: null,
      nextAction: null,
      processorReference: null,
    });
    await recordEvent(tx, ctx, 'payment.payment_failed', presentPayment(next));
    return new CommittedFailure(declineError(outcome));
  }
  if (outcome.status === 'requires_action') {
    const next = await applyPaymentChange(tx, ctx, current, {
      status: transition(status, 'require_action'),
      processorReference: outcome.reference,
      nextAction: { type: 'redirect_to_url', redirect_to_url: { url: authenticationUrl(baseUrl, current) } },
    });
    const payment = presentPayment(next);
    await recordEvent(tx, ctx, 'payment.requires_action', payment);
    return payment;
  }
  if (outcome.captured) {
    const next = await applyPaymentChange(tx, ctx, current, {
      status: transition(status, 'charge_succeeded'),
      processorReference: outcome.reference,
      amountReceived: current.amount,
      amountCapturable: 0,
      nextAction: null,
    });
    const payment = presentPayment(next);
    await recordEvent(tx, ctx, 'payment.succeeded', payment);
    await completeCheckoutSessionOf(tx, ctx, next, baseUrl);
    return payment;
  }
  const next = await applyPaymentChange(tx, ctx, current, {
    status: transition(status, 'authorized'),
    processorReference: outcome.reference,
    amountCapturable: current.amount,
    captureBefore: seconds(ctx.nowMs) + AUTHORIZATION_LIFETIME_SECONDS,
    nextAction: null,
  });
  const payment = presentPayment(next);
  await recordEvent(tx, ctx, 'payment.amount_capturable_updated', payment);
  await completeCheckoutSessionOf(tx, ctx, next, baseUrl);
  return payment;
}

/** Applies the processor's answer to a capture of a payment in `requires_capture`. */
export async function applyCaptureOutcome(
  tx: Store,
  ctx: OperationContext,
  operation: ProcessorOperationRecord,
  outcome: SimpleOutcome,
): Promise<PaymentObject | CommittedFailure> {
  const settled = await tx.settleProcessorOperation(operation.id, {
    state: outcome.status === 'succeeded' ? 'succeeded' : 'failed',
    reference: outcome.reference,
    outcome: outcome as unknown as Record<string, unknown>,
    updated: ctx.nowMs,
  });
  const current = await tx.findPaymentById(ctx.scope, operation.paymentId, { forUpdate: true });
  if (!current) throw new Error(`operation ${operation.id} names a missing payment`);
  if (!settled || current.status !== 'requires_capture') return presentPayment(current);
  if (outcome.status === 'declined') return new CommittedFailure(declineError(outcome));
  const next = await applyPaymentChange(tx, ctx, current, {
    status: transition('requires_capture', 'capture'),
    amountReceived: operation.amount,
    amountCapturable: 0,
    captureBefore: null,
  });
  const payment = presentPayment(next);
  await recordEvent(tx, ctx, 'payment.succeeded', payment);
  return payment;
}

/** Cancels a payment (the caller has checked that its authorisation, if any, is being voided). */
export async function applyCancel(
  tx: Store,
  ctx: OperationContext,
  current: PaymentRecord,
  reason: string | null,
  event: 'cancel' | 'expire' = 'cancel',
): Promise<PaymentRecord> {
  const next = await applyPaymentChange(tx, ctx, current, {
    status: transition(current.status as PaymentStatus, event),
    cancellationReason: reason,
    canceledAt: seconds(ctx.nowMs),
    amountCapturable: 0,
    captureBefore: null,
    nextAction: null,
  });
  await recordEvent(tx, ctx, 'payment.canceled', presentPayment(next));
  return next;
}

export function settledOutcome(outcome: SimpleOutcome, nowMs: number) {
  return {
    state: outcome.status === 'succeeded' ? ('succeeded' as const) : ('failed' as const),
    reference: outcome.reference,
    outcome: outcome as unknown as Record<string, unknown>,
    updated: nowMs,
  };
}
