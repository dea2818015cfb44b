/** The `error` member of an error response (contract section 5). */
export interface RawError {
  type?: string;
  code?: string;
  message?: string;
  param?: string;
  decline_code?: string;
  request_id?: string;
}

export interface ErrorInit {
  type: string;
  code?: string | undefined;
  param?: string | undefined;
  declineCode?: string | undefined;
  statusCode?: number | undefined;
  requestId?: string | undefined;
  headers?: Record<string, string>;
  raw?: RawError;
  cause?: unknown;
}

/**
 * The base of every error the SDK throws. `instanceof` a subclass tells what to do:
 * fix the request (InvalidRequestError), retry later (RateLimitError), and so on.
 */
export class PaymentsError extends Error {
  override readonly name: string = 'PaymentsError';
  /** The contract's `error.type`, e.g. `invalid_request_error`. */
  readonly type: string;
  /** The contract's `error.code`, e.g. `parameter_missing`. */
  readonly code: string | undefined;
  /** The offending input, dotted for nested ones (`card.number`). */
  readonly param: string | undefined;
  /** Why a card was declined (card errors only). */
  readonly declineCode: string | undefined;
  /** The HTTP status; undefined when no response arrived. */
  readonly statusCode: number | undefined;
  /** The `Request-Id` that finds the request in the service's logs. */
  readonly requestId: string | undefined;
  readonly headers: Record<string, string>;
  readonly raw: RawError;

  constructor(message: string, init: ErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.type = init.type;
    this.code = init.code;
    this.param = init.param;
    this.declineCode = init.declineCode;
    this.statusCode = init.statusCode;
    this.requestId = init.requestId;
    this.headers = init.headers ?? {};
    this.raw = init.raw ?? {};
  }
}

/** No response: the connection failed or the request took longer than `timeout`. */
export class ConnectionError extends PaymentsError {
  override readonly name: string = 'ConnectionError';
}

/** A webhook's `Service-Signature` does not match its payload, or is too old. */
export class SignatureVerificationError extends PaymentsError {
  override readonly name: string = 'SignatureVerificationError';
}

/** The client was built wrongly, e.g. with a publishable key. */
export class ConfigurationError extends PaymentsError {
  override readonly name: string = 'ConfigurationError';
}
