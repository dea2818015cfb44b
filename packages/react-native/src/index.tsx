/**
 * payments-react-native: the card field and hooks of payments-react, for React Native apps.
 * Wrap your checkout in `<PaymentsProvider publishableKey="pk_test_..." apiBase="https://...">`,
 * put a `<CardField />` on the screen, and pay with `useConfirmPayment()`.
 *
 * An app has no iframe: the card number goes from the `CardField` straight to `POST /v1/tokens`
 * (publishable key) and only the token reaches your code. The card rules (brand detection, Luhn,
 * formatting, messages) and the API calls are payments-js's own (`packages/browser/src/card.ts`
 * and `api.ts`), imported, not copied.
 *
 * @example
 * function Pay({ clientSecret }: { clientSecret: string }) {
 *   const { confirmPayment, payment, loading, error } = useConfirmPayment();
 *   return (
 *     <View>
 *       <CardField />
 *       <Button title="Pay" disabled={loading} onPress={() => void confirmPayment(clientSecret)} />
 *       {error && <Text accessibilityRole="alert">{error.message}</Text>}
 *     </View>
 *   );
 * }
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { AccessibilityInfo, Pressable, type StyleProp, StyleSheet, Text, TextInput, View, type ViewStyle } from 'react-native';
import {
  BrowserApi,
  type CheckoutSession,
  type PaymentResult,
  PaymentsError,
  type Token,
  type ApiErrorBody,
} from '../../browser/src/api.js';
import {
  BRAND_NAMES,
  type CardBrand,
  type CardCheck,
  type CardData,
  type CardFields,
  checkCard,
  cvcLengthOf,
  formatExpiry,
  formatNumber,
  maxNumberLength,
} from '../../browser/src/card.js';

export { PaymentsError } from '../../browser/src/api.js';
export type { CardBrand, CheckoutSession, PaymentResult, Token };

type FetchLike = ConstructorParameters<typeof BrowserApi>[2];

export type Result<K extends string, T> =
  ({ [key in K]: T } & { error?: undefined }) | ({ [key in K]?: undefined } & { error: PaymentsError });

/** The calls a publishable key may make, with card data the app collected (no iframe in an app). */
export interface PaymentsClient {
  readonly publishableKey: string;
  readonly apiBase: string;
  createToken(card: CardData): Promise<Result<'token', Token>>;
  /** Tokenises `card` and confirms the payment `clientSecret` names with it. */
  confirmPayment(clientSecret: string, card: CardData): Promise<Result<'payment', PaymentResult>>;
  /** Tokenises `card` and pays the checkout session `clientSecret` names with it. */
  confirmCheckoutSession(clientSecret: string, card: CardData): Promise<Result<'session', CheckoutSession>>;
  retrieveCheckoutSession(clientSecret: string): Promise<Result<'session', CheckoutSession>>;
}

