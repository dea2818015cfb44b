import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { cancelPayment, capturePayment, completeAuthentication, confirmPayment } from '../../domain/payments/lifecycle.js';
import { createAndConfirmPayment, createPayment, listPayments, retrievePayment, updatePayment } from '../../domain/payments/payments.js';
import { ApiError } from '../../errors/api-error.js';
import type { AppDeps } from '../deps.js';
import { operationContext, runStagedWrite, runWrite, sendObject, servicesFor } from '../render.js';
import { clientSecretFor } from '../publishable.js';
import { IdParams } from '../schemas/common.js';
import {
  CancelPaymentBody,
  CapturePaymentBody,
  ConfirmPaymentBody,
  CreatePaymentBody as CreateBody,
  type CreatePaymentBody,
  type ListPaymentsQuery,
  ListPaymentsQuery as ListQuery,
  TestAuthenticationBody,
  UpdatePaymentBody as UpdateBody,
  type UpdatePaymentBody,
} from '../schemas/payments.js';

const tags = ['Payments'];
const Params = IdParams('pay');
type Params = { id: string };

export function registerPaymentRoutes(app: FastifyInstance, { store, clock, payments }: AppDeps): void {
  app.post(
    '/v1/payments',
    {
      schema: {
        operationId: 'payments.create',
        summary: 'Create a payment',
        description:
          'Creates a payment for an existing customer. Without a payment method it starts as `requires_payment_method`; with `payment_method` (a `tok_` token) as `requires_confirmation`; with `confirm: true` it is confirmed at once (a declined card answers 402 and leaves the payment in `requires_payment_method` with `last_payment_error`).',
        tags,
        body: CreateBody,
        response: { 200: Type.Ref('Payment') },
      },
    },
    (req, reply) => {
      const body = req.body as CreatePaymentBody;
      if (!body.confirm) return runWrite(req, reply, store, clock, (tx, ctx) => createPayment(tx, ctx, body));
      return runStagedWrite(req, reply, clock, (ctx, seal) => createAndConfirmPayment(store, ctx, body, servicesFor(req, payments), seal));
    },
  );

  app.get(
    '/v1/payments',
    {
      schema: {
        operationId: 'payments.list',
        summary: 'List payments, newest first',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Ref('PaymentList') },
      },
    },
    async (req, reply) => sendObject(reply, await listPayments(store, operationContext(req, clock), req.query as ListPaymentsQuery)),
  );

  app.get(
    '/v1/payments/:id',
    {
      schema: {
        operationId: 'payments.retrieve',
        summary: 'Retrieve a payment',
        tags,
        params: Params,
        response: { 200: Type.Ref('Payment') },
      },
    },
    async (req, reply) => sendObject(reply, await retrievePayment(store, operationContext(req, clock), (req.params as Params).id)),
  );

  app.post(
    '/v1/payments/:id',
    {
      schema: {
        operationId: 'payments.update',
        summary: 'Update a payment’s description or metadata',
        tags,
        params: Params,
        body: UpdateBody,
        response: { 200: Type.Ref('Payment') },
      },
    },
    (req, reply) =>
      runWrite(req, reply, store, clock, (tx, ctx) => updatePayment(tx, ctx, (req.params as Params).id, req.body as UpdatePaymentBody)),
  );

  app.post(
    '/v1/payments/:id/confirm',
    {
      schema: {
        operationId: 'payments.confirm',
        summary: 'Confirm a payment: authorise (and, if automatic, capture) its card',
        description:
          'Publishable keys (browsers) may confirm with the payment’s `client_secret`. Moves the payment through `processing` to `succeeded` (automatic capture), `requires_capture` (manual), or `requires_action` (the customer must authenticate: follow `next_action.redirect_to_url.url`). A decline answers 402 `card_error` with `decline_code`.',
        tags,
        params: Params,
        body: ConfirmPaymentBody,
        response: { 200: Type.Ref('Payment') },
      },
    },
    (req, reply) => {
      const body = req.body as ConfirmPaymentBody;
      clientSecretFor(req, body.client_secret);
      return runStagedWrite(req, reply, clock, (ctx, seal) =>
        confirmPayment(store, ctx, (req.params as Params).id, body, servicesFor(req, payments), seal),
      );
    },
  );

  app.post(
    '/v1/payments/:id/capture',
    {
      schema: {
        operationId: 'payments.capture',
        summary: 'Capture an authorised payment, fully or partly',
        description: 'Only for `requires_capture`. `amount_to_capture` defaults to all of `amount_capturable`; the rest is released.',
        tags,
        params: Params,
        body: CapturePaymentBody,
        response: { 200: Type.Ref('Payment') },
      },
    },
    (req, reply) =>
      runStagedWrite(req, reply, clock, (ctx, seal) =>
        capturePayment(store, ctx, (req.params as Params).id, req.body as CapturePaymentBody, servicesFor(req, payments), seal),
      ),
  );

  app.post(
    '/v1/payments/:id/cancel',
    {
      schema: {
        operationId: 'payments.cancel',
        summary: 'Cancel a payment that has not succeeded',
        description: 'An authorisation already held is released.',
        tags,
        params: Params,
        body: CancelPaymentBody,
        response: { 200: Type.Ref('Payment') },
      },
    },
    (req, reply) =>
      runStagedWrite(req, reply, clock, (ctx, seal) =>
        cancelPayment(store, ctx, (req.params as Params).id, req.body as CancelPaymentBody, servicesFor(req, payments), seal),
      ),
  );

  app.post(
    '/v1/payments/:id/test_authentication',
    {
      schema: {
        operationId: 'payments.testAuthentication',
        summary: 'Test mode: complete or fail the customer authentication of a `requires_action` payment',
        description: 'What the hosted authentication page does when the customer presses Complete or Fail, for test integrations.',
        tags,
        params: Params,
        body: TestAuthenticationBody,
        response: { 200: Type.Ref('Payment') },
      },
    },
    (req, reply) =>
      runStagedWrite(req, reply, clock, (ctx, seal) => {
        if (ctx.scope.livemode) throw new ApiError('test_mode_only', 'test_authentication exists only in test mode.');
        const { outcome } = req.body as TestAuthenticationBody;
        return completeAuthentication(store, ctx, (req.params as Params).id, outcome, servicesFor(req, payments), seal);
      }),
  );
}
