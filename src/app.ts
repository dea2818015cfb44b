import Fastify, { type FastifyInstance, LogController } from 'fastify';
import qs from 'qs';
import { KeyCache } from './domain/api-keys/key-cache.js';
import { AuditBatcher } from './domain/audit/batcher.js';
import { createProcessors } from './domain/processor/processors.js';
import { type CardKeyring, ephemeralKeyring } from './domain/tokens/keyring.js';
import { RateLimiter } from './domain/rate-limit/rate-limiter.js';
import { type BucketLimit, DEFAULT_LIMIT } from './domain/rate-limit/token-bucket.js';
import { createClientErrorHandler } from './http/client-errors.js';
import type { AppDeps } from './http/deps.js';
import { loggerOptions } from './http/logging.js';
import { installOpenApi } from './http/openapi.js';
import { installAudit } from './http/plugins/audit.js';
import { installAuthentication } from './http/plugins/authentication.js';
import { installCors } from './http/plugins/cors.js';
import { installErrors } from './http/plugins/errors.js';
import { installIdempotency } from './http/plugins/idempotency.js';
import { installConnectionDraining, installInFlightCap, installRateLimit } from './http/plugins/limits.js';
import { installRequestLifecycle } from './http/plugins/request-lifecycle.js';
import { installWriteGuards } from './http/plugins/write-guards.js';
import { registerAccountRoutes } from './http/routes/account.js';
import { registerApiKeyRoutes } from './http/routes/api-keys.js';
import { registerAuditRoutes } from './http/routes/audit-events.js';
import { registerAuthenticationPage } from './http/routes/authentication-page.js';
import { registerBrowserRoutes } from './http/routes/browser.js';
import { registerCheckoutRoutes } from './http/routes/checkout.js';
import { registerCustomerRoutes } from './http/routes/customers.js';
import { registerEventRoutes } from './http/routes/events.js';
import { registerMetaRoutes } from './http/routes/meta.js';
import { registerPaymentRoutes } from './http/routes/payments.js';
import { registerRefundRoutes } from './http/routes/refunds.js';
import { registerTokenRoutes } from './http/routes/tokens.js';
import { registerWebhookEndpointRoutes } from './http/routes/webhook-endpoints.js';
import { compileValidator } from './http/validation.js';
import { type Clock, systemClock } from './lib/clock.js';
import { newId } from './lib/ids.js';
import './http/types.js';
import type { Store } from './store/store.js';

export const BODY_LIMIT_BYTES = 64 * 1024;
/** Request line and headers together; more is 431. */
export const MAX_HEADER_BYTES = 16 * 1024;

export interface AppOptions {
  store: Store;
  clock?: Clock;
  logLevel?: string;
  /** Any pino destination (tests capture logs through it). */
  logStream?: NodeJS.WritableStream;
  trustProxy?: boolean | string[];
  keyCacheTtlMs?: number;
  https?: { cert: Buffer; key: Buffer };
  /** The card vault's keys; default: a throwaway key (tests). */
  cardKeyring?: CardKeyring;
  /** PROCESSOR: the live-mode connector; unset, live payments answer processor_not_configured. */
  liveProcessor?: string | undefined;
  /** Origin customers' browsers reach the service on (next_action URLs); default: each request's origin. */
  publicBaseUrl?: string | undefined;
  audit?: AuditOptions;
  rateLimit?: RateLimitOptions;
  /** Requests served at once by this instance; beyond, 503 service_overloaded. Default 512. */
  maxInFlight?: number;
  timeouts?: Partial<ServerTimeouts>;
}

export interface RateLimitOptions {
  /** Default true. */
  enabled?: boolean;
  /** The limit of accounts the operator set none for. Default 100/s, bursts of 200. */
  defaults?: BucketLimit;
  /** Shares the buckets of every instance; unset, each instance limits on its own. */
  redisUrl?: string | undefined;
}

