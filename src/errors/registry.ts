/**
 * The one registry of error codes. Responses, docs/errors.md, the OpenAPI document and the SDKs'
 * error classes all come from here; test/errors/registry.test.ts checks that they agree.
 */
export const ERROR_TYPES = [
  'invalid_request_error',
  'idempotency_error',
  'authentication_error',
  'card_error',
  'permission_error',
  'rate_limit_error',
  'api_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export interface ErrorCodeSpec {
  type: ErrorType;
  /** Default HTTP status; a few codes (resource_missing) also answer with another. */
  status: number;
  description: string;
}

function code(type: ErrorType, status: number, description: string): ErrorCodeSpec {
  return { type, status, description };
}

export const ERROR_CODES = {
  // ---- invalid_request_error: fix the request and send it again -------------------------
  parameter_missing: code('invalid_request_error', 400, 'A required parameter was not sent.'),
  parameter_unknown: code('invalid_request_error', 400, 'The request sent a parameter this endpoint does not take.'),
  parameter_invalid_type: code('invalid_request_error', 400, 'A parameter has the wrong JSON type (or null where a value is needed).'),
  parameter_invalid: code(
    'invalid_request_error',
    400,
    'A parameter has a value outside what it accepts: range, length, format or allowed values.',
  ),
  body_invalid_json: code('invalid_request_error', 400, 'The body is not valid JSON.'),
  body_not_object: code('invalid_request_error', 400, 'The body is JSON but not a JSON object.'),
  idempotency_key_missing: code('invalid_request_error', 400, 'A POST or PUT arrived without an `Idempotency-Key` header.'),
  idempotency_key_invalid: code(
    'invalid_request_error',
    400,
    'The `Idempotency-Key` is empty, longer than 255 characters or not printable ASCII.',
  ),
  api_version_invalid: code('invalid_request_error', 400, '`Service-Version` is malformed, before the first release or in the future.'),
  resource_missing: code(
    'invalid_request_error',
    404,
    'No such object (404 for an id in the path or an unknown route, 400 for an id in the body).',
  ),
  payment_unexpected_state: code('invalid_request_error', 400, 'The payment is not in a state that allows this operation.'),
  token_already_used: code(
    'invalid_request_error',
    400,
    'The card token was already used; tokens are single-use. Tokenise the card again.',
  ),
  token_expired: code('invalid_request_error', 400, 'The card token expired (tokens last 15 minutes unused). Tokenise the card again.'),
  amount_too_large: code(
    'invalid_request_error',
    400,
    'The amount is more than the operation allows: `amount_to_capture` above what is capturable, or a refund above what is left to refund.',
  ),
  test_mode_only: code('invalid_request_error', 400, 'This endpoint exists only in test mode (use a test key).'),
  charge_already_refunded: code('invalid_request_error', 400, 'Everything captured on this payment has already been refunded.'),
  payment_intent_authentication_failure: code(
    'invalid_request_error',
    400,
    'The customer failed the authentication (3-D Secure) that the card issuer asked for.',
  ),
  checkout_session_expired: code(
    'invalid_request_error',
    400,
    'The checkout session expired (24 hours after creation unless `expires_at` said sooner); create a new one.',
  ),
  checkout_session_completed: code('invalid_request_error', 400, 'The checkout session was already paid; it completes only once.'),
  client_secret_mismatch: code(
    'invalid_request_error',
    400,
    'The `client_secret` does not belong to this object (a publishable key needs the right client secret).',
  ),
  method_not_allowed: code('invalid_request_error', 405, 'The path exists but does not take this HTTP method.'),
  request_timeout: code('invalid_request_error', 408, 'The request (headers and body) did not arrive within the server’s time limit.'),
  body_too_large: code('invalid_request_error', 413, 'The body is larger than 64 KiB.'),
  url_too_long: code('invalid_request_error', 414, 'The request URL (path and query) is longer than 8 KiB.'),
  header_too_large: code('invalid_request_error', 431, 'The request line and headers together are larger than 16 KiB.'),
  request_malformed: code('invalid_request_error', 400, 'The request is not well-formed HTTP/1.1.'),
  content_type_unsupported: code('invalid_request_error', 415, 'A write request did not send `Content-Type: application/json`.'),

  // ---- idempotency_error -------------------------------------------------------------------
  idempotency_key_reused: code(
    'idempotency_error',
    400,
    'The `Idempotency-Key` was used before with other parameters or another endpoint.',
  ),
  idempotency_key_in_use: code('idempotency_error', 409, 'A request with this `Idempotency-Key` is still being processed; retry shortly.'),

  // ---- authentication_error: who is calling is not known ------------------------------------
  api_key_missing: code('authentication_error', 401, 'No `Authorization` header.'),
  unsupported_auth_scheme: code('authentication_error', 401, 'The `Authorization` header uses a scheme other than `Bearer`.'),
  jwt_not_accepted: code('authentication_error', 401, 'A JSON Web Token was sent; only API keys authenticate.'),
  api_key_malformed: code('authentication_error', 401, 'The bearer token is not one of the API key forms.'),
  api_key_invalid: code('authentication_error', 401, 'No such API key.'),
  api_key_revoked: code('authentication_error', 401, 'The API key was revoked.'),
  api_key_expired: code('authentication_error', 401, 'The API key expired; roll it to get a new one.'),
  api_key_in_query_string: code(
    'authentication_error',
    401,
    'An API key appeared in the query string; send it only in the `Authorization` header.',
  ),

  // ---- card_error --------------------------------------------------------------------------
  card_declined: code('card_error', 402, 'The card was declined; `decline_code` says why.'),
  incorrect_number: code('card_error', 402, 'The card number fails the Luhn check or has the wrong length for its brand (`card.number`).'),
  invalid_expiry_month: code('card_error', 402, 'The expiry month is not 1–12 (`card.exp_month`).'),
  invalid_expiry_year: code('card_error', 402, 'The expiry year is not a plausible year (`card.exp_year`).'),
  expired_card: code('card_error', 402, 'The card has expired (`card.exp_year` when tokenising; from the processor on confirmation).'),
  invalid_cvc: code('card_error', 402, 'The CVC is not 3 digits (4 for American Express) (`card.cvc`).'),
  incorrect_cvc: code('card_error', 402, 'The card issuer says the CVC is wrong.'),
  processing_error: code('card_error', 402, 'The processor could not complete the operation; the card may be tried again.'),

  // ---- permission_error: the caller is known but may not do this -----------------------------
  insufficient_scope: code('permission_error', 403, 'The key is valid but its kind or permissions do not allow this operation.'),
  livemode_mismatch: code('permission_error', 403, 'The object exists, but in the other mode (live vs test) than the key.'),
  https_required: code('permission_error', 403, 'A live-mode key was sent over plain HTTP from a non-loopback address.'),
  secret_key_in_browser: code(
    'permission_error',
    403,
    'A secret or restricted key arrived with an `Origin` header (from a browser). Use a publishable key in browsers, and roll the exposed key.',
  ),

  // ---- rate_limit_error --------------------------------------------------------------------
  rate_limit_exceeded: code('rate_limit_error', 429, 'Too many requests; retry after the `Retry-After` seconds.'),

  // ---- api_error: the fault is ours ----------------------------------------------------------
  internal_error: code(
    'api_error',
    500,
    'An unexpected error on the server. Nothing about it is disclosed; the request id finds it in the logs.',
  ),
  service_unavailable: code('api_error', 503, 'The service is shutting down; retry.'),
  service_overloaded: code(
    'api_error',
    503,
    'The instance is serving as many requests at once as it accepts (MAX_IN_FLIGHT); retry after the `Retry-After` seconds.',
  ),
  processor_not_configured: code(
    'api_error',
    503,
    'No payment processor is configured for live mode (set PROCESSOR); live payments cannot move money until one is.',
  ),
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** HTTP status → error type for statuses that map to exactly one type. */
export function errorTypeForStatus(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'card_error';
  if (status === 403) return 'permission_error';
  if (status === 409) return 'idempotency_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}
