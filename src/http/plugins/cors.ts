import type { FastifyInstance, FastifyReply } from 'fastify';
import { ROUTE_ACCESS, routeKey } from '../route-access.js';

/** Preflight answers are cached by browsers for this long (seconds). */
const PREFLIGHT_MAX_AGE = 600;
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, Service-Version';
const EXPOSED_HEADERS = 'Request-Id, Idempotent-Replayed, Service-Version';

/** The publishable-key routes as patterns, for preflights (which name a concrete path, not a route). */
const BROWSER_ROUTES = Object.entries(ROUTE_ACCESS)
  .filter(([, access]) => access.auth === 'key' && access.publishable)
  .map(([key]) => {
    const [method, url] = key.split(' ') as [string, string];
    const source = url
      .split('/')
      .map((s) => (s.startsWith(':') ? '[^/]+' : s))
      .join('/');
    return { method, pattern: new RegExp(`^${source}/?$`) };
  });

function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header('Access-Control-Allow-Origin', origin);
  reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  reply.header('Vary', 'Origin');
}

/**
 * Cross-origin calls are allowed only on publishable-key routes (tokens, checkout session by
 * client secret, confirm by client secret, config) and their preflights. Every other route gets
 * no CORS header, so browsers refuse to let a page read it; a secret or restricted key that
 * arrives with an `Origin` at all is refused by the authentication plugin (`secret_key_in_browser`).
 */
export function installCors(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    const origin = req.headers.origin;
    if (typeof origin === 'string' && req.method !== 'OPTIONS' && req.routeOptions.url) {
      const access = ROUTE_ACCESS[routeKey(req.method === 'HEAD' ? 'GET' : req.method, req.routeOptions.url)];
      if (access?.auth === 'key' && access.publishable) allowOrigin(reply, origin);
    }
    done();
  });

  app.options('/*', { schema: { hide: true } }, async (req, reply) => {
    const origin = req.headers.origin;
    const method = req.headers['access-control-request-method'];
    const path = req.url.split('?', 1)[0] ?? '';
    const allowed =
      typeof origin === 'string' && typeof method === 'string' && BROWSER_ROUTES.some((r) => r.method === method && r.pattern.test(path));
    if (!allowed) return reply.code(403).send();
    allowOrigin(reply, origin);
    reply.header('Access-Control-Allow-Methods', method);
    reply.header('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    reply.header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE));
    return reply.code(204).send();
  });
}
