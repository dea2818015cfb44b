import { ERROR_CODES, type ErrorCode, type ErrorType } from './registry.js';

export interface ApiErrorOptions {
  param?: string;
  status?: number;
  declineCode?: string;
  headers?: Record<string, string>;
}

/** An error the API reports to the caller in the contract's shape. */
export class ApiError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly param: string | undefined;
  readonly declineCode: string | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    const spec = ERROR_CODES[code];
    const status = options.status ?? spec.status;
    // A 4xx is the caller's mistake, answered and never logged: its stack would say nothing, and
    // capturing one was the costliest step of a refused request. A 5xx keeps its stack for the log.
    const stackLimit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackLimit;
    this.name = 'ApiError';
    this.type = spec.type;
    this.status = status;
    this.param = options.param;
    this.declineCode = options.declineCode;
    this.headers = options.headers;
  }

  toBody(requestId: string): ErrorBody {
    const error: ErrorBody['error'] = { type: this.type, code: this.code, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    if (this.declineCode !== undefined) error.decline_code = this.declineCode;
    error.request_id = requestId;
    return { error };
  }
}

export interface ErrorBody {
  error: {
    type: ErrorType;
    code: string;
    message: string;
    param?: string;
    decline_code?: string;
    request_id?: string;
  };
}

export function resourceMissing(kind: string, id: string, param: string, inBody = false): ApiError {
  return new ApiError('resource_missing', `No such ${kind}: '${id}'.`, { param, status: inBody ? 400 : 404 });
}

/**
 * A failure that is also a recorded fact: a declined card moves the payment to
 * `requires_payment_method` with `last_payment_error`. An operation returns this (instead of
 * throwing) so its transaction commits, and the HTTP layer then answers with the error.
 */
export class CommittedFailure {
  constructor(readonly error: ApiError) {}
}
