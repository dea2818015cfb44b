import type { FastifyInstance } from 'fastify';

/** `Request-Id` on every response, and one log line per request (never the query string or headers). */
export function installRequestLifecycle(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('apiVersion', '');
  app.decorateRequest('idempotencyKey', null);
  app.decorateRequest('idempotency', null);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('Request-Id', req.id);
  });

  app.addHook('onResponse', async (req, reply) => {
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
  });
}
