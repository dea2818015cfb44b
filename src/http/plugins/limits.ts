import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RateLimiter } from '../../domain/rate-limit/rate-limiter.js';
import { type BucketLimit, type Decision, limitFor } from '../../domain/rate-limit/token-bucket.js';
import { ApiError } from '../../errors/api-error.js';
import type { Clock } from '../../lib/clock.js';

/** The longest request target (path and query) accepted; longer is 414. */
export const MAX_URL_BYTES = 8 * 1024;

/**
 * Runs first on every request: a URL longer than MAX_URL_BYTES is 414, and beyond `maxInFlight`
 * requests being served at once the service answers 503 at once instead of queueing work it
 * cannot finish (a request leaves the count when its response closes, sent or aborted).
 */
export function installInFlightCap(app: FastifyInstance, maxInFlight: number): void {
  let inFlight = 0;
  const leave = () => {
    inFlight -= 1;
  };
  // Callback-style hooks here and below: no promise per request for work that never waits.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.raw.url && req.raw.url.length > MAX_URL_BYTES) {
      return done(new ApiError('url_too_long', `The request URL is longer than ${MAX_URL_BYTES} bytes.`));
    }
    if (inFlight >= maxInFlight) {
      return done(
        new ApiError('service_overloaded', 'The service is handling too many requests at once. Retry after a short wait.', {
          headers: { 'Retry-After': '1', 'Service-Should-Retry': 'true' },
        }),
      );
    }
    inFlight += 1;
    reply.raw.once('close', leave);
    done();
  });
}

/**
 * A token bucket per account and mode, checked right after authentication (routes without a key
 * are not limited per account). Every authenticated response says where the bucket stands in
 * `RateLimit-Limit` (bucket size), `RateLimit-Remaining` and `RateLimit-Reset` (seconds until
 * full); a refused request is 429 with `Retry-After`, before any idempotency claim, so a retry runs.
 */
export function installRateLimit(app: FastifyInstance, limiter: RateLimiter, defaults: BucketLimit, clock: Clock): void {
  const answer = (reply: FastifyReply, limit: BucketLimit, decision: Decision): ApiError | undefined => {
    reply.header('RateLimit-Limit', String(decision.limit));
    reply.header('RateLimit-Remaining', String(decision.remaining));
    reply.header('RateLimit-Reset', String(decision.resetSeconds));
    if (decision.allowed) return undefined;
    return new ApiError(
      'rate_limit_exceeded',
      `Too many requests: this account is limited to ${limit.perSecond} requests per second in each mode (bursts of ${limit.burst}). Retry after ${decision.retryAfterSeconds} s.`,
      { headers: { 'Retry-After': String(decision.retryAfterSeconds), 'Service-Should-Retry': 'true' } },
    );
  };
  app.addHook('onRequest', (req, reply, done) => {
    const auth = req.auth;
    if (!auth) return done();
    const limit = limitFor(auth.account, defaults);
    const decision = limiter.take(`${auth.account.id}:${auth.key.livemode ? 'live' : 'test'}`, limit, clock.now());
    if (decision instanceof Promise) {
      decision.then((d) => done(answer(reply, limit, d)), done);
    } else {
      done(answer(reply, limit, decision));
    }
  });
}

/**
 * While the server closes, every response (of requests that were already in flight) says
 * `Connection: close`, so its keep-alive socket ends with it: Node closes only the sockets idle
 * when closing starts, and one that falls idle later would hold the shutdown until its
 * keep-alive timeout.
 */
export function installConnectionDraining(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
}
