import Fastify, { type FastifyInstance, LogController } from 'fastify';
import qs from 'qs';
import { KeyCache } from './domain/api-keys/key-cache.js';
import { AuditBatcher } from './domain/audit/batcher.js';
import { createProcessors } from './domain/processor/processors.js';
import { type CardKeyring, ephemeralKeyring } from './domain/tokens/keyring.js';
import type { AppDeps } from './http/deps.js';
import { loggerOptions } from './http/logging.js';
import { installOpenApi } from './http/openapi.js';
import { installAudit } from './http/plugins/audit.js';
import { installAuthentication } from './http/plugins/authentication.js';
import { installCors } from './http/plugins/cors.js';
import { installErrors } from './http/plugins/errors.js';
import { installIdempotency } from './http/plugins/idempotency.js';
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
}

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
  const app = Fastify({
    logger: options.logStream && logger && typeof logger === 'object' ? { ...logger, stream: options.logStream } : logger,
    ...(options.https ? { https: options.https } : {}),
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
  const deps: AppDeps = {
    store: options.store,
    clock,
    keyCache: new KeyCache(options.keyCacheTtlMs ?? 2000),
    audit,
    payments: {
      processors: createProcessors(options.store, clock, options.liveProcessor),
      keyring: options.cardKeyring ?? ephemeralKeyring(),
      publicBaseUrl: options.publicBaseUrl ?? '',
    },
  };
  app.decorate('auditBatcher', audit);
  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema as object, httpPart));

  installRequestLifecycle(app);
  installAudit(app, clock, audit);
  installErrors(app);
  installCors(app);
  installAuthentication(app, deps);
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
