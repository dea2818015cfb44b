import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../errors/api-error.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';

/** Errors Node raises before a request reaches Fastify, in the contract's shape. */
function errorFor(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('header_too_large', 'The request line and headers are larger than 16 KiB.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout', 'The request did not arrive in time; the connection is closed.');
    default:
      return new ApiError('request_malformed', 'The request is not well-formed HTTP/1.1.');
  }
}

/**
 * Fastify's `clientErrorHandler`: headers over the size limit (431), a request that arrives too
 * slowly (408: slow-client protection) or malformed HTTP (400) get a JSON error with a Request-Id,
 * then the connection is closed. Nothing of the request is echoed.
 */
export function createClientErrorHandler(clock: Clock, log: () => { debug(o: object, m: string): void }) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const error = errorFor(err.code);
    const requestId = newId('req', clock.now());
    log().debug({ code: err.code, request_id: requestId }, 'client error');
    // A response already under way on this socket cannot be replaced (Node's own rule).
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !pending?.headersSent) {
      const body = JSON.stringify(error.toBody(requestId));
      socket.end(
        `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `Request-Id: ${requestId}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
      setTimeout(() => socket.destroy(), 1000).unref();
    } else socket.destroy();
  };
}
