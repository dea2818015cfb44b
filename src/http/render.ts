import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationContext } from '../domain/context.js';
import { downgradeResponse, isLatest } from '../domain/versions/resolve.js';
import type { Clock } from '../lib/clock.js';
import type { Store } from '../store/store.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The body as the request's API version shows it, serialised once. */
export function renderBody(req: FastifyRequest, object: unknown): string {
  return JSON.stringify(isLatest(req.apiVersion) ? object : downgradeResponse(object, req.apiVersion));
}

export function operationContext(req: FastifyRequest, clock: Clock): OperationContext {
  const auth = req.auth;
  if (!auth) throw new Error('operationContext needs an authenticated request');
  return { scope: { accountId: auth.account.id, livemode: auth.key.livemode }, nowMs: clock.now(), requestId: req.id };
}

/** Answers a read: the object in the request's version. */
export function sendObject(reply: FastifyReply, object: unknown, status = 200): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(renderBody(reply.request, object));
}

/**
 * Answers a write: runs it in one transaction with the storing of its idempotent response, so
 * the object and its key's stored result commit together or not at all.
 */
export async function runWrite(
  req: FastifyRequest,
  reply: FastifyReply,
  store: Store,
  clock: Clock,
  write: (tx: Store, ctx: OperationContext) => Promise<unknown>,
  options: WriteOptions = {},
): Promise<FastifyReply> {
  const ctx = operationContext(req, clock);
  const claim = req.idempotency;
  const body = await store.transaction(async (tx) => {
    const result = await write(tx, ctx);
    const json = renderBody(req, result);
    if (claim) {
      const stored = options.replayBody ? renderBody(req, options.replayBody(result as never)) : json;
      await tx.completeIdempotencyKey(claim.scope, claim.key, 200, stored);
    }
    // The key's `api_key.used` event commits with the write it made (contract section 4).
    if (req.auditInTransaction) await req.auditInTransaction(tx, 200);
    return json;
  });
  if (claim) claim.completed = true;
  req.auditRecorded = req.auditInTransaction !== null;
  return reply.code(200).type(JSON_TYPE).send(body);
}

export interface WriteOptions {
  /** What an idempotent replay answers, when it must differ from the first response (a key's secret is shown once). */
  replayBody?: (result: never) => unknown;
}
