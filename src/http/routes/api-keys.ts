import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createKey,
  type KeyChangeContext,
  listKeys,
  retrieveKey,
  revokeKey,
  rollKey,
  updateKey,
} from '../../domain/api-keys/manage-keys.js';
import { type ApiKeyObject, presentKey, redactSecret } from '../../domain/api-keys/present.js';
import type { OperationContext } from '../../domain/context.js';
import type { AppDeps } from '../deps.js';
import { auditRequest } from '../plugins/audit.js';
import { operationContext, runWrite, sendObject } from '../render.js';
import {
  type CreateApiKeyBody,
  CreateApiKeyBody as CreateBody,
  EmptyBody,
  type ListApiKeysQuery,
  ListApiKeysQuery as ListQuery,
  type UpdateApiKeyBody,
  UpdateApiKeyBody as UpdateBody,
} from '../schemas/api-keys.js';
import { IdParams } from '../schemas/common.js';

const tags = ['API keys'];
const Params = IdParams('key');
type Params = { id: string };

/** The key that calls is the actor; the request (status 200: the event commits only if the write does) goes to the audit log. */
function keyContext(req: FastifyRequest, ctx: OperationContext): KeyChangeContext {
  return { ...ctx, actor: req.auth!.key, request: auditRequest(req, 200) };
}

const replayBody = (object: ApiKeyObject) => redactSecret(object);

export function registerApiKeyRoutes(app: FastifyInstance, { store, clock, keyCache }: AppDeps): void {
  app.post(
    '/v1/api_keys',
    {
      schema: {
        operationId: 'api_keys.create',
        summary: 'Create an API key',
        description:
          'Creates a restricted key (with `permissions`), or a secret or publishable key, in the calling key’s mode. The response carries the whole key in `secret`: the only time it is shown. A restricted key can create only restricted keys whose permissions are each within its own.',
        tags,
        body: CreateBody,
        response: { 200: Type.Ref('NewApiKey') },
      },
    },
    (req, reply) =>
      runWrite(req, reply, store, clock, (tx, ctx) => createKey(tx, keyContext(req, ctx), req.body as CreateApiKeyBody), { replayBody }),
  );

  app.get(
    '/v1/api_keys',
    {
      schema: {
        operationId: 'api_keys.list',
        summary: 'List the API keys of this mode, newest first',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Ref('ApiKeyList') },
      },
    },
    async (req, reply) => sendObject(reply, await listKeys(store, operationContext(req, clock), req.query as ListApiKeysQuery)),
  );

  app.get(
    '/v1/api_keys/:id',
    {
      schema: {
        operationId: 'api_keys.retrieve',
        summary: 'Retrieve an API key',
        tags,
        params: Params,
        response: { 200: Type.Ref('ApiKey') },
      },
    },
    async (req, reply) => sendObject(reply, await retrieveKey(store, operationContext(req, clock), (req.params as Params).id)),
  );

  app.post(
    '/v1/api_keys/:id',
    {
      schema: {
        operationId: 'api_keys.update',
        summary: 'Update an API key’s name or note',
        tags,
        params: Params,
        body: UpdateBody,
        response: { 200: Type.Ref('ApiKey') },
      },
    },
    async (req, reply) => {
      const id = (req.params as Params).id;
      const sent = await runWrite(req, reply, store, clock, (tx, ctx) =>
        updateKey(tx, keyContext(req, ctx), id, req.body as UpdateApiKeyBody),
      );
      keyCache.forgetKey(id);
      return sent;
    },
  );

  app.post(
    '/v1/api_keys/:id/roll',
    {
      schema: {
        operationId: 'api_keys.roll',
        summary: 'Roll an API key',
        description:
          'Issues a new key with the same kind, permissions, name and note, and answers it with `secret` (shown only now). The old key stays valid for 24 hours, or until its own expiry if that is sooner; its `expires_at` says when.',
        tags,
        params: Params,
        body: EmptyBody,
        response: { 200: Type.Ref('NewApiKey') },
      },
    },
    async (req, reply) => {
      const id = (req.params as Params).id;
      const sent = await runWrite(req, reply, store, clock, async (tx, ctx) => (await rollKey(tx, keyContext(req, ctx), id)).object, {
        replayBody,
      });
      keyCache.forgetKey(id);
      return sent;
    },
  );

  app.post(
    '/v1/api_keys/:id/revoke',
    {
      schema: {
        operationId: 'api_keys.revoke',
        summary: 'Revoke an API key at once',
        tags,
        params: Params,
        body: EmptyBody,
        response: { 200: Type.Ref('ApiKey') },
      },
    },
    async (req, reply) => {
      const id = (req.params as Params).id;
      const sent = await runWrite(req, reply, store, clock, async (tx, ctx) => presentKey(await revokeKey(tx, keyContext(req, ctx), id)));
      keyCache.forgetKey(id);
      return sent;
    },
  );
}
