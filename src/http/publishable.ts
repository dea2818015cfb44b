import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';

/**
 * Routes that publishable keys may call on one object (a payment, a checkout session) need that
 * object's client secret from them: the publishable key says which account, the client secret
 * which object. Secret keys may send it too; it is then checked as well.
 */
export function clientSecretFor(req: FastifyRequest, given: string | undefined): string | undefined {
  if (given === undefined && req.auth?.key.kind === 'publishable') {
    throw new ApiError('parameter_missing', 'A publishable key must send the client_secret of the object it acts on.', {
      param: 'client_secret',
    });
  }
  return given;
}
