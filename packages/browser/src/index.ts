/**
 * payments-js: the browser library. Initialise it with a publishable key only; it mounts the
 * card element (an iframe served by the service, so the card number never touches your page),
 * creates tokens, confirms payments and checkout sessions by client secret, and redirects to
 * the hosted checkout.
 *
 * @example
 * import { Payments } from 'https://payments.example.com/js/payments.js';
 * const payments = Payments('pk_test_...');
 * const card = payments.elements().create('card');
 * card.mount('#card');
 * const { payment, error } = await payments.confirmPayment(clientSecret, { element: card });
 */
import { type ApiErrorBody, BrowserApi, type CheckoutSession, type PaymentResult, PaymentsError, type Token } from './api.js';
import { authenticateInOverlay } from './authentication-overlay.js';
import type { CardBrand } from './card.js';
import { FROM_FRAME, FROM_LIBRARY, type FrameMessage, type LibraryMessage } from './messages.js';

export { PaymentsError } from './api.js';
export type { CheckoutSession, PaymentResult, Token } from './api.js';

export interface PaymentsOptions {
  /** Where the service runs; default: the origin this script was loaded from. */
  apiBase?: string;
}

export interface CardElementChange {
  complete: boolean;
  brand: CardBrand;
  error: string | null;
}

type Listener<T> = (value: T) => void;

/** The card fields, in an iframe on the service's origin. Your page only ever receives tokens. */
export class CardElement {
  private frame: HTMLIFrameElement | undefined;
  private readonly pending = new Map<string, { resolve: (t: Token) => void; reject: (e: PaymentsError) => void }>();
  private readonly listeners: { change: Listener<CardElementChange>[]; ready: Listener<void>[] } = { change: [], ready: [] };
  private ready: Promise<void>;
  private markReady: () => void = () => {};
  private counter = 0;

  constructor(
    private readonly apiBase: string,
    private readonly publishableKey: string,
  ) {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  /** Puts the card fields into `target` (an element or a selector). */
  mount(target: string | HTMLElement): void {
    const host = typeof target === 'string' ? document.querySelector<HTMLElement>(target) : target;
    if (!host)
      throw new PaymentsError({
        type: 'invalid_request_error',
        code: 'mount_target_missing',
        message: `No element matches ${String(target)}.`,
      });
    const frame = document.createElement('iframe');
    const fragment = new URLSearchParams({ key: this.publishableKey, origin: location.origin });
    frame.src = `${this.apiBase}/elements/card#${fragment}`;
    frame.title = 'Secure card payment input';
    frame.setAttribute('allow', 'payment');
    Object.assign(frame.style, { width: '100%', border: '0', height: '170px', display: 'block', colorScheme: 'normal' });
    window.addEventListener('message', this.onMessage);
    host.appendChild(frame);
    this.frame = frame;
  }

  unmount(): void {
    window.removeEventListener('message', this.onMessage);
    this.frame?.remove();
    this.frame = undefined;
  }

  on(event: 'change', listener: Listener<CardElementChange>): this;
  on(event: 'ready', listener: Listener<void>): this;
  on(event: 'change' | 'ready', listener: Listener<never>): this {
    (this.listeners[event] as Listener<never>[]).push(listener);
    return this;
  }

  focus(): void {
    this.send({ source: FROM_LIBRARY, type: 'focus' });
  }

  clear(): void {
    this.send({ source: FROM_LIBRARY, type: 'clear' });
  }

  /** Asks the frame to validate and tokenise the card; resolves with the token (brand and last 4 only). */
  async tokenize(): Promise<Token> {
    if (!this.frame)
      throw new PaymentsError({ type: 'invalid_request_error', code: 'element_not_mounted', message: 'Mount the card element first.' });
    await this.ready;
    const id = `t${++this.counter}`;
    return new Promise<Token>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ source: FROM_LIBRARY, type: 'tokenize', id });
    });
  }

  private send(message: LibraryMessage): void {
    this.frame?.contentWindow?.postMessage(message, new URL(this.apiBase).origin);
  }

  private readonly onMessage = (event: MessageEvent): void => {
    const data = event.data as FrameMessage | undefined;
    if (!this.frame || event.source !== this.frame.contentWindow || event.origin !== new URL(this.apiBase).origin) return;
    if (data?.source !== FROM_FRAME) return;
    if (data.type === 'ready') {
      this.markReady();
      for (const l of this.listeners.ready) l();
    } else if (data.type === 'resize') {
      this.frame.style.height = `${Math.ceil(data.height)}px`;
    } else if (data.type === 'change') {
      for (const l of this.listeners.change) l({ complete: data.complete, brand: data.brand, error: data.error });
    } else if (data.type === 'token' || data.type === 'error') {
      const waiter = this.pending.get(data.id);
      this.pending.delete(data.id);
      if (data.type === 'token') waiter?.resolve(data.token);
      else waiter?.reject(new PaymentsError(data.error));
    }
  };
}

