/**
 * payments-react-native under React Native's jest preset and react-test-renderer. The live
 * tests pay through the real service that test/packages/react-native.test.ts starts on loopback
 * (its URL, publishable key and client secrets arrive in PAYMENTS_RN_* variables).
 */
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import type { ReactElement } from 'react';
import { AccessibilityInfo, Text, TextInput } from 'react-native';
import TestRenderer, { act, type ReactTestInstance, type ReactTestRenderer } from 'react-test-renderer';
import {
  CardField,
  type CardFieldChange,
  PaymentsProvider,
  useConfirmCheckoutSession,
  useConfirmPayment,
  useTokenize,
} from '../../../packages/react-native/src/index.js';

const live = {
  api: process.env.PAYMENTS_RN_API ?? '',
  pk: process.env.PAYMENTS_RN_PK ?? '',
  payOk: process.env.PAYMENTS_RN_PAY_OK ?? '',
  payDecline: process.env.PAYMENTS_RN_PAY_DECLINE ?? '',
  session: process.env.PAYMENTS_RN_CS ?? '',
};
const PK = 'pk_test_' + 'a'.repeat(24);
const liveDescribe = live.api ? describe : describe.skip;

async function render(element: ReactElement): Promise<ReactTestRenderer> {
  let renderer!: ReactTestRenderer;
  await act(async () => {
    renderer = TestRenderer.create(element);
  });
  return renderer;
}

const input = (r: ReactTestRenderer, field: string): ReactTestInstance =>
  r.root.findAllByType(TextInput).find((i) => i.props.testID === `card-${field}`)!;
const textOf = (r: ReactTestRenderer, testID: string): string | null => {
  const node = r.root.findAllByType(Text).find((t) => t.props.testID === testID);
  return node ? [node.props.children].flat().join('') : null;
};
async function type(r: ReactTestRenderer, field: string, value: string): Promise<void> {
  await act(async () => input(r, field).props.onChangeText(value));
}
async function fill(r: ReactTestRenderer, number: string): Promise<void> {
  await type(r, 'number', number);
  await type(r, 'expiry', '1230');
  await type(r, 'cvc', '123');
}

describe('PaymentsProvider', () => {
  test('refuses a secret or a restricted key with a clear error', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    for (const [key, kind] of [
      ['service_test_' + 'a'.repeat(32), 'secret'],
      ['rk_test_' + 'a'.repeat(32), 'restricted'],
    ]) {
      await expect(render(<PaymentsProvider publishableKey={key!} apiBase="http://svc.test" />)).rejects.toThrow(
        new RegExp(`Never use a ${kind} key in a browser or an app`),
      );
    }
    spy.mockRestore();
  });

  test('hooks outside the provider say what is missing', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    function Orphan() {
      useTokenize();
      return null;
    }
    await expect(render(<Orphan />)).rejects.toThrow(/PaymentsProvider/);
    spy.mockRestore();
  });
});

