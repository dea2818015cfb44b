import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Authenticated, authenticateKey, bearerToken, KeyRefusedError } from '../../domain/api-keys/authenticate.js';
import { KEY_ANYWHERE } from '../../domain/api-keys/key-format.js';
import { LATEST_RELEASE } from '../../domain/versions/releases.js';
import { resolveVersion } from '../../domain/versions/resolve.js';
import { ApiError } from '../../errors/api-error.js';
import { DAY } from '../../lib/clock.js';
import type { AppDeps } from '../deps.js';
import { ROUTE_ACCESS, type RouteAccess, routeKey } from '../route-access.js';

const LEVEL_RANK = { none: 0, read: 1, write: 2 } as const;

/** From this long before a key expires, every response to it carries `Service-Key-Expires`. */
export const KEY_EXPIRY_WARNING_MS = 14 * DAY;

/** A route missing from the access table is treated as secret-key-only: forgetting an entry never opens a route. */
const FAIL_CLOSED: RouteAccess = { auth: 'key', resource: 'account', level: 'write' };

function queryCarriesKey(url: string): boolean {
  const q = url.indexOf('?');
  if (q === -1) return false;
  const query = url.slice(q + 1);
  if (KEY_ANYWHERE.test(query)) return true;
  try {
    return KEY_ANYWHERE.test(decodeURIComponent(query.replace(/\+/g, ' ')));
  } catch {
    return false;
  }
}

function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

function checkAccess(auth: Authenticated, access: Extract<RouteAccess, { auth: 'key' }>): void {
  const { key } = auth;
  if (key.kind === 'secret') return;
  if (key.kind === 'publishable') {
    if (access.publishable) return;
    throw new ApiError(
      'insufficient_scope',
      'Publishable keys can only tokenise cards and work with checkout sessions. Use a secret or restricted key on your server for this request.',
    );
  }
  const granted = access.resource === 'account' ? 'none' : (key.permissions?.[access.resource] ?? 'none');
  if (LEVEL_RANK[granted] < LEVEL_RANK[access.level]) {
    throw new ApiError('insufficient_scope', `This restricted key does not have ${access.level} access to ${access.resource}.`);
  }
}

/**
 * Authentication, environment and version: runs first on every request, before the body is read.
 * Order: key in query string → bearer key → live key over plain HTTP → Service-Version → scope.
 */
export function installAuthentication(app: FastifyInstance, deps: AppDeps): void {
  app.addHook('onRequest', async (req: FastifyRequest, reply) => {
    if (queryCarriesKey(req.url)) {
      throw new ApiError(
        'api_key_in_query_string',
        'API keys must never be sent in the query string, where logs and browser history keep them. Send the key in the Authorization header, and roll this key.',
      );
    }
    const access = req.routeOptions.url
      ? (ROUTE_ACCESS[routeKey(req.method === 'HEAD' ? 'GET' : req.method, req.routeOptions.url)] ?? FAIL_CLOSED)
      : undefined;
    const requested = req.headers['service-version'];
    const nowMs = deps.clock.now();
    if (!access || access.auth === 'none') {
      req.apiVersion = typeof requested === 'string' ? resolveVersion(requested, nowMs) : LATEST_RELEASE;
      return;
    }
    const token = bearerToken(req.headers.authorization);
    let auth: Authenticated;
    try {
      auth = await authenticateKey(deps.store, deps.keyCache, token, nowMs);
    } catch (err) {
      if (err instanceof KeyRefusedError) {
        req.auditKey = err.key;
        if (err.code === 'api_key_expired') req.auditKeyExpiredAt = err.key.expiresAt;
      }
      throw err;
    }
    req.auditKey = auth.key;
    if (req.headers.origin !== undefined && auth.key.kind !== 'publishable') {
      throw new ApiError(
        'secret_key_in_browser',
        'Secret and restricted keys must never be used in a browser. Use a publishable key (pk_...) there, and roll this key: it has been exposed.',
      );
    }
    const expiresAt = auth.key.expiresAt;
    if (expiresAt !== null && expiresAt * 1000 - nowMs <= KEY_EXPIRY_WARNING_MS) {
      reply.header('Service-Key-Expires', String(expiresAt));
    }
    if (auth.key.livemode && req.protocol !== 'https' && !isLoopback(req.ip)) {
      throw new ApiError(
        'https_required',
        'Live-mode keys must be sent over HTTPS. Plain HTTP is accepted only from loopback addresses, for local development.',
      );
    }
    req.auth = auth;
    req.apiVersion = typeof requested === 'string' ? resolveVersion(requested, nowMs) : auth.account.defaultVersion;
    checkAccess(auth, access);
  });

  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.apiVersion) reply.header('Service-Version', req.apiVersion);
    done(null, payload);
  });
}
