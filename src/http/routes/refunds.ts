import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { createRefund, listRefunds, retrieveRefund } from '../../domain/refunds/refunds.js';
import type { AppDeps } from '../deps.js';
import { operationContext, runStagedWrite, sendObject, servicesFor } from '../render.js';
import { IdParams } from '../schemas/common.js';
import {
  CreateRefundBody as CreateBody,
  type CreateRefundBody,
  ListRefundsQuery as ListQuery,
  type ListRefundsQuery,
} from '../schemas/refunds.js';

const tags = ['Refunds'];
const Params = IdParams('re');

export function registerRefundRoutes(app: FastifyInstance, { store, clock, payments }: AppDeps): void {
  app.post(
    '/v1/refunds',
    {
      schema: {
        operationId: 'refunds.create',
        summary: 'Refund a payment, fully or partly',
        description:
          'Without `amount`, refunds everything captured and not yet refunded. Several partial refunds may be made; together they never exceed what was captured.',
        tags,
        body: CreateBody,
        response: { 200: Type.Ref('Refund') },
      },
    },
    (req, reply) =>
      runStagedWrite(req, reply, clock, (ctx, seal) =>
        createRefund(store, ctx, req.body as CreateRefundBody, servicesFor(req, payments), seal),
      ),
  );

  app.get(
    '/v1/refunds',
    {
      schema: {
        operationId: 'refunds.list',
        summary: 'List refunds, newest first',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Ref('RefundList') },
      },
    },
    async (req, reply) => sendObject(reply, await listRefunds(store, operationContext(req, clock), req.query as ListRefundsQuery)),
  );

  app.get(
    '/v1/refunds/:id',
    {
      schema: {
        operationId: 'refunds.retrieve',
        summary: 'Retrieve a refund',
        tags,
        params: Params,
        response: { 200: Type.Ref('Refund') },
      },
    },
    async (req, reply) => sendObject(reply, await retrieveRefund(store, operationContext(req, clock), (req.params as { id: string }).id)),
  );
}
