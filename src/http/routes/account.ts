import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AccountRecord } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import { runWrite, sendObject } from '../render.js';
import { type UpdateAccountBody, UpdateAccountBody as UpdateBody } from '../schemas/account.js';

const tags = ['Account'];

function presentAccount(a: AccountRecord) {
  return { id: a.id, object: 'account' as const, name: a.name, default_version: a.defaultVersion, created: a.created };
}

export function registerAccountRoutes(app: FastifyInstance, { store, clock, keyCache }: AppDeps): void {
  app.get(
    '/v1/account',
    {
      schema: { operationId: 'account.retrieve', summary: 'Retrieve the account of the key', tags, response: { 200: Type.Ref('Account') } },
    },
    async (req, reply) => {
      const account = await store.findAccountById(req.auth!.account.id);
      return sendObject(reply, presentAccount(account!));
    },
  );

  app.post(
    '/v1/account',
    {
      schema: {
        operationId: 'account.update',
        summary: 'Update the account: name, default API version',
        tags,
        body: UpdateBody,
        response: { 200: Type.Ref('Account') },
      },
    },
    async (req, reply) => {
      const body = req.body as UpdateAccountBody;
      const accountId = req.auth!.account.id;
      const sent = await runWrite(req, reply, store, clock, async (tx) => {
        await tx.updateAccount(accountId, { name: body.name, defaultVersion: body.default_version });
        return presentAccount((await tx.findAccountById(accountId))!);
      });
      keyCache.forgetAccount(accountId);
      return sent;
    },
  );
}