/** Server-side time limits (the slow-client protection). */
export interface ServerTimeouts {
  /** The whole request (headers and body) must arrive within this. Default 30 s. */
  requestMs: number;
  /** The request line and headers must arrive within this (slowloris). Default 10 s. */
  headersMs: number;
  /** An idle keep-alive connection is closed after this. Default 72 s: longer than a load balancer's 60 s, so the balancer closes first. */
  keepAliveMs: number;
  /** A socket with no traffic at all (also while a response is computed) is closed after this. Default 120 s. */
  idleSocketMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = { requestMs: 30_000, headersMs: 10_000, keepAliveMs: 72_000, idleSocketMs: 120_000 };
export const DEFAULT_MAX_IN_FLIGHT = 512;
/** How long start-up waits for REDIS_URL before serving with per-instance limits. */
const REDIS_START_WAIT_MS = 3000;

export interface AuditOptions {
  /** Default true. Off only to measure what the audit log costs (scripts/bench-audit.ts). */
  enabled?: boolean;
  /** How often queued `api_key.used` events of reads are committed: the most a crash can lose. Default 200 ms. */
  flushIntervalMs?: number;
  /** A batch is committed at once when it reaches this many events. Default 500. */
  maxBatch?: number;
}

/** Builds the service without listening: `inject` in tests, `listen` in src/server.ts. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const logger = loggerOptions(options.logLevel ?? 'info');
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const nodeServer = {
    maxHeaderSize: MAX_HEADER_BYTES,
    requestTimeout: timeouts.requestMs,
    headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
    // How often Node looks for requests past those limits (its default, 30 s, would let a slow client hold a socket that long).
    connectionsCheckingInterval: Math.max(100, Math.min(2000, Math.floor(timeouts.headersMs / 2))),
  };
  const app = Fastify({
    logger: options.logStream && logger && typeof logger === 'object' ? { ...logger, stream: options.logStream } : logger,
    ...(options.https ? { https: { ...nodeServer, ...options.https } } : { http: nodeServer }),
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.idleSocketMs,
    clientErrorHandler: createClientErrorHandler(clock, () => app.log),
    genReqId: () => newId('req', clock.now()),
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: options.trustProxy ?? false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: 300,
      querystringParser: (query) => qs.parse(query, { depth: 1, parameterLimit: 100, arrayLimit: 0, allowPrototypes: false }),
    },
  }) as unknown as FastifyInstance;

  const audit =
    options.audit?.enabled === false
      ? null
      : new AuditBatcher(options.store, {
          flushIntervalMs: options.audit?.flushIntervalMs ?? 200,
          maxBatch: options.audit?.maxBatch ?? 500,
          onError: (err) => app.log.error({ err }, 'audit batch not committed; retrying'),
        });
  const rateLimit = options.rateLimit ?? {};
  const rateLimiter = rateLimit.enabled === false ? null : RateLimiter.create(app.log, rateLimit.redisUrl);
  if (rateLimiter) {
    app.addHook('onClose', async () => rateLimiter.close());
    await rateLimiter.connected(REDIS_START_WAIT_MS);
  }
  const deps: AppDeps = {
    store: options.store,
    clock,
    keyCache: new KeyCache(options.keyCacheTtlMs ?? 2000),
    audit,
    rateLimiter,
    payments: {
      processors: createProcessors(options.store, clock, options.liveProcessor),
      keyring: options.cardKeyring ?? ephemeralKeyring(),
      publicBaseUrl: options.publicBaseUrl ?? '',
    },
  };
  app.decorate('auditBatcher', audit);
  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema as object, httpPart));

  installRequestLifecycle(app);
  installInFlightCap(app, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
  installConnectionDraining(app);
  installAudit(app, clock, audit);
  installErrors(app);
  installCors(app);
  installAuthentication(app, deps);
  if (rateLimiter) installRateLimit(app, rateLimiter, rateLimit.defaults ?? DEFAULT_LIMIT, clock);
  installWriteGuards(app);
  installIdempotency(app, deps);
  await installOpenApi(app);

  registerMetaRoutes(app, deps);
  registerAccountRoutes(app, deps);
  registerCustomerRoutes(app, deps);
  registerPaymentRoutes(app, deps);
  registerEventRoutes(app, deps);
  registerTokenRoutes(app, deps);
  registerRefundRoutes(app, deps);
  registerAuthenticationPage(app, deps);
  registerCheckoutRoutes(app, deps);
  registerBrowserRoutes(app, deps);
  registerWebhookEndpointRoutes(app, deps);
  registerApiKeyRoutes(app, deps);
  registerAuditRoutes(app, deps);

  await app.ready();
  return app;
}
