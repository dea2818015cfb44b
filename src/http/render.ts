import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE } from './content-type.js';
import type { OperationContext } from '../domain/context.js';
import type { PaymentServices } from '../domain/payments/services.js';
import { downgradeResponse, isLatest } from '../domain/versions/resolve.js';
import { CommittedFailure } from '../errors/api-error.js';
import type { Clock } from '../lib/clock.js';
import type { IdempotencyRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { answerEarlier, claimDeferredKey } from './plugins/idempotency.js';

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

/** What a write answers: its object in the request's version, or the error of a CommittedFailure. */
function renderOutcome(req: FastifyRequest, outcome: unknown): { status: number; body: string; headers?: Record<string, string> } {
  if (outcome instanceof CommittedFailure) {
    const { error } = outcome;
    return { status: error.status, body: JSON.stringify(error.toBody(req.id)), ...(error.headers ? { headers: error.headers } : {}) };
  }
  return { status: 200, body: renderBody(req, outcome) };
}

/** Stores the answer with the idempotency key inside the transaction `tx` that made the change. */
export type Seal = (tx: Store, outcome: unknown) => Promise<void>;

export interface WriteOptions {
  /** What an idempotent replay answers, when it must differ from the first response (a key's secret is shown once). */
  replayBody?: (result: never) => unknown;
}

/** The key belongs to an earlier request, found when claiming it inside the write's transaction. */
class EarlierRequest {
  constructor(readonly record: IdempotencyRecord) {}
}

/**
 * Answers a write: runs it in one transaction with the claim of its idempotency key and the
 * storing of its response, so the object and its key's stored result commit together or not at all.
 */
export function runWrite(
  req: FastifyRequest,
  reply: FastifyReply,
  store: Store,
  clock: Clock,
  write: (tx: Store, ctx: OperationContext) => Promise<unknown>,
  options: WriteOptions = {},
): Promise<FastifyReply> {
  return answerWrite(
    req,
    reply,
    clock,
    (ctx, seal) =>
      store.transaction(async (tx) => {
        const earlier = await claimDeferredKey(req, tx);
        if (earlier) return new EarlierRequest(earlier);
        const outcome = await write(tx, ctx);
        await seal(tx, outcome);
        return outcome;
      }),
    options,
  );
}

/**
 * Answers a write made of several transactions (one before a processor call, one after): the
 * key is claimed first, in a transaction of its own, so that a duplicate waits (409) while the
 * processor is called; the operation calls `seal` inside its last transaction, so the response
 * is stored with the final change. An error thrown before that leaves the key to the error path (stored if 4xx).
 */
export async function runStagedWrite(
  req: FastifyRequest,
  reply: FastifyReply,
  clock: Clock,
  write: (ctx: OperationContext, seal: Seal) => Promise<unknown>,
  options: WriteOptions = {},
): Promise<FastifyReply> {
  const claim = req.idempotency;
  if (claim?.deferred) {
    const earlier = await claim.claimer.transaction((tx) => claimDeferredKey(req, tx));
    if (earlier) {
      req.idempotency = null;
      return answerEarlier(req, reply, earlier, claim.requestHash);
    }
    claim.deferred = null;
  }
  return answerWrite(req, reply, clock, write, options);
}

async function answerWrite(
  req: FastifyRequest,
  reply: FastifyReply,
  clock: Clock,
  write: (ctx: OperationContext, seal: Seal) => Promise<unknown>,
  options: WriteOptions,
): Promise<FastifyReply> {
  const ctx = operationContext(req, clock);
  const claim = req.idempotency;
  let answer: ReturnType<typeof renderOutcome> | undefined;
  const seal: Seal = async (tx, outcome) => {
    answer = renderOutcome(req, outcome);
    if (claim) {
      const stored =
        options.replayBody && !(outcome instanceof CommittedFailure) ? renderBody(req, options.replayBody(outcome as never)) : answer.body;
      await tx.completeIdempotencyKey(claim.scope, claim.key, answer.status, stored);
    }
    // The key's `api_key.used` event commits with the write it made (contract section 4).
    if (req.auditInTransaction) await req.auditInTransaction(tx, answer.status);
  };
  const outcome = await write(ctx, seal);
  if (outcome instanceof EarlierRequest && claim) {
    // Another request holds or finished the key: nothing was written; answer as it did.
    req.idempotency = null;
    return answerEarlier(req, reply, outcome.record, claim.requestHash);
  }
  if (answer) req.auditRecorded = req.auditInTransaction !== null;
  if (claim && answer) claim.completed = true;
  answer ??= renderOutcome(req, outcome);
  if (answer.headers) reply.headers(answer.headers);
  return reply.code(answer.status).type(JSON_TYPE).send(answer.body);
}

/** The payment services with `publicBaseUrl` filled in from the request when not configured. */
export function servicesFor(req: FastifyRequest, services: PaymentServices): PaymentServices {
  return services.publicBaseUrl ? services : { ...services, publicBaseUrl: `${req.protocol}://${req.host}` };
}
