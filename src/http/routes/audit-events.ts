import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { listAuditEvents, retrieveAuditEvent } from '../../domain/audit/audit-log.js';
import type { AppDeps } from '../deps.js';
import { operationContext, sendObject } from '../render.js';
import { type ListAuditEventsQuery, ListAuditEventsQuery as ListQuery } from '../schemas/audit-events.js';
import { IdParams } from '../schemas/common.js';

const tags = ['Audit events'];
const Params = IdParams('aud');

/** Read-only: audit events cannot be altered or deleted through the API (contract section 4). */
export function registerAuditRoutes(app: FastifyInstance, { store, clock, audit }: AppDeps): void {
  app.get(
    '/v1/audit_events',
    {
      schema: {
        operationId: 'audit_events.list',
        summary: 'List audit events, newest first',
        description:
          'Every key creation, roll, revocation, expiry and use in this mode. Uses of reads are committed in batches (at most 200 ms later); this list first commits what this process has queued.',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Ref('AuditEventList') },
      },
    },
    async (req, reply) => {
      if (audit) await audit.flush();
      return sendObject(reply, await listAuditEvents(store, operationContext(req, clock), req.query as ListAuditEventsQuery));
    },
  );

  app.get(
    '/v1/audit_events/:id',
    {
      schema: {
        operationId: 'audit_events.retrieve',
        summary: 'Retrieve an audit event',
        tags,
        params: Params,
        response: { 200: Type.Ref('AuditEvent') },
      },
    },
    async (req, reply) => {
      if (audit) await audit.flush();
      return sendObject(reply, await retrieveAuditEvent(store, operationContext(req, clock), (req.params as { id: string }).id));
    },
  );
}
