import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createSandboxIfEmpty } from './domain/accounts/bootstrap.js';
import { recordKeyExpiries } from './domain/api-keys/key-expiry.js';
import { purgeExportedAuditEvents } from './domain/audit/retention.js';
import { IDEMPOTENCY_RETENTION_MS } from './domain/idempotency/rules.js';
import { expireAuthorizations } from './domain/payments/expire.js';
import { reconcileOperations } from './domain/payments/reconcile.js';
import { createProcessors } from './domain/processor/processors.js';
import { type CardKeyring, loadKeyring } from './domain/tokens/keyring.js';
import { rewrapCards } from './domain/tokens/tokens.js';
import { startWebhookWorker, type WebhookWorker } from './domain/webhooks/worker.js';
import { type Clock, MINUTE, systemClock } from './lib/clock.js';
import { httpPost } from './lib/http-post.js';
import { openStore } from './store/open-store.js';
import type { Store } from './store/store.js';

/**
 * SQLite: the WAL is copied into the database by a thread every 100 ms; from 8,000 frames (32 MiB
 * with 4 KiB pages) writes pause for one short checkpoint so that the WAL starts over.
 */
export const SQLITE_CHECKPOINT = { intervalMs: 100, restartFrames: 8000 };

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Opens the database, migrates it, creates the sandbox on first start, and listens. */
export async function startServer(config: Config, clock: Clock = systemClock): Promise<RunningServer> {
  let reportCheckpointFailure = (err: unknown): void => {
    process.stderr.write(`WAL checkpoint thread failed: ${String(err)}\n`);
  };
  const opened = openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    sqliteSynchronous: config.sqliteSynchronous,
    sqliteBackgroundCheckpoint: { ...SQLITE_CHECKPOINT, onFailure: (err) => reportCheckpointFailure(err) },
  });
  await opened.migrate(clock.now());
  const sandbox = await createSandboxIfEmpty(opened.store, clock);
  const cardKeyring = loadKeyring(config.cardEncryptionKey, config.cardFingerprintKey, config.dataDir, (message) =>
    process.stdout.write(`${message}\n`),
  );

  const app = await buildApp({
    store: opened.store,
    clock,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    keyCacheTtlMs: config.keyCacheTtlMs,
    audit: { flushIntervalMs: config.auditFlushMs },
    ...(config.tls ? { https: config.tls } : {}),
    cardKeyring,
    liveProcessor: config.processor,
    publicBaseUrl: config.publicUrl,
    rateLimit: {
      enabled: config.rateLimit.enabled,
      defaults: { perSecond: config.rateLimit.perSecond, burst: config.rateLimit.burst },
      redisUrl: config.redisUrl,
    },
    maxInFlight: config.maxInFlight,
    timeouts: config.timeouts,
  });
  reportCheckpointFailure = (err) => app.log.error({ err }, 'WAL checkpoint thread failed; SQLite checkpoints inside COMMIT again');
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: opened.description, tls: Boolean(config.tls), rate_limits: config.redisUrl ? 'shared (redis)' : 'per instance' },
    'payments service ready',
  );

  if (sandbox) {
    // Printed once, on the terminal that started the service, never through the logger.
    process.stdout.write(
      [
        '',
        `Created a sandbox account ${sandbox.account.id}. Its test keys (shown only now):`,
        `  secret:      ${sandbox.keys.secret_test}`,
        `  publishable: ${sandbox.keys.publishable_test}`,
        'Keep them in an environment variable or a secrets store. Live keys were created too but are not shown;',
        'issue new ones with `npx payments keys list` and `npx payments keys roll <key_id>`.',
        `Try: curl ${address}/v1/payments -H "Authorization: Bearer ${sandbox.keys.secret_test}"`,
        '',
      ].join('\n'),
    );
  }

  const background = startBackgroundWork(opened.store, clock, config, cardKeyring, config.publicUrl ?? address, app.log);

  const purge = setInterval(() => {
    opened.store.purgeIdempotencyKeys(clock.now() - IDEMPOTENCY_RETENTION_MS).catch((err) => {
      app.log.error({ err }, 'idempotency purge failed');
    });
  }, 10 * MINUTE);
  purge.unref();

  // Every instance runs the worker: leases keep them from sending the same attempt twice.
  const webhooks: WebhookWorker | undefined =
    config.webhookPollMs > 0
      ? startWebhookWorker({
          store: opened.store,
          clock,
          post: httpPost,
          intervalMs: config.webhookPollMs,
          timeoutMs: config.webhookTimeoutMs,
          onError: (err) => app.log.error({ err }, 'webhook delivery pass failed'),
        })
      : undefined;
  // Keys that expire unused still get their `api_key.expired` event; exported audit events past
  // retention are deleted, and old ones not yet exported are reported, never deleted.
  const auditUpkeep = setInterval(() => {
    const nowMs = clock.now();
    recordKeyExpiries(opened.store, nowMs)
      .then(() => purgeExportedAuditEvents(opened.store, nowMs, config.auditRetentionDays))
      .then((r) => {
        if (r.purged) app.log.info({ purged: r.purged }, 'audit events past retention purged (they were exported)');
        if (r.unexportedPastRetention) {
          app.log.warn(
            { events: r.unexportedPastRetention, retention_days: config.auditRetentionDays },
            'audit events past retention are kept until exported: run `payments audit export`',
          );
        }
      })
      .catch((err) => app.log.error({ err }, 'audit upkeep failed'));
  }, MINUTE);
  auditUpkeep.unref();

  return {
    url: address,
    close: async () => {
      clearInterval(purge);
      clearInterval(auditUpkeep);
      // Deliveries in flight are sent and recorded, and background work stops, before the app
      // closes; app.close() finishes in-flight requests and commits the queued audit events;
      // only then the database closes (buildApp has already run ready(), so no onClose hook).
      await webhooks?.stop();
      await background.stop();
      try {
        await app.close();
      } finally {
        await opened.store.close();
      }
    },
  };
}

