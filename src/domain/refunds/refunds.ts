import { ApiError, CommittedFailure, resourceMissing } from '../../errors/api-error.js';
import { newId } from '../../lib/ids.js';
import type { ProcessorOperationRecord, RefundRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { type OperationContext, seconds } from '../context.js';
import { recordEvent } from '../events/events.js';
import { type ListObject, type ListParams, pageQuery, toList } from '../lists.js';
import { initialMetadata } from '../metadata.js';
import { refundable } from '../payments/amounts.js';
import type { Seal } from '../payments/lifecycle.js';
import { applyPaymentChange, declineError, newOperation, settledOutcome } from '../payments/outcomes.js';
import type { PaymentServices } from '../payments/services.js';
import type { SimpleOutcome } from '../processor/connector.js';
import { crashPointAfter } from '../processor/faults.js';

export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

export interface RefundObject {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment: string;
  reason: string | null;
  status: RefundRecord['status'];
  failure_reason: string | null;
  created: number;
  livemode: boolean;
  metadata: Record<string, string>;
}

export function presentRefund(r: RefundRecord): RefundObject {
  return {
    id: r.id,
    object: 'refund',
    amount: r.amount,
    currency: r.currency,
    payment: r.paymentId,
    reason: r.reason,
    status: r.status,
    failure_reason: r.failureReason,
    created: r.created,
    livemode: r.livemode,
    metadata: r.metadata,
  };
}

export interface CreateRefundInput {
  payment: string;
  amount?: number;
  reason?: string;
  metadata?: Record<string, string>;
}

/**
 * Refunds part or all of what a payment captured. The amount is reserved on the payment
 * (`amount_refunded`) under the payment's row lock in the same transaction as the intent row,
 * so concurrent refunds can never together exceed what was captured; a failed refund gives the
 * reservation back.
 */
export async function createRefund(
  store: Store,
  ctx: OperationContext,
  input: CreateRefundInput,
  services: PaymentServices,
  seal: Seal = async () => {},
): Promise<RefundObject | CommittedFailure> {
  const started = await store.transaction(async (tx) => {
    const payment = await tx.findPaymentById(ctx.scope, input.payment, { forUpdate: true });
    if (!payment) {
      if (await tx.objectExistsInOtherMode(ctx.scope, 'payments', input.payment)) {
        throw new ApiError('livemode_mismatch', `The payment '${input.payment}' exists in the other mode than the key's.`, {
          param: 'payment',
        });
      }
      throw resourceMissing('payment', input.payment, 'payment', true);
    }
    if (payment.status !== 'succeeded') {
      throw new ApiError(
        'payment_unexpected_state',
        `You cannot refund this payment because it has a status of ${payment.status}; only succeeded payments can be refunded.`,
        { param: 'payment' },
      );
    }
    const left = refundable(payment);
    if (left <= 0) {
      throw new ApiError('charge_already_refunded', `The payment '${payment.id}' has already been refunded in full.`, { param: 'payment' });
    }
    const amount = input.amount ?? left;
    if (amount > left) {
      throw new ApiError('amount_too_large', `Refund amount (${amount}) is more than the ${left} left to refund on this payment.`, {
        param: 'amount',
      });
    }
    const connector = services.processors.forMode(ctx.scope.livemode);
    const refund: RefundRecord = {
      id: newId('re', ctx.nowMs),
      accountId: ctx.scope.accountId,
      livemode: ctx.scope.livemode,
      paymentId: payment.id,
      amount,
      currency: payment.currency,
      reason: input.reason ?? null,
      status: 'pending',
      failureReason: null,
      metadata: initialMetadata(input.metadata),
      created: seconds(ctx.nowMs),
    };
    await tx.insertRefund(refund);
    await applyPaymentChange(tx, ctx, payment, { amountRefunded: payment.amountRefunded + amount });
    const operation = newOperation(ctx, payment, 'refund', amount, connector.name, refund.id);
    await tx.insertProcessorOperation(operation);
    return { refund, operation, connector };
  });
  const { operation, connector } = started;
  const outcome = await connector.refund({ operationId: operation.id, reference: operation.reference ?? '', amount: operation.amount });
  crashPointAfter('refund');
  return store.transaction(async (tx) => {
    const result = await applyRefundOutcome(tx, ctx, operation, outcome);
    await seal(tx, result);
    return result;
  });
}

/** Settles a refund with the processor's answer (from the request, or from reconciliation). */
export async function applyRefundOutcome(
  tx: Store,
  ctx: OperationContext,
  operation: ProcessorOperationRecord,
  outcome: SimpleOutcome,
): Promise<RefundObject | CommittedFailure> {
  const refundId = operation.refundId as string;
  const settled = await tx.settleProcessorOperation(operation.id, settledOutcome(outcome, ctx.nowMs));
  const refund = await tx.findRefundById(ctx.scope, refundId);
  if (!refund) throw new Error(`operation ${operation.id} names a missing refund`);
  if (!settled || refund.status !== 'pending') return presentRefund(refund);
  if (outcome.status === 'declined') {
    const payment = await tx.findPaymentById(ctx.scope, operation.paymentId, { forUpdate: true });
    if (payment) await applyPaymentChange(tx, ctx, payment, { amountRefunded: payment.amountRefunded - refund.amount });
    const failed = { ...refund, status: 'failed' as const, failureReason: outcome.declineCode };
    await tx.updateRefund(ctx.scope, refund.id, { status: 'failed', failureReason: outcome.declineCode });
    await recordEvent(tx, ctx, 'refund.failed', presentRefund(failed));
    return new CommittedFailure(declineError(outcome));
  }
  const succeeded = { ...refund, status: 'succeeded' as const };
  await tx.updateRefund(ctx.scope, refund.id, { status: 'succeeded' });
  const object = presentRefund(succeeded);
  await recordEvent(tx, ctx, 'refund.created', object);
  return object;
}

export async function retrieveRefund(store: Store, ctx: OperationContext, id: string): Promise<RefundObject> {
  const refund = await store.findRefundById(ctx.scope, id);
  if (refund) return presentRefund(refund);
  if (await store.objectExistsInOtherMode(ctx.scope, 'refunds', id)) {
    throw new ApiError('livemode_mismatch', `The refund '${id}' exists in the other mode than the key's.`, { param: 'id' });
  }
  throw resourceMissing('refund', id, 'id');
}

export async function listRefunds(
  store: Store,
  ctx: OperationContext,
  params: ListParams & { payment?: string },
): Promise<ListObject<RefundObject>> {
  const query = await pageQuery(params, 're', async (id) => (await store.findRefundById(ctx.scope, id)) !== undefined);
  return toList('/v1/refunds', await store.listRefunds(ctx.scope, { paymentId: params.payment }, query), presentRefund);
}
