import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { listVersions } from '../../domain/versions/list-versions.js';
import type { AppDeps } from '../deps.js';
import { JSON_TYPE } from '../content-type.js';

/** Routes that need no key: health, versions, the OpenAPI document. */
export function registerMetaRoutes(app: FastifyInstance, { store, rateLimiter }: AppDeps): void {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'health.check',
        summary: 'Liveness and readiness',
        tags: ['Meta'],
        security: [],
        response: { 200: Type.Ref('Health'), 503: Type.Ref('Health') },
      },
    },
    async (req, reply) => {
      try {
        await store.ping();
        // A degraded rate limiter still serves (per-instance limits): the instance stays in rotation.
        const rate_limiter = rateLimiter ? rateLimiter.status() : 'disabled';
        return reply.type(JSON_TYPE).send(JSON.stringify({ status: 'ok', database: 'ok', rate_limiter }));
      } catch (err) {
        req.log.error({ err }, 'health check: database unreachable');
        return reply
          .code(503)
          .type(JSON_TYPE)
          .send(JSON.stringify({ status: 'unavailable', database: 'unreachable' }));
      }
    },
  );

  app.get(
    '/v1/versions',
    {
      schema: {
        operationId: 'versions.list',
        summary: 'API releases and what each changed',
        tags: ['Meta'],
        security: [],
        response: { 200: Type.Ref('VersionList') },
      },
    },
    async (_req, reply) => reply.type(JSON_TYPE).send(JSON.stringify(listVersions())),
  );

  let document: string | undefined;
  app.get(
    '/v1/openapi.json',
    { schema: { operationId: 'openapi.retrieve', summary: 'This OpenAPI 3.1 document', tags: ['Meta'], security: [] } },
    async (_req, reply) => {
      document ??= JSON.stringify(app.swagger());
      return reply.type(JSON_TYPE).send(document);
    },
  );
}