export interface PaymentsOptions {
  /** Where the service runs, e.g. `https://payments.example.com` (an app has no page origin to default to). */
  apiBase: string;
  /** Defaults to the global `fetch`. */
  fetch?: FetchLike;
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

/** Creates the client. Throws at once for a secret (`service_...`) or restricted (`rk_...`) key. */
export function createPaymentsClient(publishableKey: string, options: PaymentsOptions): PaymentsClient {
  const apiBase = options.apiBase.replace(/\/$/, '');
  const api = new BrowserApi(publishableKey, apiBase, options.fetch);
  return {
    publishableKey,
    apiBase,
    createToken: (card) => settle('token', () => api.createToken(card)),
    confirmPayment: (clientSecret, card) =>
      settle('payment', async () => api.confirmPayment(clientSecret, (await api.createToken(card)).id)),
    confirmCheckoutSession: (clientSecret, card) =>
      settle('session', async () => api.confirmCheckoutSession(clientSecret, (await api.createToken(card)).id)),
    retrieveCheckoutSession: (clientSecret) => settle('session', () => api.retrieveCheckoutSession(clientSecret)),
  };
}

/** What the mounted `CardField` hands the hooks: the checked card (its errors shown on screen). */
interface CardFieldHandle {
  collect(): CardCheck;
  showServerError(error: PaymentsError): void;
}

interface PaymentsContextValue {
  payments: PaymentsClient;
  card: { current: CardFieldHandle | null };
}

const PaymentsContext = createContext<PaymentsContextValue | null>(null);

export type PaymentsProviderProps = { children?: ReactNode } & (
  | { publishableKey: string; apiBase: string; fetch?: FetchLike; payments?: undefined }
  /** A client made elsewhere (with `createPaymentsClient`), e.g. to share one between screens. */
  | { payments: PaymentsClient; publishableKey?: undefined; apiBase?: undefined; fetch?: undefined }
);

/** Makes the client (publishable key only: a secret or restricted key throws at once) and shares it. */
export function PaymentsProvider(props: PaymentsProviderProps) {
  const { publishableKey, apiBase, fetch, payments: given } = props;
  const payments = useMemo(
    () => given ?? createPaymentsClient(publishableKey as string, { apiBase: apiBase as string, ...(fetch ? { fetch } : {}) }),
    [given, publishableKey, apiBase, fetch],
  );
  const card = useRef<CardFieldHandle | null>(null);
  const value = useMemo(() => ({ payments, card }), [payments]);
  return <PaymentsContext.Provider value={value}>{props.children}</PaymentsContext.Provider>;
}

function usePaymentsContext(): PaymentsContextValue {
  const context = useContext(PaymentsContext);
  if (!context) throw new Error('Wrap your component in <PaymentsProvider publishableKey="pk_..." apiBase="https://...">.');
  return context;
}

/** The client, for calls the hooks do not cover. */
export const usePayments = (): PaymentsClient => usePaymentsContext().payments;

/** Same shape as payments-react's `CardElement` change. */
export interface CardFieldChange {
  complete: boolean;
  brand: CardBrand;
  /** The first error on screen, or null. */
  error: string | null;
}

export interface CardFieldProps {
  onChange?: (change: CardFieldChange) => void;
  /** Disables the inputs (e.g. while paying). */
  disabled?: boolean;
  style?: StyleProp<ViewStyle>;
  /** `testID` prefix: inputs get `<prefix>-number`, `-expiry`, `-cvc`. Default `card`. */
  testID?: string;
  /** The date expiry is checked against; default now. */
  now?: () => Date;
}

type Field = keyof CardFields;
const FIELDS: readonly Field[] = ['number', 'expiry', 'cvc'];
const SERVER_PARAMS: Record<string, Field> = {
  'card.number': 'number',
  'card.exp_month': 'expiry',
  'card.exp_year': 'expiry',
  'card.cvc': 'cvc',
};

/**
 * The card number, expiry and security code, with live validation (the browser library's rules),
 * brand detection and accessible labels; an error is shown under its field and announced.
 */
export function CardField({ onChange, disabled = false, style, testID = 'card', now = () => new Date() }: CardFieldProps) {
  const { card } = usePaymentsContext();
  const [fields, setFields] = useState<CardFields>({ number: '', expiry: '', cvc: '' });
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [final, setFinal] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const inputs = useRef<Partial<Record<Field, TextInput | null>>>({});
  const latest = useRef({ fields, now });
  latest.current = { fields, now };

  const check = checkCard(fields, now(), final);
  const shown: Partial<Record<Field, string>> = {};
  for (const f of FIELDS) {
    const message = serverErrors[f] ?? check.errors[f];
    if (message && (final || touched.has(f) || check.errors[f])) shown[f] = message;
  }
  const firstError = FIELDS.map((f) => shown[f]).find(Boolean) ?? null;

  const handlers = useRef(onChange);
  handlers.current = onChange;
  useEffect(() => {
    handlers.current?.({ complete: check.complete, brand: check.brand, error: firstError });
  }, [check.complete, check.brand, firstError]);
  useEffect(() => {
    if (firstError) AccessibilityInfo.announceForAccessibility(firstError);
  }, [firstError]);

  useEffect(() => {
    const handle: CardFieldHandle = {
      collect() {
        const result = checkCard(latest.current.fields, latest.current.now(), true);
        setFinal(true);
        setTouched(new Set(FIELDS));
        const wrong = FIELDS.find((f) => result.errors[f]);
        if (wrong) inputs.current[wrong]?.focus();
        return result;
      },
      showServerError(error) {
        const field = error.param ? SERVER_PARAMS[error.param] : undefined;
        if (field) setServerErrors({ [field]: error.message });
      },
    };
    card.current = handle;
    return () => {
      if (card.current === handle) card.current = null;
    };
  }, [card]);

  const change = (field: Field, value: string) => {
    const formatted = field === 'number' ? formatNumber(value) : field === 'expiry' ? formatExpiry(value) : value.replace(/\D/g, '');
    setServerErrors({});
    setFields((prev) => ({ ...prev, [field]: formatted }));
  };
  const blur = (field: Field) => {
    if (fields[field]) setTouched((prev) => new Set([...prev, field]));
  };

  const numberDigits = maxNumberLength(check.brand);
  const spec: Record<Field, { label: string; placeholder: string; maxLength: number; autoComplete: 'cc-number' | 'cc-exp' | 'cc-csc' }> = {
    number: {
      label: 'Card number',
      placeholder: '1234 1234 1234 1234',
      maxLength: numberDigits + Math.ceil(numberDigits / 4),
      autoComplete: 'cc-number',
    },
    expiry: { label: 'Expiry date (MM / YY)', placeholder: 'MM / YY', maxLength: 7, autoComplete: 'cc-exp' },
    cvc: { label: 'Security code', placeholder: 'CVC', maxLength: cvcLengthOf(check.brand), autoComplete: 'cc-csc' },
  };
  const brandName = BRAND_NAMES[check.brand];

  return (
    <View style={[styles.card, style]} accessibilityLabel="Card details" testID={testID}>
      {FIELDS.map((f) => (
        <Pressable
          key={f}
          style={styles.field}
          onPress={() => inputs.current[f]?.focus()}
          accessible={false}
          disabled={disabled}
          testID={`${testID}-${f}-box`}
        >
          <Text style={styles.label} nativeID={`${testID}-${f}-label`}>
            {spec[f].label}
          </Text>
          <View style={styles.row}>
            <TextInput
              ref={(el) => {
                inputs.current[f] = el;
              }}
              testID={`${testID}-${f}`}
              style={[styles.input, shown[f] ? styles.inputInvalid : null]}
              value={fields[f]}
              onChangeText={(v) => change(f, v)}
              onBlur={() => blur(f)}
              placeholder={spec[f].placeholder}
              keyboardType="number-pad"
              autoComplete={spec[f].autoComplete}
              textContentType={f === 'number' ? 'creditCardNumber' : 'none'}
              autoCorrect={false}
              maxLength={spec[f].maxLength}
              editable={!disabled}
              secureTextEntry={false}
              accessibilityLabel={f === 'number' && brandName ? `${spec[f].label}, ${brandName}` : spec[f].label}
              accessibilityLabelledBy={`${testID}-${f}-label`}
              accessibilityHint={shown[f] ?? undefined}
              accessibilityState={{ disabled }}
              aria-invalid={Boolean(shown[f])}
            />
            {f === 'number' && brandName ? (
              <Text style={styles.brand} testID={`${testID}-brand`} accessibilityLabel={`Card brand: ${brandName}`}>
                {brandName}
              </Text>
            ) : null}
          </View>
          {shown[f] ? (
            <Text
              style={styles.error}
              testID={`${testID}-${f}-error`}
              accessibilityRole="alert"
              accessibilityLiveRegion="polite"
              nativeID={`${testID}-${f}-error`}
            >
              {shown[f]}
            </Text>
          ) : null}
        </Pressable>
      ))}
    </View>
  );
}

const styles = StyleSheet.create({
  card: { gap: 12 },
  field: { gap: 4 },
  label: { fontSize: 14, fontWeight: '600', color: '#1a1f36' },
  row: { flexDirection: 'row', alignItems: 'center', gap: 8 },
  input: { flex: 1, minHeight: 44, borderWidth: 1, borderColor: '#c4c9d4', borderRadius: 6, paddingHorizontal: 12, fontSize: 16 },
  inputInvalid: { borderColor: '#c0123c' },
  brand: { fontSize: 14, color: '#3c4257' },
  error: { fontSize: 14, color: '#c0123c' },
});

interface AsyncState<T> {
  loading: boolean;
  error: PaymentsError | null;
  result: T | null;
}

function useAsync<K extends string, T, A extends unknown[]>(run: (...args: A) => Promise<Result<K, T>>, key: K) {
  const [state, setState] = useState<AsyncState<T>>({ loading: false, error: null, result: null });
  const call = useCallback(
    async (...args: A): Promise<Result<K, T>> => {
      setState({ loading: true, error: null, result: null });
      const outcome = await run(...args);
      setState({ loading: false, error: outcome.error ?? null, result: (outcome as Partial<Record<K, T>>)[key] ?? null });
      return outcome;
    },
    [run, key],
  );
  return { ...state, call };
}

const PARAM_OF: Record<Field, string> = { number: 'card.number', expiry: 'card.exp_month', cvc: 'card.cvc' };

/** The card from the mounted `CardField`, or the error to return (no request is made). */
function collectCard(card: { current: CardFieldHandle | null }): { card: CardData } | { error: PaymentsError } {
  if (!card.current) {
    return {
      error: new PaymentsError({ type: 'invalid_request_error', code: 'element_not_mounted', message: 'Render a <CardField /> first.' }),
    };
  }
  const check = card.current.collect();
  if (check.card) return { card: check.card };
  const wrong = FIELDS.find((f) => check.errors[f]);
  const body: ApiErrorBody = {
    type: 'validation_error',
    code: 'incomplete_card',
    message: (wrong && check.errors[wrong]) ?? 'Your card details are incomplete.',
    ...(wrong ? { param: PARAM_OF[wrong] } : {}),
  };
  return { error: new PaymentsError(body) };
}

/** Runs `work` with the collected card; shows a card error the service returns under its field. */
function useCardCall<K extends string, T>(
  _key: K,
  work: (payments: PaymentsClient, card: CardData, ...rest: string[]) => Promise<Result<K, T>>,
) {
  const { payments, card } = usePaymentsContext();
  return useCallback(
    async (...rest: string[]): Promise<Result<K, T>> => {
      const collected = collectCard(card);
      if ('error' in collected) return { error: collected.error } as Result<K, T>;
      const outcome = await work(payments, collected.card, ...rest);
      if (outcome.error) card.current?.showServerError(outcome.error);
      return outcome;
    },
    [payments, card, work],
  );
}

const tokenize = (p: PaymentsClient, card: CardData) => p.createToken(card);
const confirmPayment = (p: PaymentsClient, card: CardData, clientSecret?: string) => p.confirmPayment(clientSecret ?? '', card);
const confirmSession = (p: PaymentsClient, card: CardData, clientSecret?: string) => p.confirmCheckoutSession(clientSecret ?? '', card);

/** Tokenises the card in the `<CardField />`: `{ tokenize, token, loading, error }`. */
export function useTokenize() {
  const run = useCardCall('token', tokenize);
  const { call, result, ...state } = useAsync<'token', Token, []>(run, 'token');
  return { tokenize: call, token: result, ...state };
}

/**
 * Pays a payment (by its client secret) with the card in the `<CardField />`. A card that needs
 * the bank's authentication answers `status: 'requires_action'` with `next_action.redirect_to_url`:
 * open that URL (a browser or WebView), then check the payment on your server.
 */
export function useConfirmPayment() {
  const run = useCardCall('payment', confirmPayment);
  const { call, result, ...state } = useAsync<'payment', PaymentResult, [string]>(run, 'payment');
  return { confirmPayment: call, payment: result, ...state };
}

/** Pays a checkout session (by its client secret) with the card in the `<CardField />`. */
export function useConfirmCheckoutSession() {
  const run = useCardCall('session', confirmSession);
  const { call, result, ...state } = useAsync<'session', CheckoutSession, [string]>(run, 'session');
  return { confirmCheckoutSession: call, session: result, ...state };
}
