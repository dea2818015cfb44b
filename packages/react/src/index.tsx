/**
 * payments-react: the browser library in React. Wrap your checkout in `<PaymentsProvider
 * publishableKey="pk_test_...">`, put a `<CardElement />` in your form, and pay with
 * `useConfirmPayment()`; or send the customer to the hosted page with `<CheckoutButton />`.
 *
 * @example
 * function Pay({ clientSecret }: { clientSecret: string }) {
 *   const { confirmPayment, loading, error } = useConfirmPayment();
 *   return (
 *     <form onSubmit={(e) => { e.preventDefault(); void confirmPayment(clientSecret); }}>
 *       <CardElement />
 *       <button disabled={loading}>Pay</button>
 *       {error && <p role="alert">{error.message}</p>}
 *     </form>
 *   );
 * }
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import {
  type CardElement as CardElementHandle,
  type CardElementChange,
  type CheckoutSession,
  type PaymentResult,
  Payments,
  type PaymentsClient,
  type PaymentsError,
  type Token,
} from '../../browser/src/index.js';

export { PaymentsError } from '../../browser/src/index.js';
export type { CardElementChange, CheckoutSession, PaymentResult, PaymentsClient, Token };

interface PaymentsContextValue {
  payments: PaymentsClient;
  /** The mounted card element, which the hooks pay with. */
  card: { current: CardElementHandle | null };
}

const PaymentsContext = createContext<PaymentsContextValue | null>(null);

export type PaymentsProviderProps = { children?: ReactNode } & (
  | { publishableKey: string; apiBase?: string; payments?: undefined }
  /** A client made elsewhere (tests, or to share one between roots). */
  | { payments: PaymentsClient; publishableKey?: undefined; apiBase?: undefined }
);

/** Makes the client (publishable key only: a secret or restricted key throws at once) and shares it. */
export function PaymentsProvider(props: PaymentsProviderProps) {
  const { publishableKey, apiBase, payments: given } = props;
  const payments = useMemo(() => given ?? Payments(publishableKey as string, apiBase ? { apiBase } : {}), [given, publishableKey, apiBase]);
  const card = useRef<CardElementHandle | null>(null);
  const value = useMemo(() => ({ payments, card }), [payments]);
  return <PaymentsContext.Provider value={value}>{props.children}</PaymentsContext.Provider>;
}

function usePaymentsContext(): PaymentsContextValue {
  const context = useContext(PaymentsContext);
  if (!context) throw new Error('Wrap your component in <PaymentsProvider publishableKey="pk_...">.');
  return context;
}

/** The client, for calls the hooks do not cover. */
export const usePayments = (): PaymentsClient => usePaymentsContext().payments;

export interface CardElementProps {
  className?: string;
  onChange?: (change: CardElementChange) => void;
  onReady?: () => void;
}

/** The card fields: an iframe served by the payment service. Your code never sees the number. */
export function CardElement({ className, onChange, onReady }: CardElementProps) {
  const { payments, card } = usePaymentsContext();
  const host = useRef<HTMLDivElement | null>(null);
  const handlers = useRef({ onChange, onReady });
  handlers.current = { onChange, onReady };
  useEffect(() => {
    if (!host.current) return;
    const element = payments.elements().create('card');
    element.on('change', (c) => handlers.current.onChange?.(c));
    element.on('ready', () => handlers.current.onReady?.());
    element.mount(host.current);
    card.current = element;
    return () => {
      element.unmount();
      if (card.current === element) card.current = null;
    };
  }, [payments, card]);
  return <div ref={host} className={className} data-payments-card-element="" />;
}

interface AsyncState<T> {
  loading: boolean;
  error: PaymentsError | null;
  result: T | null;
}

function useAsync<T, A extends unknown[]>(
  run: (...args: A) => Promise<{ error?: PaymentsError } & Partial<Record<string, unknown>>>,
  key: string,
) {
  const [state, setState] = useState<AsyncState<T>>({ loading: false, error: null, result: null });
  const call = useCallback(
    async (...args: A) => {
      setState({ loading: true, error: null, result: null });
      const outcome = await run(...args);
      const result = (outcome[key] as T | undefined) ?? null;
      setState({ loading: false, error: outcome.error ?? null, result });
      return outcome;
    },
    [run, key],
  );
  return { ...state, call };
}

const noElement = () =>
  ({
    error: {
      name: 'PaymentsError',
      code: 'element_not_mounted',
      message: 'Render a <CardElement /> first.',
      type: 'invalid_request_error',
    },
  }) as {
    error: PaymentsError;
  };

/** Tokenises the card in the `<CardElement />`: `{ tokenize, token, loading, error }`. */
export function useTokenize() {
  const { payments, card } = usePaymentsContext();
  const run = useCallback(async () => (card.current ? payments.createToken(card.current) : noElement()), [payments, card]);
  const { call, result, ...state } = useAsync<Token, []>(run, 'token');
  return { tokenize: call, token: result, ...state };
}

/** Pays a payment (by its client secret) with the card in the `<CardElement />`, 3-D Secure included. */
export function useConfirmPayment() {
  const { payments, card } = usePaymentsContext();
  const run = useCallback(
    async (clientSecret: string) => (card.current ? payments.confirmPayment(clientSecret, { element: card.current }) : noElement()),
    [payments, card],
  );
  const { call, result, ...state } = useAsync<PaymentResult, [string]>(run, 'payment');
  return { confirmPayment: call, payment: result, ...state };
}

/** Pays a checkout session (by its client secret) with the card in the `<CardElement />`. */
export function useConfirmCheckoutSession() {
  const { payments, card } = usePaymentsContext();
  const run = useCallback(
    async (clientSecret: string) => (card.current ? payments.confirmCheckoutSession(clientSecret, { element: card.current }) : noElement()),
    [payments, card],
  );
  const { call, result, ...state } = useAsync<CheckoutSession, [string]>(run, 'session');
  return { confirmCheckoutSession: call, session: result, ...state };
}

export interface CheckoutButtonProps {
  /** The session's `url`, or its id. */
  url?: string;
  sessionId?: string;
  /** Or make the session when clicked (call your server), answering its url. */
  createSession?: () => Promise<{ url: string }>;
  children?: ReactNode;
  className?: string;
}

/** A button that sends the customer to the hosted checkout page. */
export function CheckoutButton({ url, sessionId, createSession, children = 'Checkout', className }: CheckoutButtonProps) {
  const payments = usePayments();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const target = createSession ? { url: (await createSession()).url } : url ? { url } : { sessionId: sessionId ?? '' };
      payments.redirectToCheckout(target);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className={className} disabled={busy} aria-busy={busy} onClick={() => void onClick()}>
      {children}
    </button>
  );
}