export type Result<K extends string, T> =
  ({ [key in K]: T } & { error?: undefined }) | ({ [key in K]?: undefined } & { error: PaymentsError });

export interface PaymentsClient {
  readonly publishableKey: string;
  readonly apiBase: string;
  elements(): { create(type: 'card'): CardElement };
  /** Tokenises the card in `element`. */
  createToken(element: CardElement): Promise<Result<'token', Token>>;
  /** Pays the payment `clientSecret` names with the card in `element`, handling the bank's authentication step. */
  confirmPayment(clientSecret: string, options: { element: CardElement }): Promise<Result<'payment', PaymentResult>>;
  /** Pays a checkout session (by its client secret) with the card in `element`. */
  confirmCheckoutSession(clientSecret: string, options: { element: CardElement }): Promise<Result<'session', CheckoutSession>>;
  retrieveCheckoutSession(clientSecret: string): Promise<Result<'session', CheckoutSession>>;
  /** Sends the customer to the hosted checkout page of a session. */
  redirectToCheckout(options: { sessionId: string } | { url: string }): void;
}

const asError = (err: unknown): PaymentsError =>
  err instanceof PaymentsError
    ? err
    : new PaymentsError({ type: 'api_error', code: 'internal_error', message: String((err as Error)?.message ?? err) });

async function settle<K extends string, T>(key: K, work: () => Promise<T>): Promise<Result<K, T>> {
  try {
    return { [key]: await work() } as Result<K, T>;
  } catch (err) {
    return { error: asError(err) } as Result<K, T>;
  }
}

const scriptUrl: string | undefined =
  (import.meta as { url?: string }).url ??
  (typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.src : undefined);

/** Creates the client. Throws at once for a secret (`service_...`) or restricted (`rk_...`) key. */
export function Payments(publishableKey: string, options: PaymentsOptions = {}): PaymentsClient {
  const apiBase = (options.apiBase ?? (scriptUrl ? new URL(scriptUrl).origin : location.origin)).replace(/\/$/, '');
  const api = new BrowserApi(publishableKey, apiBase);

  async function afterAction<T extends { next_action: PaymentResult['next_action'] }>(
    result: T,
    status: string,
    reread: (status: string) => Promise<T>,
  ): Promise<T> {
    const url = result.next_action?.redirect_to_url?.url;
    if (status !== 'requires_action' || !url) return result;
    const outcome = await authenticateInOverlay(url);
    if (outcome.status !== 'succeeded' && outcome.status !== 'requires_capture') {
      throw new PaymentsError({
        type: 'card_error',
        code: 'payment_intent_authentication_failure',
        message: 'Your bank could not confirm this payment. Try again or use another card.',
      });
    }
    return reread(outcome.status);
  }

  return {
    publishableKey,
    apiBase,
    elements: () => ({ create: () => new CardElement(apiBase, publishableKey) }),
    createToken: (element) => settle('token', () => element.tokenize()),
    confirmPayment: (clientSecret, { element }) =>
      settle('payment', async () => {
        const token = await element.tokenize();
        const payment = await api.confirmPayment(clientSecret, token.id);
        return afterAction(payment, payment.status, async (status) => ({ ...payment, status, next_action: null }));
      }),
    confirmCheckoutSession: (clientSecret, { element }) =>
      settle('session', async () => {
        const token = await element.tokenize();
        const session = await api.confirmCheckoutSession(clientSecret, token.id);
        return afterAction(session, session.payment_status, () => api.retrieveCheckoutSession(clientSecret));
      }),
    retrieveCheckoutSession: (clientSecret) => settle('session', () => api.retrieveCheckoutSession(clientSecret)),
    redirectToCheckout(target) {
      location.assign('url' in target ? target.url : `${apiBase}/checkout/${encodeURIComponent(target.sessionId)}`);
    },
  };
}

export type { ApiErrorBody };
