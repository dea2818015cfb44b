import assert from 'node:assert/strict';
import type { TestApp } from './test-app.js';

/** Card data that tokenises; `number` picks the simulated processor's behaviour. */
export const card = (number = '4242424242424242', overrides: Record<string, unknown> = {}) => ({
  number,
  exp_month: 12,
  exp_year: 2030,
  cvc: '123',
  ...overrides,
});

export async function tokenFor(t: TestApp, number = '4242424242424242', key = t.account.keys.publishable_test): Promise<string> {
  const res = await t.call('POST', '/v1/tokens', { key, body: { card: card(number) } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().id;
}

export async function newCustomer(t: TestApp, key?: string): Promise<string> {
  const res = await t.call('POST', '/v1/customers', { body: { email: 'ann@example.com' }, ...(key ? { key } : {}) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().id;
}

/** A payment created (and confirmed when `confirm`) with a fresh token of `number`. */
export async function paymentWith(
  t: TestApp,
  options: { number?: string; amount?: number; capture_method?: 'automatic' | 'manual'; confirm?: boolean; customer?: string } = {},
) {
  const customer = options.customer ?? (await newCustomer(t));
  const token = await tokenFor(t, options.number);
  return t.call('POST', '/v1/payments', {
    body: {
      amount: options.amount ?? 2000,
      currency: 'USD',
      customer,
      payment_method: token,
      capture_method: options.capture_method ?? 'automatic',
      confirm: options.confirm ?? true,
    },
  });
}

/** The amounts invariant the contract promises, checked on a payment object. */
export function assertAmountsConsistent(p: Record<string, unknown>): void {
  const amount = p.amount as number;
  const capturable = p.amount_capturable as number;
  const received = p.amount_received as number;
  const refunded = p.amount_refunded as number;
  assert.ok(refunded >= 0 && refunded <= received && received <= amount, JSON.stringify(p));
  assert.ok(capturable === 0 || p.status === 'requires_capture', JSON.stringify(p));
  assert.ok(received === 0 || p.status === 'succeeded', JSON.stringify(p));
}
