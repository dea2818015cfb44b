import type { FastifyInstance, preParsingAsyncHookHandler } from 'fastify';
import { checkIdempotencyKey, IDEMPOTENT_METHODS } from '../../domain/idempotency/rules.js';
import { upgradeParams } from '../../domain/versions/resolve.js';
import type { WireObject } from '../../domain/versions/version-change.js';
import { ApiError } from '../../errors/api-error.js';
import { routeKey } from '../route-access.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const media = contentType.split(';', 1)[0]?.trim().toLowerCase();
  return media === 'application/json';
}

/**
 * Before the body is read: writes must be JSON (415). Before validation: POST and PUT must
 * carry a valid Idempotency-Key, and parameters of an older API version are rewritten to the
 * newest shape, which the schemas then validate.
 */
export function installWriteGuards(app: FastifyInstance): void {
  const requireJson: preParsingAsyncHookHandler = async function (req) {
    const hasBody = req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0';
    const needsJson = WRITES.has(req.method) || (req.method === 'DELETE' && (hasBody || req.headers['transfer-encoding']));
    if (needsJson && !isJson(req.headers['content-type'])) {
      throw new ApiError('content_type_unsupported', 'Write requests must send Content-Type: application/json.', {
        param: 'Content-Type',
      });
    }
  };
  // Only routes that take a body run it (unknown routes answer 404 before any body is read).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => WRITES.has(m) || m === 'DELETE')) return;
    const existing = route.preParsing;
    route.preParsing = [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), requireJson];
  });

  app.addHook('preValidation', (req, _reply, done) => {
    try {
      if (IDEMPOTENT_METHODS.has(req.method) && req.auth) {
        req.idempotencyKey = checkIdempotencyKey(req.headers['idempotency-key']);
      }
      const route = req.routeOptions.url && routeKey(req.method, req.routeOptions.url);
      if (route && req.apiVersion) {
        if (req.query && typeof req.query === 'object') req.query = upgradeParams(route, req.query as WireObject, req.apiVersion);
        if (req.body && typeof req.body === 'object') req.body = upgradeParams(route, req.body as WireObject, req.apiVersion);
      }
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}