describe('CardField', () => {
  let announce: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    announce = jest.spyOn(AccessibilityInfo, 'announceForAccessibility');
  });
  afterEach(() => announce.mockRestore());

  test('labelled inputs; formats the number, detects the brand and reports complete', async () => {
    const changes: CardFieldChange[] = [];
    const r = await render(
      <PaymentsProvider publishableKey={PK} apiBase="http://svc.test">
        <CardField onChange={(c) => changes.push(c)} />
      </PaymentsProvider>,
    );
    expect(r.root.findAllByType(TextInput).map((i) => i.props.accessibilityLabel)).toEqual([
      'Card number',
      'Expiry date (MM / YY)',
      'Security code',
    ]);
    expect(input(r, 'number').props.autoComplete).toBe('cc-number');
    expect(input(r, 'number').props.keyboardType).toBe('number-pad');

    await type(r, 'number', '4242424242424242');
    expect(input(r, 'number').props.value).toBe('4242 4242 4242 4242');
    expect(textOf(r, 'card-brand')).toBe('Visa');
    expect(input(r, 'number').props.accessibilityLabel).toBe('Card number, Visa');
    await type(r, 'expiry', '1230');
    expect(input(r, 'expiry').props.value).toBe('12 / 30');
    await type(r, 'cvc', '12a3');
    expect(input(r, 'cvc').props.value).toBe('123');
    expect(changes.at(-1)).toEqual({ complete: true, brand: 'visa', error: null });
    expect(announce).not.toHaveBeenCalled();
  });

  test('American Express: 4-6-5 grouping and a 4-digit security code', async () => {
    const r = await render(
      <PaymentsProvider publishableKey={PK} apiBase="http://svc.test">
        <CardField />
      </PaymentsProvider>,
    );
    await type(r, 'number', '378282246310005');
    expect(input(r, 'number').props.value).toBe('3782 822463 10005');
    expect(textOf(r, 'card-brand')).toBe('American Express');
    expect(input(r, 'cvc').props.maxLength).toBe(4);
  });

  test('live validation: an invalid number shows an alert under the field and is announced', async () => {
    const changes: CardFieldChange[] = [];
    const r = await render(
      <PaymentsProvider publishableKey={PK} apiBase="http://svc.test">
        <CardField onChange={(c) => changes.push(c)} />
      </PaymentsProvider>,
    );
    await type(r, 'number', '4242424242424241');
    expect(textOf(r, 'card-number-error')).toBe('Your card number is invalid.');
    const alert = r.root.findAllByType(Text).find((t) => t.props.testID === 'card-number-error')!;
    expect(alert.props.accessibilityRole).toBe('alert');
    expect(alert.props.accessibilityLiveRegion).toBe('polite');
    expect(input(r, 'number').props['aria-invalid']).toBe(true);
    expect(announce).toHaveBeenCalledWith('Your card number is invalid.');
    expect(changes.at(-1)).toEqual({ complete: false, brand: 'visa', error: 'Your card number is invalid.' });

    await type(r, 'expiry', '13');
    expect(textOf(r, 'card-expiry-error')).toBe('The expiry month must be between 01 and 12.');
    await type(r, 'number', '4242424242424242');
    expect(textOf(r, 'card-number-error')).toBeNull();
  });

  test('tokenize with an unfinished card: errors on every field, no request', async () => {
    const fetch = jest.fn(async () => ({ status: 500, json: async () => ({}) }));
    let hook!: ReturnType<typeof useTokenize>;
    function Screen() {
      hook = useTokenize();
      return <CardField />;
    }
    const r = await render(
      <PaymentsProvider publishableKey={PK} apiBase="http://svc.test" fetch={fetch}>
        <Screen />
      </PaymentsProvider>,
    );
    await type(r, 'number', '4242');
    await act(async () => {
      await hook.tokenize();
    });
    expect(fetch).not.toHaveBeenCalled();
    expect(hook.error).toMatchObject({ code: 'incomplete_card', param: 'card.number', message: 'Your card number is incomplete.' });
    expect(textOf(r, 'card-number-error')).toBe('Your card number is incomplete.');
    expect(textOf(r, 'card-expiry-error')).toBe('Enter the expiry date.');
    expect(textOf(r, 'card-cvc-error')).toBe('Enter the security code.');
  });
});

liveDescribe('hooks against the real service', () => {
  function setup<T>(useHook: () => T) {
    const ref: { current: T | null } = { current: null };
    function Screen() {
      ref.current = useHook();
      return <CardField />;
    }
    return {
      ref,
      element: (
        <PaymentsProvider publishableKey={live.pk} apiBase={live.api}>
          <Screen />
        </PaymentsProvider>
      ),
    };
  }

  test('useTokenize: 4242 becomes a token with brand and last 4 only', async () => {
    const { ref, element } = setup(useTokenize);
    const r = await render(element);
    await fill(r, '4242 4242 4242 4242');
    await act(async () => {
      await ref.current!.tokenize();
    });
    expect(ref.current!.error).toBeNull();
    expect(ref.current!.token).toMatchObject({ object: 'token', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } });
    expect(ref.current!.token!.id).toMatch(/^tok_/);
    expect(JSON.stringify(ref.current!.token)).not.toContain('4242424242424242');
  });

  test('useConfirmPayment: pays the payment by its client secret with 4242', async () => {
    const { ref, element } = setup(useConfirmPayment);
    const r = await render(element);
    await fill(r, '4242424242424242');
    let outcome: Awaited<ReturnType<ReturnType<typeof useConfirmPayment>['confirmPayment']>> | undefined;
    await act(async () => {
      outcome = await ref.current!.confirmPayment(live.payOk);
    });
    expect(ref.current!.loading).toBe(false);
    expect(ref.current!.error).toBeNull();
    expect(ref.current!.payment).toMatchObject({ id: live.payOk.split('_secret_')[0], status: 'succeeded', amount: 1500 });
    expect(outcome?.payment?.status).toBe('succeeded');
  });

  test('useConfirmPayment: a declined card comes back as the service error', async () => {
    const { ref, element } = setup(useConfirmPayment);
    const r = await render(element);
    await fill(r, '4000000000000002');
    await act(async () => {
      await ref.current!.confirmPayment(live.payDecline);
    });
    expect(ref.current!.payment).toBeNull();
    expect(ref.current!.error).toMatchObject({ type: 'card_error', code: 'card_declined', declineCode: 'generic_decline' });
  });

  test('useConfirmCheckoutSession: completes the checkout session', async () => {
    const { ref, element } = setup(useConfirmCheckoutSession);
    const r = await render(element);
    await fill(r, '4242424242424242');
    await act(async () => {
      await ref.current!.confirmCheckoutSession(live.session);
    });
    expect(ref.current!.error).toBeNull();
    expect(ref.current!.session).toMatchObject({ object: 'checkout.session', status: 'complete', payment_status: 'succeeded' });
  });
});
