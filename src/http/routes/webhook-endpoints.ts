import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookAttempts,
  listWebhookEndpoints,
  retrieveWebhookEndpoint,
  updateWebhookEndpoint,
} from '../../domain/webhooks/endpoints.js';
import type { AppDeps } from '../deps.js';
import { operationContext, runWrite, sendObject } from '../render.js';
import { IdParams } from '../schemas/common.js';
import {
  ListWebhookAttemptsQuery as AttemptsQuery,
  CreateWebhookEndpointBody as CreateBody,
  type CreateWebhookEndpointBody,
  ListWebhookEndpointsQuery as ListQuery,
  type ListWebhookAttemptsQuery,
  type ListWebhookEndpointsQuery,
  UpdateWebhookEndpointBody as UpdateBody,
  type UpdateWebhookEndpointBody,
} from '../schemas/webhook-endpoints.js';

const tags = ['Webhook endpoints'];
const Params = IdParams('we');
type Params = { id: string };

export function registerWebhookEndpointRoutes(app: FastifyInstance, { store, clock }: AppDeps): void {
  app.post(
    '/v1/webhook_endpoints',
    {
      schema: {
        operationId: 'webhookEndpoints.create',
        summary: 'Create a webhook endpoint',
        description: 'The response carries the signing secret (`whsec_...`); it is not shown again.',
        tags,
        body: CreateBody,
        response: { 200: Type.Ref('WebhookEndpoint') },
      },
    },
    (req, reply) => runWrite(req, reply, store, clock, (tx, ctx) => createWebhookEndpoint(tx, ctx, req.body as CreateWebhookEndpointBody)),
  );

  app.get(
    '/v1/webhook_endpoints',
    {
      schema: {
        operationId: 'webhookEndpoints.list',
        summary: 'List webhook endpoints, newest first',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Ref('WebhookEndpointList') },
      },
    },
    async (req, reply) =>
      sendObject(reply, await listWebhookEndpoints(store, operationContext(req, clock), req.query as ListWebhookEndpointsQuery)),
  );

  app.get(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        operationId: 'webhookEndpoints.retrieve',
        summary: 'Retrieve a webhook endpoint',
        tags,
        params: Params,
        response: { 200: Type.Ref('WebhookEndpoint') },
      },
    },
    async (req, reply) => sendObject(reply, await retrieveWebhookEndpoint(store, operationContext(req, clock), (req.params as Params).id)),
  );

  app.post(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        operationId: 'webhookEndpoints.update',
        summary: 'Update a webhook endpoint (url, events, enable or disable)',
        tags,
        params: Params,
        body: UpdateBody,
        response: { 200: Type.Ref('WebhookEndpoint') },
      },
    },
    (req, reply) =>
      runWrite(req, reply, store, clock, (tx, ctx) =>
        updateWebhookEndpoint(tx, ctx, (req.params as Params).id, req.body as UpdateWebhookEndpointBody),
      ),
  );

  app.delete(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        operationId: 'webhookEndpoints.delete',
        summary: 'Delete a webhook endpoint',
        description: 'Pending deliveries and the attempt history go with it.',
        tags,
        params: Params,
        response: { 200: Type.Ref('DeletedWebhookEndpoint') },
      },
    },
    (req, reply) => runWrite(req, reply, store, clock, (tx, ctx) => deleteWebhookEndpoint(tx, ctx, (req.params as Params).id)),
  );

  app.get(
    '/v1/webhook_endpoints/:id/attempts',
    {
      schema: {
        operationId: 'webhookEndpoints.listAttempts',
        summary: 'List delivery attempts to an endpoint, newest first',
        tags,
        params: Params,
        querystring: AttemptsQuery,
        response: { 200: Type.Ref('WebhookAttemptList') },
      },
    },
    async (req, reply) =>
      sendObject(
        reply,
        await listWebhookAttempts(store, operationContext(req, clock), (req.params as Params).id, req.query as ListWebhookAttemptsQuery),
      ),
  );
}
