import { ApiError, type CommittedFailure } from '../../errors/api-error.js';
import { isKnownCurrency } from '../../lib/currencies.js';
import { newId } from '../../lib/ids.js';
import type { PaymentRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { type OperationContext, seconds } from '../context.js';
import { findCustomerOrThrow } from '../customers/customers.js';
import { recordEvent } from '../events/events.js';
import { type ListObject, type ListParams, pageQuery, toList } from '../lists.js';
import { initialMetadata, mergeMetadata } from '../metadata.js';
import { attachPaymentMethod, beginConfirm, finishConfirm, type Seal } from './lifecycle.js';
import { newClientSecret } from './outcomes.js';
import { findPaymentOrThrow } from './find-payment.js';
import { type PaymentObject, presentPayment } from './present.js';
import type { PaymentServices } from './services.js';

export interface CreatePaymentInput {
  amount: number;
  currency: string;
  customer: string;
  description?: string;
  capture_method?: 'automatic' | 'manual';
  metadata?: Record<string, string>;
  /** A `tok_` token: its card becomes the payment's payment method. */
  payment_method?: string;
  confirm?: boolean;
}

export interface UpdatePaymentInput {
  description?: string | null;
  metadata?: Record<string, string | null>;
}

export interface ListPaymentsParams extends ListParams {
  customer?: string;
  status?: string;
}

/** Creates a payment (and attaches `payment_method` if given) in the caller's transaction. */
export async function createPayment(store: Store, ctx: OperationContext, input: CreatePaymentInput): Promise<PaymentObject> {
  return presentPayment(await insertPayment(store, ctx, input));
}

/** `confirm: true` at creation: create, then confirm, the creation committing with the intent row. */
export async function createAndConfirmPayment(
  store: Store,
  ctx: OperationContext,
  input: CreatePaymentInput,
  services: PaymentServices,
  seal?: Seal,
): Promise<PaymentObject | CommittedFailure> {
  if (input.payment_method === undefined) {
    throw new ApiError('parameter_missing', 'confirm: true needs a payment_method (a tok_ token).', { param: 'payment_method' });
  }
  const started = await store.transaction(async (tx) => {
    const created = await insertPayment(tx, ctx, { ...input, payment_method: undefined });
    return beginConfirm(tx, ctx, created, services, input.payment_method);
  });
  return finishConfirm(store, ctx, started, services, seal ?? (async () => {}));
}

async function insertPayment(store: Store, ctx: OperationContext, input: CreatePaymentInput): Promise<PaymentRecord> {
  if (!isKnownCurrency(input.currency)) {
    throw new ApiError('parameter_invalid', `Invalid currency: '${input.currency}'. Use an ISO 4217 code in upper case.`, {
      param: 'currency',
    });
  }
  const customer = await findCustomerOrThrow(store, ctx, input.customer, 'customer', true);
  const record: PaymentRecord = {
    id: newId('pay', ctx.nowMs),
    accountId: ctx.scope.accountId,
    livemode: ctx.scope.livemode,
    customerId: customer.id,
    amount: input.amount,
    currency: input.currency,
    description: input.description ?? null,
    captureMethod: input.capture_method ?? 'automatic',
    status: 'requires_payment_method',
    amountCapturable: 0,
    amountReceived: 0,
    amountRefunded: 0,
    paymentMethod: null,
    lastPaymentError: null,
    nextAction: null,
    cancellationReason: null,
    canceledAt: null,
    metadata: initialMetadata(input.metadata),
    created: seconds(ctx.nowMs),
    cardId: null,
    clientSecret: null,
    captureBefore: null,
    processorReference: null,
  };
  record.clientSecret = newClientSecret(record.id);
  await store.insertPayment(record);
  await recordEvent(store, ctx, 'payment.created', presentPayment(record));
  if (input.payment_method === undefined) return record;
  return attachPaymentMethod(store, ctx, record, input.payment_method);
}

export async function retrievePayment(store: Store, ctx: OperationContext, id: string): Promise<PaymentObject> {
  return presentPayment(await findPaymentOrThrow(store, ctx, id));
}

export async function updatePayment(store: Store, ctx: OperationContext, id: string, input: UpdatePaymentInput): Promise<PaymentObject> {
  const current = await findPaymentOrThrow(store, ctx, id, { forUpdate: true });
  const patch: Partial<PaymentRecord> = {};
  if (input.description !== undefined) patch.description = input.description;
  if (input.metadata !== undefined) patch.metadata = mergeMetadata(current.metadata, input.metadata);
  await store.updatePayment(ctx.scope, id, patch);
  return presentPayment({ ...current, ...patch });
}

export async function listPayments(store: Store, ctx: OperationContext, params: ListPaymentsParams): Promise<ListObject<PaymentObject>> {
  const query = await pageQuery(params, 'pay', async (id) => (await store.findPaymentById(ctx.scope, id)) !== undefined);
  const page = await store.listPayments(ctx.scope, { customerId: params.customer, status: params.status }, query);
  return toList('/v1/payments', page, presentPayment);
}
