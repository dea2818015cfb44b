import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import TestRenderer, { act } from 'react-test-renderer';
import type { CardElement as CardHandle, PaymentsClient } from '../../packages/browser/src/index.js';
import { CardElement, CheckoutButton, PaymentsProvider, useConfirmPayment, useTokenize } from '../../packages/react/src/index.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/**
 * A stand-in for payments-js's client: the React package's job is the component tree and the
 * hooks' state; the real client is exercised in Chromium (test/e2e/browser).
 */
function fakeClient() {
  const calls: string[] = [];
  const element = {
    mounted: null as unknown,
    on: () => element,
    mount(node: unknown) {
      element.mounted = node;
      calls.push('mount');
    },
    unmount: () => calls.push('unmount'),
  };
  const client = {
    publishableKey: 'pk_test_x',
    apiBase: 'http://svc.test',
    elements: () => ({ create: () => element as unknown as CardHandle }),
    createToken: async () => ({ token: { id: 'tok_1', object: 'token', card: { brand: 'visa', last4: '4242' } } }),
    confirmPayment: async (secret: string) => {
      calls.push(`confirm ${secret}`);
      return secret.includes('declined')
        ? { error: Object.assign(new Error('Your card was declined.'), { code: 'card_declined' }) }
        : { payment: { id: 'pay_1', status: 'succeeded' } };
    },
    confirmCheckoutSession: async () => ({ session: { id: 'cs_1', status: 'complete' } }),
    retrieveCheckoutSession: async () => ({ session: { id: 'cs_1' } }),
    redirectToCheckout: (target: { url?: string; sessionId?: string }) => calls.push(`redirect ${target.url ?? target.sessionId}`),
  } as unknown as PaymentsClient;
  return { client, calls, element };
}

describe('payments-react', () => {
  test('server rendering: the card element host and the checkout button render', () => {
    const { client } = fakeClient();
    const html = renderToString(
      h(
        PaymentsProvider,
        { payments: client },
        h(CardElement, { className: 'card' }),
        h(CheckoutButton, { url: 'http://svc.test/checkout/cs_1' }, 'Buy'),
      ),
    );
    assert.match(html, /<div class="card" data-payments-card-element="">/);
    assert.match(html, /<button type="button"[^>]*>Buy<\/button>/);
  });

  test('the provider refuses a secret or restricted key with a clear error', () => {
    for (const key of ['service_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'rk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']) {
      assert.throws(
        () => renderToString(h(PaymentsProvider, { publishableKey: key, apiBase: 'http://svc.test' })),
        /Never use a (secret|restricted) key/,
      );
    }
  });

  test('CardElement mounts the card frame into its node and unmounts it; useConfirmPayment pays with it', async () => {
    const { client, calls } = fakeClient();
    let hook: ReturnType<typeof useConfirmPayment> | undefined;
    let tokenHook: ReturnType<typeof useTokenize> | undefined;
    function Pay() {
      hook = useConfirmPayment();
      tokenHook = useTokenize();
      return h('form', null, h(CardElement), hook.error ? h('p', { role: 'alert' }, hook.error.message) : null);
    }
    const node = { nodeName: 'DIV' };
    let renderer!: TestRenderer.ReactTestRenderer;
    await act(async () => {
      renderer = TestRenderer.create(h(PaymentsProvider, { payments: client }, h(Pay)), { createNodeMock: () => node });
    });
    assert.deepEqual(calls, ['mount']);

    await act(async () => {
      await hook!.confirmPayment('pay_1_secret_ok');
    });
    assert.equal(hook!.payment?.status, 'succeeded');
    assert.equal(hook!.loading, false);

    await act(async () => {
      await hook!.confirmPayment('pay_2_secret_declined');
    });
    assert.equal(hook!.payment, null);
    assert.equal(renderer.root.findByProps({ role: 'alert' }).children.join(''), 'Your card was declined.');

    await act(async () => {
      await tokenHook!.tokenize();
    });
    assert.equal(tokenHook!.token?.id, 'tok_1');

    await act(async () => renderer.unmount());
    assert.deepEqual(calls, ['mount', 'confirm pay_1_secret_ok', 'confirm pay_2_secret_declined', 'unmount']);
  });

  test('CheckoutButton creates the session on click and redirects to its url', async () => {
    const { client, calls } = fakeClient();
    let renderer!: TestRenderer.ReactTestRenderer;
    await act(async () => {
      renderer = TestRenderer.create(
        h(
          PaymentsProvider,
          { payments: client },
          h(CheckoutButton, { createSession: async () => ({ url: 'http://svc.test/checkout/cs_9' }) }),
        ),
      );
    });
    await act(async () => {
      renderer.root.findByType('button').props.onClick();
    });
    assert.deepEqual(calls, ['redirect http://svc.test/checkout/cs_9']);
  });

  test('hooks outside the provider say what is missing', () => {
    function Orphan() {
      useTokenize();
      return null;
    }
    assert.throws(() => renderToString(h(Orphan)), /PaymentsProvider/);
  });
});