/** Entry point: `npm start` / `node dist/src/server.js`. Stops gracefully on SIGTERM and SIGINT. */
export async function runServerProcess(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const server = await startServer(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal}: finishing in-flight requests, then closing the database.\n`);
    const force = setTimeout(() => {
      process.stderr.write('Shutdown took too long; exiting.\n');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`Shutdown failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * Work outside requests: at start, reconcile processor calls a dead process left pending and
 * re-seal cards under the current key; then on an interval expire 7-day-old authorisations,
 * reconcile again and erase the CVCs of expired tokens. Every step is safe with several instances.
 */
function startBackgroundWork(
  store: Store,
  clock: Clock,
  config: Config,
  keyring: CardKeyring,
  publicBaseUrl: string,
  log: { info(o: object, m: string): void; error(o: object, m: string): void },
): { stop(): Promise<void> } {
  const processors = createProcessors(store, clock, config.processor);
  let running: Promise<void> = Promise.resolve();
  const run = (what: string, work: () => Promise<number>) =>
    work().then(
      (n) => {
        if (n > 0) log.info({ count: n }, what);
      },
      (err) => log.error({ err }, `${what} failed`),
    );
  const sweep = async () => {
    await run('processor operations reconciled', () =>
      reconcileOperations(store, clock, processors, publicBaseUrl, config.reconcileGraceMs),
    );
    await run('authorisations expired', () => expireAuthorizations(store, clock, processors));
    await run('expired token CVCs erased', () => store.eraseExpiredTokenCvcs(Math.floor(clock.now() / 1000)));
  };
  running = (async () => {
    await run('cards re-sealed under the current key', () => rewrapCards(store, keyring));
    await sweep();
  })();
  const timer = setInterval(() => {
    running = running.then(sweep);
  }, config.sweepIntervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
