import { randomBytes } from 'node:crypto';
import { ApiError, type CommittedFailure, resourceMissing } from '../../errors/api-error.js';
import { HOUR } from '../../lib/clock.js';
import { secretsEqual } from '../../lib/hash.js';
import { newId } from '../../lib/ids.js';
import type { CheckoutSessionRecord, PaymentRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { type OperationContext, seconds } from '../context.js';
import { recordEvent } from '../events/events.js';
import { type ListObject, type ListParams, pageQuery, toList } from '../lists.js';
import { initialMetadata } from '../metadata.js';
import { confirmPayment, type Seal } from '../payments/lifecycle.js';
import { applyCancel } from '../payments/outcomes.js';
import { findPaymentOrThrow } from '../payments/find-payment.js';
import { createPayment } from '../payments/payments.js';
import type { PaymentServices } from '../payments/services.js';
import { type CheckoutSessionObject, presentCheckoutSession } from './present.js';

/** A session is payable for 24 hours unless `expires_at` says sooner (at least 30 minutes). */
export const SESSION_LIFETIME_MS = 24 * HOUR;
export const SESSION_MIN_LIFETIME_MS = HOUR / 2;

/** Payment statuses in which nothing has happened yet: an expiring session cancels such a payment. */
const UNTOUCHED = new Set(['requires_payment_method', 'requires_confirmation']);

export interface CreateCheckoutSessionInput {
  amount: number;
  currency: string;
  customer: string;
  description?: string;
  capture_method?: 'automatic' | 'manual';
  success_url: string;
  cancel_url: string;
  expires_at?: number;
  metadata?: Record<string, string>;
}

export const newSessionClientSecret = (id: string) => `${id}_secret_${randomBytes(18).toString('base64url')}`;

function checkRedirectUrl(value: string, param: string, livemode: boolean): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError('parameter_invalid', `${param} must be an absolute http(s) URL.`, { param });
  }
  const allowed = livemode ? url.protocol === 'https:' : url.protocol === 'https:' || url.protocol === 'http:';
  if (!allowed) {
    throw new ApiError('parameter_invalid', `${param} must be an ${livemode ? 'https' : 'http(s)'} URL.`, { param });
  }
}

export async function createCheckoutSession(
  tx: Store,
  ctx: OperationContext,
  input: CreateCheckoutSessionInput,
  baseUrl: string,
): Promise<CheckoutSessionObject> {
  checkRedirectUrl(input.success_url, 'success_url', ctx.scope.livemode);
  checkRedirectUrl(input.cancel_url, 'cancel_url', ctx.scope.livemode);
  const now = seconds(ctx.nowMs);
  let expiresAt = seconds(ctx.nowMs + SESSION_LIFETIME_MS);
  if (input.expires_at !== undefined) {
    if (input.expires_at < seconds(ctx.nowMs + SESSION_MIN_LIFETIME_MS) || input.expires_at > expiresAt) {
      throw new ApiError('parameter_invalid', 'expires_at must be between 30 minutes and 24 hours from now.', { param: 'expires_at' });
    }
    expiresAt = input.expires_at;
  }
  const payment = await createPayment(tx, ctx, {
    amount: input.amount,
    currency: input.currency,
    customer: input.customer,
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.capture_method !== undefined ? { capture_method: input.capture_method } : {}),
  });
  const id = newId('cs', ctx.nowMs);
  const session: CheckoutSessionRecord = {
    id,
    accountId: ctx.scope.accountId,
    livemode: ctx.scope.livemode,
    paymentId: payment.id,
    clientSecret: newSessionClientSecret(id),
    status: 'open',
    successUrl: input.success_url,
    cancelUrl: input.cancel_url,
    metadata: initialMetadata(input.metadata),
    expiresAt,
    completedAt: null,
    created: now,
  };
  await tx.insertCheckoutSession(session);
  const record = await findPaymentOrThrow(tx, ctx, payment.id);
  return presentCheckoutSession(session, record, baseUrl);
}

async function findSessionOrThrow(store: Store, ctx: OperationContext, id: string, forUpdate = false): Promise<CheckoutSessionRecord> {
  const session = await store.findCheckoutSessionById(ctx.scope, id, { forUpdate });
  if (session) return session;
  if (await store.objectExistsInOtherMode(ctx.scope, 'checkout_sessions', id)) {
    throw new ApiError('livemode_mismatch', `The checkout session '${id}' exists in the other mode than the key's.`, { param: 'id' });
  }
  throw resourceMissing('checkout session', id, 'id');
}

/**
 * Expires an open session whose time is up, unless its payment is under way (being confirmed,
 * authenticated or already paid): then the payment's outcome decides. An untouched payment is
 * canceled (`abandoned`). Runs when the session is read or confirmed: lazily, in one transaction.
 */
