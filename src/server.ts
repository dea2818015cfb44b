import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createSandboxIfEmpty } from './domain/accounts/bootstrap.js';
import { IDEMPOTENCY_RETENTION_MS } from './domain/idempotency/rules.js';
import { type Clock, MINUTE, systemClock } from './lib/clock.js';
import { openStore } from './store/open-store.js';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Opens the database, migrates it, creates the sandbox on first start, and listens. */
export async function startServer(config: Config, clock: Clock = systemClock): Promise<RunningServer> {
  const opened = openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    sqliteSynchronous: config.sqliteSynchronous,
  });
  await opened.migrate(clock.now());
  const sandbox = await createSandboxIfEmpty(opened.store, clock);

  const app = await buildApp({
    store: opened.store,
    clock,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    keyCacheTtlMs: config.keyCacheTtlMs,
    ...(config.tls ? { https: config.tls } : {}),
  });
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: opened.description, tls: Boolean(config.tls) }, 'payments service ready');

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

  const purge = setInterval(() => {
    opened.store.purgeIdempotencyKeys(clock.now() - IDEMPOTENCY_RETENTION_MS).catch((err) => {
      app.log.error({ err }, 'idempotency purge failed');
    });
  }, 10 * MINUTE);
  purge.unref();

  return {
    url: address,
    close: async () => {
      clearInterval(purge);
      // After the app: in-flight requests finish before the database closes. (An onClose hook
      // cannot be added here: buildApp has already made the instance ready.)
      await app.close();
      await opened.store.close();
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
