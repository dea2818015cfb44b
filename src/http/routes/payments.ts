import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { createPayment, listPayments, retrievePayment, updatePayment } from '../../domain/payments/payments.js';
import type { AppDeps } from '../deps.js';
import { operationContext, runWrite, sendObject } from '../render.js';
import { IdParams } from '../schemas/common.js';
import {
  CreatePaymentBody as CreateBody,
  type CreatePaymentBody,
  type ListPaymentsQuery,
  ListPaymentsQuery as ListQuery,
  UpdatePaymentBody as UpdateBody,
  type UpdatePaymentBody,
} from '../schemas/payments.js';

const tags = ['Payments'];
const Params = IdParams('pay');
type Params = { id: string };

export function registerPaymentRoutes(app: FastifyInstance, { store, clock }: AppDeps): void {
  app.post(
    '/v1/payments',
    {
      schema: {
        operationId: 'payments.create',
        summary: 'Create a payment',
        description: 'Creates a payment for an existing customer. Without a payment method it starts as `requires_payment_method`.',
        tags,
        body: CreateBody,
        response: { 200: Type.Ref('Payment') },
      },
    },
    (req, reply) => runWrite(req, reply, store, clock, (tx, ctx) => createPayment(tx, ctx, req.body as CreatePaymentBody)),
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
}
