import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** `Request-Id` on every response, and one log line per request (never the query string or headers). */
export function installRequestLifecycle(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('apiVersion', '');
  app.decorateRequest('idempotencyKey', null);
  app.decorateRequest('idempotency', null);

  // Callback-style hooks: no promise per request for work that never waits.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('Request-Id', req.id);
    done();
  });

  // The level is fixed at start (LOG_LEVEL); at warn and above the line would be dropped anyway.
  if (!(app.log as Partial<Pick<Logger, 'isLevelEnabled'>>).isLevelEnabled?.('info')) return;
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info(
      {
        method: req.method,
        path: req.url.split('?', 1)[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        key: req.auth?.key.id,
        account: req.auth?.account.id,
      },
      'request',
    );
    done();
  });
}
