import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { listEvents, retrieveEvent } from '../../domain/events/events.js';
import type { AppDeps } from '../deps.js';
import { operationContext, sendObject } from '../render.js';
import { IdParams } from '../schemas/common.js';
import { type ListEventsQuery, ListEventsQuery as ListQuery } from '../schemas/events.js';

const tags = ['Events'];
const Params = IdParams('evt');

export function registerEventRoutes(app: FastifyInstance, { store, clock }: AppDeps): void {
  app.get(
    '/v1/events',
    {
      schema: {
        operationId: 'events.list',
        summary: 'List events, newest first',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Ref('EventList') },
      },
    },
    async (req, reply) => sendObject(reply, await listEvents(store, operationContext(req, clock), req.query as ListEventsQuery)),
  );

  app.get(
    '/v1/events/:id',
    {
      schema: { operationId: 'events.retrieve', summary: 'Retrieve an event', tags, params: Params, response: { 200: Type.Ref('Event') } },
    },
    async (req, reply) => sendObject(reply, await retrieveEvent(store, operationContext(req, clock), (req.params as { id: string }).id)),
  );
}
