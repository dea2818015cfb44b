import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/api-error.js';
import { JSON_TYPE } from '../content-type.js';
import { validationError } from '../validation.js';

/** Framework error codes → the contract's errors. */
function fromFramework(err: FastifyError): ApiError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('body_too_large', 'The request body is larger than 64 KiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('content_type_unsupported', 'Write requests must send Content-Type: application/json.', {
        param: 'Content-Type',
      });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('body_invalid_json', 'The Content-Length does not match the body.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('body_invalid_json', 'The body is not valid JSON.');
    default:
      return undefined;
  }
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const fe = err as FastifyError;
  if (fe?.validation) return validationError(fe.validation, fe.validationContext ?? 'body');
  const mapped = fe && typeof fe === 'object' ? fromFramework(fe) : undefined;
  if (mapped) return mapped;
  if (fe instanceof SyntaxError || (fe?.statusCode === 400 && /JSON/i.test(fe.message ?? ''))) {
    return new ApiError('body_invalid_json', 'The body is not valid JSON.');
  }
  if (fe?.statusCode === 503) return new ApiError('service_unavailable', 'The service is shutting down. Retry shortly.');
  return new ApiError('internal_error', 'An unexpected error occurred. Quote the request id when you report it.');
}

function sendError(req: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply
    .code(error.status)
    .type(JSON_TYPE)
    .send(JSON.stringify(error.toBody(req.id)));
}

/** Route patterns by path, to tell an unknown path (404) from a known path with another method (405). */
class RouteIndex {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];
  private readonly byUrl = new Map<string, Set<string>>();

  add(url: string, methods: string | string[]): void {
    let set = this.byUrl.get(url);
    if (!set) {
      set = new Set();
      this.byUrl.set(url, set);
      const source = url
        .split('/')
        .map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      this.routes.push({ pattern: new RegExp(`^${source}/?$`), methods: set });
    }
    for (const m of Array.isArray(methods) ? methods : [methods]) set.add(m);
  }

  methodsFor(path: string): string[] {
    const found = this.routes.find((r) => r.pattern.test(path));
    return found ? [...found.methods] : [];
  }
}

/** Every error, the framework's included, in the contract's shape; 404 and 405 for unknown routes. */
export function installErrors(app: FastifyInstance): void {
  const routes = new RouteIndex();
  app.addHook('onRoute', (route) => routes.add(route.url, route.method));

  app.setErrorHandler((err, req, reply) => {
    const error = toApiError(err);
    if (error.status >= 500) {
      req.log.error({ err }, 'request failed');
    }
    return sendError(req, reply, error);
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?', 1)[0] as string;
    const allowed = routes.methodsFor(path);
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendError(
        req,
        reply,
        new ApiError('method_not_allowed', `${req.method} is not allowed on ${path.slice(0, 200)}. Allowed: ${allowed.join(', ')}.`),
      );
    }
    return sendError(
      req,
      reply,
      new ApiError('resource_missing', `Unrecognized request URL (${req.method}: ${path.slice(0, 200)}).`, { status: 404 }),
    );
  });

  // JSON bodies: an empty body is {}, anything but an object is refused, and prototype keys are rejected.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, {});
    parseJson(req, text, (err: Error | null, value?: unknown) => {
      if (err) return done(new ApiError('body_invalid_json', 'The body is not valid JSON.'), undefined);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return done(new ApiError('body_not_object', 'The body must be a JSON object.'), undefined);
      }
      return done(null, value);
    });
  });
}