async function expireIfDue(
  tx: Store,
  ctx: OperationContext,
  session: CheckoutSessionRecord,
  baseUrl: string,
): Promise<CheckoutSessionRecord> {
  if (session.status !== 'open' || seconds(ctx.nowMs) < session.expiresAt) return session;
  const payment = await findPaymentOrThrow(tx, ctx, session.paymentId, { forUpdate: true });
  if (!UNTOUCHED.has(payment.status)) return session;
  if (!(await tx.updateCheckoutSessionStatus(session.id, 'open', 'expired'))) return session;
  if (!(await tx.findPendingOperationForPayment(payment.id))) await applyCancel(tx, ctx, payment, 'abandoned');
  const expired: CheckoutSessionRecord = { ...session, status: 'expired' };
  await recordEvent(tx, ctx, 'checkout.session.expired', presentCheckoutSession(expired, payment, baseUrl));
  return expired;
}

async function readSession(
  store: Store,
  ctx: OperationContext,
  id: string,
  baseUrl: string,
  clientSecret?: string,
): Promise<CheckoutSessionObject> {
  return store.transaction(async (tx) => {
    let session = await findSessionOrThrow(tx, ctx, id);
    if (clientSecret !== undefined && !secretsEqual(session.clientSecret, clientSecret)) throw secretMismatch();
    session = await expireIfDue(tx, ctx, session, baseUrl);
    return presentCheckoutSession(session, await findPaymentOrThrow(tx, ctx, session.paymentId), baseUrl);
  });
}

const secretMismatch = () =>
  new ApiError('client_secret_mismatch', 'The client_secret does not belong to this checkout session.', { param: 'client_secret' });

/** A secret key reads any session of its account; a publishable key needs the session's client secret. */
export function retrieveCheckoutSession(
  store: Store,
  ctx: OperationContext,
  id: string,
  baseUrl: string,
  clientSecret?: string,
): Promise<CheckoutSessionObject> {
  return readSession(store, ctx, id, baseUrl, clientSecret);
}

export async function listCheckoutSessions(
  store: Store,
  ctx: OperationContext,
  params: ListParams & { payment?: string },
  baseUrl: string,
): Promise<ListObject<CheckoutSessionObject>> {
  const query = await pageQuery(params, 'cs', async (id) => (await store.findCheckoutSessionById(ctx.scope, id)) !== undefined);
  const page = await store.listCheckoutSessions(ctx.scope, { paymentId: params.payment }, query);
  const payments = new Map<string, PaymentRecord>();
  for (const s of page.rows) payments.set(s.paymentId, await findPaymentOrThrow(store, ctx, s.paymentId));
  return toList('/v1/checkout/sessions', page, (s) => presentCheckoutSession(s, payments.get(s.paymentId) as PaymentRecord, baseUrl));
}

/** Expires an open session at once (the merchant's "cancel this checkout"); its untouched payment is canceled. */
export async function expireCheckoutSession(tx: Store, ctx: OperationContext, id: string, baseUrl: string): Promise<CheckoutSessionObject> {
  const session = await findSessionOrThrow(tx, ctx, id, true);
  if (session.status !== 'open') {
    throw new ApiError('payment_unexpected_state', `Only an open checkout session can be expired; this one is ${session.status}.`);
  }
  const payment = await findPaymentOrThrow(tx, ctx, session.paymentId, { forUpdate: true });
  if (!UNTOUCHED.has(payment.status)) {
    throw new ApiError('payment_unexpected_state', `The session's payment is ${payment.status}; it can no longer be expired.`);
  }
  const expired = await expireIfDue(tx, { ...ctx, nowMs: Math.max(ctx.nowMs, session.expiresAt * 1000) }, session, baseUrl);
  return presentCheckoutSession(expired, await findPaymentOrThrow(tx, ctx, session.paymentId), baseUrl);
}

/**
 * Pays a session with a card token (from the browser: publishable key + client secret). Answers
 * the session as it stands after the confirmation (complete, or open with `payment_status`
 * `requires_action` and `next_action`), or the 402 of a declined card.
 */
export async function confirmCheckoutSession(
  store: Store,
  ctx: OperationContext,
  id: string,
  input: { client_secret: string; payment_method: string },
  services: PaymentServices,
  seal: Seal,
): Promise<CheckoutSessionObject | CommittedFailure> {
  const session = await store.transaction(async (tx) => {
    const found = await findSessionOrThrow(tx, ctx, id, true);
    if (!secretsEqual(found.clientSecret, input.client_secret)) throw secretMismatch();
    const current = await expireIfDue(tx, ctx, found, services.publicBaseUrl);
    if (current.status === 'expired') throw new ApiError('checkout_session_expired', 'This checkout session has expired.');
    if (current.status === 'complete') throw new ApiError('checkout_session_completed', 'This checkout session has already been paid.');
    return current;
  });
  const present = async (tx: Store) => {
    const fresh = (await tx.findCheckoutSessionById(ctx.scope, session.id)) as CheckoutSessionRecord;
    return presentCheckoutSession(fresh, await findPaymentOrThrow(tx, ctx, session.paymentId), services.publicBaseUrl);
  };
  let answer: CheckoutSessionObject | undefined;
  const outcome = await confirmPayment(store, ctx, session.paymentId, { payment_method: input.payment_method }, services, async (tx, o) => {
    if (o && typeof o === 'object' && 'object' in o) answer = await present(tx);
    await seal(tx, answer ?? o);
  });
  return answer ?? (outcome as CommittedFailure);
}
