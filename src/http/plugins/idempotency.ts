import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { IDEMPOTENCY_STALE_CLAIM_MS, IDEMPOTENT_METHODS, requestFingerprint } from '../../domain/idempotency/rules.js';
import { ApiError } from '../../errors/api-error.js';
import type { IdempotencyRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { AppDeps } from '../deps.js';
import { JSON_TYPE } from '../content-type.js';

/**
 * How a request answers when its key belongs to an earlier request: that request's stored
 * response byte for byte, 409 while it runs, 400 if it asked for something else.
 */
export function answerEarlier(req: FastifyRequest, reply: FastifyReply, earlier: IdempotencyRecord, requestHash: string): FastifyReply {
  const path = req.url.split('?', 1)[0] as string;
  if (earlier.method !== req.method || earlier.path !== path) {
    throw new ApiError(
      'idempotency_key_reused',
      `This Idempotency-Key was already used for ${earlier.method} ${earlier.path}. Use a new key for a different request.`,
      { param: 'Idempotency-Key' },
    );
  }
  if (earlier.requestHash !== requestHash) {
    throw new ApiError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with different parameters. Use a new key for a different request.',
      { param: 'Idempotency-Key' },
    );
  }
  if (earlier.state === 'in_progress' || earlier.responseBody === null || earlier.responseStatus === null) {
    throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress. Retry shortly.', {
      param: 'Idempotency-Key',
    });
  }
  reply.header('Idempotent-Replayed', 'true');
  return reply.code(earlier.responseStatus).type(JSON_TYPE).send(earlier.responseBody);
}

/**
 * Claims a key whose claim was left to the write (see installIdempotency), in `tx`: the write's
 * own transaction, or a transaction of its own before a write made of several. Answers the
 * earlier request's record when another request holds or finished the key; the caller then
 * answers with `answerEarlier` instead of writing. The claim stays `deferred` on the request until
 * its transaction has committed (a rolled back write leaves the key to the error path in onSend).
 */
export async function claimDeferredKey(req: FastifyRequest, tx: Store): Promise<IdempotencyRecord | undefined> {
  const claim = req.idempotency;
  const record = claim?.deferred;
  if (!claim || !record) return undefined;
  const result = await tx.claimIdempotencyKey(record, record.lockedAt - IDEMPOTENCY_STALE_CLAIM_MS);
  return result.claimed ? undefined : result.record;
}

/**
 * Contract section 6. After validation the key is looked up: a finished earlier request is
 * replayed byte for byte, a running one answers 409, a different request with the same key 400.
 * A key nobody used yet is claimed by the write itself (render.ts): inside the write's
 * transaction when it has one, so that a create costs one transaction, not two; a concurrent
 * duplicate then finds the claim there (or, on PostgreSQL, waits for it on the key's unique index).
 * The handler stores its result with its write; errors the endpoint raised are stored here, and
 * a 5xx frees the key so that a retry may succeed.
 */
export function installIdempotency(app: FastifyInstance, deps: AppDeps): void {
  const claimOrReplay: preHandlerAsyncHookHandler = async function (req, reply) {
    const key = req.idempotencyKey;
    if (key === null || !req.auth) return;
    const scope = { accountId: req.auth.account.id, livemode: req.auth.key.livemode };
    const path = req.url.split('?', 1)[0] as string;
    const nowMs = deps.clock.now();
    const requestHash = requestFingerprint(req.method, path, req.body);
    const record: IdempotencyRecord = {
      ...scope,
      key,
      method: req.method,
      path,
      requestHash,
      state: 'in_progress',
      responseStatus: null,
      responseBody: null,
      created: nowMs,
      lockedAt: nowMs,
    };
    const earlier = await deps.store.findIdempotencyKey(scope, key);
    if (!earlier) {
      req.idempotency = { scope, key, requestHash, completed: false, deferred: record, claimer: deps.store };
      return;
    }
    // A running request's claim may be stale (its process died): the claim decides.
    const result =
      earlier.state === 'done'
        ? { claimed: false as const, record: earlier }
        : await deps.store.claimIdempotencyKey(record, nowMs - IDEMPOTENCY_STALE_CLAIM_MS);
    if (result.claimed) {
      req.idempotency = { scope, key, requestHash, completed: false, deferred: null, claimer: deps.store };
      return;
    }
    return answerEarlier(req, reply, result.record, requestHash);
  };

  const storeOutcome: onSendHookHandler = async function (req, reply, payload) {
    const claim = req.idempotency;
    if (!claim || claim.completed) return payload;
    claim.completed = true;
    if (claim.deferred) {
      // The endpoint answered without claiming (an error before or inside its transaction, which
      // rolled back): store a 4xx now, unless a concurrent request took the key meanwhile.
      if (reply.statusCode >= 500 || typeof payload !== 'string') return payload;
      await deps.store.transaction(async (tx) => {
        if ((await claimDeferredKey(req, tx)) === undefined)
          await tx.completeIdempotencyKey(claim.scope, claim.key, reply.statusCode, payload);
      });
      return payload;
    }
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await deps.store.releaseIdempotencyKey(claim.scope, claim.key);
    } else {
      await deps.store.completeIdempotencyKey(claim.scope, claim.key, reply.statusCode, payload);
    }
    return payload;
  };

  // Only the routes that take an Idempotency-Key (POST, PUT) run these hooks: reads skip them.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => IDEMPOTENT_METHODS.has(m))) return;
    route.preHandler = [...asArray(route.preHandler), claimOrReplay];
    route.onSend = [...asArray(route.onSend), storeOutcome];
  });
}

function asArray<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
