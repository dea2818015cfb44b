import type { FastifyServerOptions } from 'fastify';
import { redactKeys } from '../domain/api-keys/key-format.js';

/** Runs of 12–19 digits, with optional spaces or dashes: anything that could be a card number. */
const CARD_LIKE = /\b(?:\d[ -]?){11,18}\d\b/g;

export function scrub(value: string): string {
  return redactKeys(value).replace(CARD_LIKE, '[REDACTED-NUMBER]');
}

/**
 * pino options. Requests are logged by our own onResponse line (path only, no query string, no
 * headers); errors are scrubbed of anything key- or card-shaped before they are written.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'], censor: '[REDACTED]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        path: scrub(req.url.split('?', 1)[0] ?? ''),
        ip: req.ip,
      }),
      err: (err: Error & { code?: string }) => ({
        type: err.name,
        code: err.code,
        message: scrub(err.message ?? ''),
        stack: scrub(err.stack ?? ''),
      }),
    },
  };
}
