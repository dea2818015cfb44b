import { ApiError, type CommittedFailure, resourceMissing } from '../../errors/api-error.js';
import { secretsEqual } from '../../lib/hash.js';
import type { PaymentRecord, ProcessorOperationRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { OperationContext } from '../context.js';
import { recordEvent } from '../events/events.js';
import type { CardDetails, ProcessorConnector } from '../processor/connector.js';
import { crashPointAfter } from '../processor/faults.js';
import { cardSummary, takeCardForAuthorization, useToken } from '../tokens/tokens.js';
import {
  applyAuthorizeOutcome,
  applyCancel,
  applyCaptureOutcome,
  applyPaymentChange,
  assertNoOperationInFlight,
  newOperation,
  settledOutcome,
} from './outcomes.js';
import { findPaymentOrThrow } from './find-payment.js';
import { type PaymentObject, presentPayment } from './present.js';
import type { PaymentServices } from './services.js';
import { type PaymentStatus, transition } from './state-machine.js';

/** Stores the answer with the final transaction (src/http/render.ts runStagedWrite). */
export type Seal = (tx: Store, outcome: unknown) => Promise<void>;
const noSeal: Seal = async () => {};

export const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const;

interface Started {
  payment: PaymentRecord;
  operation: ProcessorOperationRecord;
  connector: ProcessorConnector;
}

/** Attaches a token's card to the payment (the token is used up). */
export async function attachPaymentMethod(tx: Store, ctx: OperationContext, p: PaymentRecord, tokenId: string): Promise<PaymentRecord> {
  const status = transition(p.status as PaymentStatus, 'attach_payment_method', 'attach a payment method to');
  const card = await useToken(tx, ctx, tokenId);
  return applyPaymentChange(tx, ctx, p, { status, paymentMethod: cardSummary(card), cardId: card.id, lastPaymentError: null });
}

/**
 * First half of a confirmation, in the caller's transaction: check the state, take the card
 * (its CVC is erased here), move to `processing` and write the intent row. Committed before the
 * processor hears of it.
 */
export async function beginConfirm(
  tx: Store,
  ctx: OperationContext,
  current: PaymentRecord,
  services: PaymentServices,
  paymentMethod: string | undefined,
): Promise<Started & { card: CardDetails }> {
  const connector = services.processors.forMode(ctx.scope.livemode);
  let p = current;
  if (paymentMethod !== undefined) p = await attachPaymentMethod(tx, ctx, p, paymentMethod);
  const status = transition(p.status as PaymentStatus, 'confirm');
  if (!p.cardId) throw new ApiError('parameter_missing', 'Confirming needs a payment_method (a tok_ token).', { param: 'payment_method' });
  const card = await takeCardForAuthorization(tx, ctx, services.keyring, p.cardId);
  p = await applyPaymentChange(tx, ctx, p, { status, lastPaymentError: null });
  const operation = newOperation(ctx, p, 'authorize', p.amount, connector.name);
  await tx.insertProcessorOperation(operation);
  return { payment: p, operation, connector, card };
}

/** Second half: ask the processor, then record its answer with the response. */
export async function finishConfirm(
  store: Store,
  ctx: OperationContext,
  started: Started & { card: CardDetails },
  services: PaymentServices,
  seal: Seal,
): Promise<PaymentObject | CommittedFailure> {
  const { payment, operation, connector, card } = started;
  const outcome = await connector.authorize({
    operationId: operation.id,
    amount: payment.amount,
    currency: payment.currency,
    card,
    capture: payment.captureMethod === 'automatic',
  });
  crashPointAfter('authorize');
  return store.transaction(async (tx) => {
    const result = await applyAuthorizeOutcome(tx, ctx, operation, outcome, services.publicBaseUrl);
    await seal(tx, result);
    return result;
  });
}

export async function confirmPayment(
  store: Store,
  ctx: OperationContext,
  id: string,
  input: { payment_method?: string; client_secret?: string },
  services: PaymentServices,
  seal: Seal = noSeal,
): Promise<PaymentObject | CommittedFailure> {
  const started = await store.transaction(async (tx) => {
    const current = await findPaymentOrThrow(tx, ctx, id, { forUpdate: true });
    assertClientSecret(current, input.client_secret);
    await assertNoOperationInFlight(tx, current, 'confirm');
    return beginConfirm(tx, ctx, current, services, input.payment_method);
  });
  return finishConfirm(store, ctx, started, services, seal);
}

/**
 * The customer's answer to the authentication the issuer asked for (`requires_action`): from
 * the hosted page (client secret) or the test-mode API route.
 */
export async function completeAuthentication(
  store: Store,
  ctx: OperationContext,
  id: string,
  outcome: 'succeed' | 'fail',
  services: PaymentServices,
  seal: Seal = noSeal,
): Promise<PaymentObject | CommittedFailure> {
  const started = await store.transaction(async (tx) => {
    const current = await findPaymentOrThrow(tx, ctx, id, { forUpdate: true });
    const status = current.status as PaymentStatus;
    if (outcome === 'fail') {
      const next = await applyPaymentChange(tx, ctx, current, {
        status: transition(status, 'action_failed', 'authenticate'),
        lastPaymentError: {
          type: 'invalid_request_error',
          code: 'payment_intent_authentication_failure',
          message: 'The customer did not complete the authentication the card issuer asked for. Try another payment method.',
          payment_method: current.paymentMethod,
        },
        paymentMethod: null,
        cardId: null,
        nextAction: null,
        processorReference: null,
      });
      const payment = presentPayment(next);
      await recordEvent(tx, ctx, 'payment.payment_failed', payment);
      await seal(tx, payment);
      return payment;
    }
    const next = transition(status, 'action_completed', 'authenticate');
    await assertNoOperationInFlight(tx, current, 'authenticate');
    const connector = services.processors.forMode(ctx.scope.livemode);
    const p = await applyPaymentChange(tx, ctx, current, { status: next, nextAction: null });
    const operation = newOperation(ctx, p, 'authenticate', p.amount, connector.name);
    await tx.insertProcessorOperation(operation);
    return { payment: p, operation, connector };
  });
  if (!('operation' in started)) return started;
  const { payment, operation, connector } = started;
  const answer = await connector.completeAuthentication({
    operationId: operation.id,
    reference: payment.processorReference ?? '',
    succeeded: true,
    amount: payment.amount,
    capture: payment.captureMethod === 'automatic',
  });
  crashPointAfter('authenticate');
  return store.transaction(async (tx) => {
    const result = await applyAuthorizeOutcome(tx, ctx, operation, answer, services.publicBaseUrl);
    await seal(tx, result);
    return result;
  });
}

export async function capturePayment(
  store: Store,
  ctx: OperationContext,
  id: string,
  input: { amount_to_capture?: number },
  services: PaymentServices,
  seal: Seal = noSeal,
): Promise<PaymentObject | CommittedFailure> {
  const started = await store.transaction(async (tx) => {
    const current = await findPaymentOrThrow(tx, ctx, id, { forUpdate: true });
    transition(current.status as PaymentStatus, 'capture');
    await assertNoOperationInFlight(tx, current, 'capture');
    const amount = input.amount_to_capture ?? current.amountCapturable;
    if (amount > current.amountCapturable) {
      throw new ApiError(
        'amount_too_large',
        `amount_to_capture (${amount}) is more than the ${current.amountCapturable} authorised on this payment.`,
        { param: 'amount_to_capture' },
      );
    }
    const connector = services.processors.forMode(ctx.scope.livemode);
    const operation = newOperation(ctx, current, 'capture', amount, connector.name);
    await tx.insertProcessorOperation(operation);
    return { payment: current, operation, connector };
  });
  const { payment, operation, connector } = started;
  const outcome = await connector.capture({
    operationId: operation.id,
    reference: payment.processorReference ?? '',
    amount: operation.amount,
  });
  crashPointAfter('capture');
  return store.transaction(async (tx) => {
    const result = await applyCaptureOutcome(tx, ctx, operation, outcome);
    await seal(tx, result);
    return result;
  });
}

/**
 * Cancels a payment. An authorisation already held is voided at the processor: the payment is
 * canceled and the void's intent written in one transaction, then the void is sent (and
 * re-sent by reconciliation if the process dies in between).
 */
export async function cancelPayment(
  store: Store,
  ctx: OperationContext,
  id: string,
  input: { cancellation_reason?: string },
  services: PaymentServices,
  seal: Seal = noSeal,
): Promise<PaymentObject> {
  type Started = { payment: PaymentObject; operation?: ProcessorOperationRecord; connector?: ProcessorConnector };
  const started = await store.transaction(async (tx): Promise<Started> => {
    const current = await findPaymentOrThrow(tx, ctx, id, { forUpdate: true });
    transition(current.status as PaymentStatus, 'cancel');
    await assertNoOperationInFlight(tx, current, 'cancel');
    const holdsAuthorization = current.status === 'requires_capture' && current.processorReference;
    const connector = holdsAuthorization ? services.processors.forMode(ctx.scope.livemode) : undefined;
    const canceled = await applyCancel(tx, ctx, current, input.cancellation_reason ?? null);
    const payment = presentPayment(canceled);
    if (!connector) {
      await seal(tx, payment);
      return { payment };
    }
    const operation = newOperation(ctx, current, 'cancel', 0, connector.name);
    await tx.insertProcessorOperation(operation);
    return { payment, operation, connector };
  });
  const { payment, operation, connector } = started;
  if (!operation || !connector) return payment;
  const outcome = await connector.cancel({ operationId: operation.id, reference: operation.reference ?? '' });
  crashPointAfter('cancel');
  await store.transaction(async (tx) => {
    await tx.settleProcessorOperation(operation.id, settledOutcome(outcome, ctx.nowMs));
    await seal(tx, payment);
  });
  return payment;
}

/** A browser (publishable key) names the payment's client secret; a wrong one is refused. */
export function assertClientSecret(payment: PaymentRecord, clientSecret: string | undefined): void {
  if (clientSecret !== undefined && !secretsEqual(payment.clientSecret, clientSecret)) {
    throw new ApiError('client_secret_mismatch', 'The client_secret does not belong to this payment.', { param: 'client_secret' });
  }
}

/** Finds the payment a client secret belongs to, for the hosted authentication page. */
export async function findPaymentByClientSecret(store: Store, id: string, clientSecret: string): Promise<PaymentRecord> {
  const payment = clientSecret ? await store.findPaymentByClientSecret(clientSecret) : undefined;
  if (!payment || payment.id !== id) throw resourceMissing('payment', id, 'id');
  return payment;
}
