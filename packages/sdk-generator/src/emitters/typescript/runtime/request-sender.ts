import { randomUUID } from 'node:crypto';
import { errorFromResponse } from '../errors.js';
import { type ApiVersionName, SDK_VERSION } from '../version.js';
import { ConfigurationError, ConnectionError, type PaymentsError } from './error-base.js';
import { encodeQuery } from './query.js';

export interface ClientOptions {
  /** Pins the API version (`YYYY-MM-DD`), sent as `Service-Version`. Absent: the account's default. */
  apiVersion?: ApiVersionName;
  /** Milliseconds each attempt may take before it is abandoned (then retried, or a ConnectionError). Default 30000. */
  timeout?: number;
  /** How many times a failed request is retried (connection errors, 409, 429, 5xx). Default 2. */
  maxNetworkRetries?: number;
  /** Where the service listens, without `/v1`. Default `http://127.0.0.1:4242` (a local `npm start`). */
  baseUrl?: string;
}

/** Per-call overrides. */
export interface RequestOptions {
  /** Reuse your own key to make a call safe to repeat across processes; by default one is generated per call. */
  idempotencyKey?: string;
  apiVersion?: ApiVersionName;
  timeout?: number;
  maxNetworkRetries?: number;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: object | undefined;
  body?: unknown;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4242';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_NETWORK_RETRIES = 2;
const INITIAL_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 5_000;
/** A Retry-After longer than this is not waited for: the error goes to the caller instead. */
const MAX_RETRY_AFTER_MS = 60_000;

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Sends one API call: builds the request, retries it when that is safe and useful, and turns
 * the reply into the object or a typed error.
 */
export class RequestSender {
  private readonly baseUrl: string;
  private readonly options: Required<Omit<ClientOptions, 'apiVersion' | 'baseUrl'>> & { apiVersion: string | undefined };

  constructor(
    private readonly apiKey: string,
    options: ClientOptions = {},
  ) {
    assertServerKey(apiKey);
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.options = {
      apiVersion: options.apiVersion,
      timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
      maxNetworkRetries: options.maxNetworkRetries ?? DEFAULT_MAX_NETWORK_RETRIES,
    };
  }

  async request<T>(spec: RequestSpec, options: RequestOptions = {}): Promise<T> {
    const apiVersion = options.apiVersion ?? this.options.apiVersion;
    const timeout = options.timeout ?? this.options.timeout;
    const maxRetries = options.maxNetworkRetries ?? this.options.maxNetworkRetries;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.apiKey}`,
      Accept: 'application/json',
      'User-Agent': `payments-sdk-js/${SDK_VERSION}`,
    };
    if (apiVersion) headers['Service-Version'] = apiVersion;
    // Generated once per call, before the first attempt, so every retry carries the same key and
    // the service runs the write at most once however many attempts reach it.
    if (spec.method === 'POST' || spec.method === 'PUT') headers['Idempotency-Key'] = options.idempotencyKey ?? randomUUID();
    let body: string | undefined;
    if (spec.body !== undefined || spec.method === 'POST' || spec.method === 'PUT') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(spec.body ?? {});
    }
    const url = `${this.baseUrl}${spec.path}${encodeQuery(spec.query)}`;

    for (let attempt = 0; ; attempt++) {
      let reply: Reply | undefined;
      let failure: PaymentsError;
      try {
        reply = await send(url, spec.method, headers, body, timeout);
        if (reply.status >= 200 && reply.status < 300) return reply.body as T;
        failure = errorFromResponse(reply.status, reply.body, reply.headers);
      } catch (err) {
        if (!(err instanceof ConnectionError)) throw err;
        failure = err;
      }
      if (attempt >= maxRetries || !shouldRetry(reply)) throw failure;
      await sleep(retryDelay(attempt, reply));
    }
  }
}

/** The server-side SDK holds secret and restricted keys; publishable keys belong in browsers. */
function assertServerKey(apiKey: string): void {
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new ConfigurationError(
      'No API key given. Pass a secret (service_...) or restricted (rk_...) key, e.g. from an environment variable.',
      {
        type: 'configuration_error',
        code: 'api_key_missing',
      },
    );
  }
  if (apiKey.startsWith('pk_')) {
    throw new ConfigurationError(
      'A publishable key (pk_...) was given. This SDK is for servers and takes a secret (service_...) or restricted (rk_...) key; publishable keys are for the browser library.',
      { type: 'configuration_error', code: 'publishable_key_not_allowed' },
    );
  }
}

/**
 * Retry what may succeed on a second try: no response at all, a request with the same
 * idempotency key still running (409), a rate limit (429) and server faults (5xx).
 */
function shouldRetry(reply: Reply | undefined): boolean {
  if (!reply) return true;
  return reply.status === 409 || reply.status === 429 || reply.status >= 500;
}

/** Capped exponential backoff with jitter (so many clients do not retry in step), or Retry-After. */
function retryDelay(attempt: number, reply: Reply | undefined): number {
  const backoff = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** attempt, MAX_RETRY_DELAY_MS);
  const jittered = backoff * (0.5 + Math.random() * 0.5);
  const retryAfter = Number(reply?.headers['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.max(jittered, Math.min(retryAfter * 1000, MAX_RETRY_AFTER_MS));
  return jittered;
}

async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeout: number,
): Promise<Reply> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  try {
    const response = await fetch(url, { method, headers, body: body ?? null, signal: controller.signal });
    const text = await response.text();
    const replyHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      replyHeaders[name] = value;
    });
    return { status: response.status, headers: replyHeaders, body: parseBody(text) };
  } catch (err) {
    const timedOut = controller.signal.aborted;
    throw new ConnectionError(
      timedOut
        ? `The request timed out after ${timeout} ms (${method} ${new URL(url).pathname}).`
        : `Could not reach the service at ${new URL(url).origin}: ${(err as Error).message}.`,
      { type: 'connection_error', code: timedOut ? 'timeout' : 'connection_failed', cause: err },
    );
  } finally {
    clearTimeout(timer);
  }
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
