import type { FastifyInstance } from 'fastify';
import { IDEMPOTENCY_STALE_CLAIM_MS, requestFingerprint } from '../../domain/idempotency/rules.js';
import { ApiError } from '../../errors/api-error.js';
import type { ClaimResult } from '../../store/store.js';
import type { AppDeps } from '../deps.js';
import { JSON_TYPE } from '../render.js';

/**
 * Contract section 6. After validation the key is claimed: a finished earlier request is
 * replayed byte for byte, a running one answers 409, a different request with the same key 400.
 * The handler stores its result with its write (render.ts runWrite); errors the endpoint raised
 * are stored here, and a 5xx frees the key so that a retry may succeed.
 */
export function installIdempotency(app: FastifyInstance, deps: AppDeps): void {
  app.addHook('preHandler', async (req, reply) => {
    const key = req.idempotencyKey;
    if (key === null || !req.auth) return;
    const scope = { accountId: req.auth.account.id, livemode: req.auth.key.livemode };
    const path = req.url.split('?', 1)[0] as string;
    const nowMs = deps.clock.now();
    const requestHash = requestFingerprint(req.method, path, req.body);
    // A finished key never changes again (until purged): answering its replay needs no write.
    const finished = await deps.store.findIdempotencyKey(scope, key);
    const result: ClaimResult =
      finished?.state === 'done'
        ? { claimed: false, record: finished }
        : await deps.store.claimIdempotencyKey(
            {
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
            },
            nowMs - IDEMPOTENCY_STALE_CLAIM_MS,
          );
    if (result.claimed) {
      req.idempotency = { scope, key, completed: false };
      return;
    }
    const earlier = result.record;
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
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotency;
    if (!claim || claim.completed) return payload;
    claim.completed = true;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await deps.store.releaseIdempotencyKey(claim.scope, claim.key);
    } else {
      await deps.store.completeIdempotencyKey(claim.scope, claim.key, reply.statusCode, payload);
    }
    return payload;
  });
}
