/**
 * The tokenising core every browser-side package shares (payments-js, payments-react,
 * payments-react-native): publishable-key check, and the few API calls a browser may make.
 * Dependency-free; needs only `fetch`.
 */
import type { CardData } from './card.js';

export interface ApiErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string;
  decline_code?: string;
  request_id?: string;
}

/** An error from the service (or the library), in the service's error shape. */
export class PaymentsError extends Error {
  readonly type: string;
  readonly code: string;
  readonly param: string | undefined;
  readonly declineCode: string | undefined;
  readonly statusCode: number | undefined;
  readonly requestId: string | undefined;

  constructor(body: ApiErrorBody, statusCode?: number) {
    super(body.message);
    this.name = 'PaymentsError';
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    this.declineCode = body.decline_code;
    this.statusCode = statusCode;
    this.requestId = body.request_id;
  }
}

/**
 * Only publishable keys may live in a browser or an app: anyone can read them there. A secret
 * (`service_...`) or restricted (`rk_...`) key would hand the whole account to every visitor.
 */
export function assertPublishableKey(key: unknown): asserts key is string {
  const value = typeof key === 'string' ? key : '';
  if (/^(service|rk)_/.test(value)) {
    throw new PaymentsError({
      type: 'invalid_request_error',
      code: 'secret_key_in_browser',
      message: `Never use a ${value.startsWith('rk_') ? 'restricted' : 'secret'} key in a browser or an app: anyone can read it there. Use your publishable key (pk_test_... or pk_live_...), and roll the key you just exposed.`,
    });
  }
  if (!/^pk_(test|live)_[0-9A-Za-z]{24,128}$/.test(value)) {
    throw new PaymentsError({
      type: 'invalid_request_error',
      code: 'api_key_malformed',
      message: 'Initialise the library with your publishable key: pk_test_... or pk_live_...',
    });
  }
}

export interface Token {
  id: string;
  object: 'token';
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: string };
  livemode: boolean;
}

export interface PaymentResult {
  id: string;
  object: 'payment';
  status: string;
  amount: number;
  currency: string;
  next_action: { type: string; redirect_to_url?: { url: string } } | null;
  last_payment_error: ApiErrorBody | null;
}

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment: string;
  payment_status: string;
  amount: number;
  currency: string;
  description: string | null;
  success_url: string;
  cancel_url: string;
  next_action: { type: string; redirect_to_url?: { url: string } } | null;
  last_payment_error: ApiErrorBody | null;
}

export interface CheckoutConfig {
  object: 'checkout_config';
  livemode: boolean;
  account_name: string;
  card_brands: string[];
}

type Fetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{
  status: number;
  json(): Promise<unknown>;
}>;

function randomKey(): string {
  const bytes = new Uint8Array(16);
  const crypto = (globalThis as { crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array } }).crypto;
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The id a client secret belongs to: `pay_..._secret_...` → `pay_...`. */
export function idFromClientSecret(clientSecret: string, prefix: 'pay' | 'cs'): string {
  const id = clientSecret.split('_secret_', 1)[0] ?? '';
  if (!id.startsWith(`${prefix}_`) || id === clientSecret) {
    throw new PaymentsError({
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      param: 'client_secret',
      message: `That is not a ${prefix === 'pay' ? 'payment' : 'checkout session'} client secret.`,
    });
  }
  return id;
}

/** The API calls a publishable key may make. */
export class BrowserApi {
  private readonly fetch: Fetch;

  constructor(
    readonly publishableKey: string,
    readonly apiBase: string,
    fetchImpl?: Fetch,
  ) {
    assertPublishableKey(publishableKey);
    this.fetch = fetchImpl ?? ((url, init) => globalThis.fetch(url, init));
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.publishableKey}` };
    if (method === 'POST') {
      headers['Content-Type'] = 'application/json';
      headers['Idempotency-Key'] = randomKey();
    }
    let res: Awaited<ReturnType<Fetch>>;
    try {
      res = await this.fetch(`${this.apiBase}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    } catch {
      throw new PaymentsError({
        type: 'api_connection_error',
        code: 'network_error',
        message: 'Could not reach the payment service. Check your connection and try again.',
      });
    }
    const json = (await res.json().catch(() => ({}))) as { error?: ApiErrorBody };
    if (res.status >= 400) {
      throw new PaymentsError(
        json.error ?? { type: 'api_error', code: 'internal_error', message: 'The payment service failed.' },
        res.status,
      );
    }
    return json as T;
  }

  createToken(card: CardData): Promise<Token> {
    return this.request('POST', '/v1/tokens', { card });
  }

  confirmPayment(clientSecret: string, paymentMethod: string): Promise<PaymentResult> {
    const id = idFromClientSecret(clientSecret, 'pay');
    return this.request('POST', `/v1/payments/${encodeURIComponent(id)}/confirm`, {
      client_secret: clientSecret,
      payment_method: paymentMethod,
    });
  }

  retrieveCheckoutSession(clientSecret: string): Promise<CheckoutSession> {
    const id = idFromClientSecret(clientSecret, 'cs');
    return this.request('GET', `/v1/checkout/sessions/${encodeURIComponent(id)}?client_secret=${encodeURIComponent(clientSecret)}`);
  }

  confirmCheckoutSession(clientSecret: string, paymentMethod: string): Promise<CheckoutSession> {
    const id = idFromClientSecret(clientSecret, 'cs');
    return this.request('POST', `/v1/checkout/sessions/${encodeURIComponent(id)}/confirm`, {
      client_secret: clientSecret,
      payment_method: paymentMethod,
    });
  }

  config(): Promise<CheckoutConfig> {
    return this.request('GET', '/v1/checkout/config');
  }
}
