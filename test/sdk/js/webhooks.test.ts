import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { type Event, PaymentsClient, SignatureVerificationError, Webhooks } from '../../../sdks/js/src/index.js';

const secret = 'whsec_test_secret_0123456789';
const event: Event = {
  id: 'evt_1',
  object: 'event',
  type: 'payment.created',
  data: { object: { id: 'pay_1', object: 'payment' } },
  request: { id: 'req_1' },
  created: 1_700_000_000,
  livemode: false,
};
const payload = JSON.stringify(event);
const now = () => Math.floor(Date.now() / 1000);
/** The contract's formula (section 8), computed independently of the SDK. */
const sign = (body: string, t: number, key = secret) => createHmac('sha256', key).update(`${t}.${body}`).digest('hex');

describe('SDK webhooks.constructEvent', () => {
  const webhooks = PaymentsClient.webhooks;

  test('returns the event for a valid signature (string or bytes payload)', () => {
    const t = now();
    const header = `t=${t},v1=${sign(payload, t)}`;
    assert.deepEqual(webhooks.constructEvent(payload, header, secret), event);
    assert.deepEqual(webhooks.constructEvent(Buffer.from(payload), header, secret), event);
    assert.deepEqual(new PaymentsClient('service_test_x').webhooks.constructEvent(payload, [header], secret), event);
  });

  test('accepts any matching v1 among several (secret rotation)', () => {
    const t = now();
    const header = `t=${t},v1=${sign(payload, t, 'whsec_old')},v1=${sign(payload, t)}`;
    assert.equal(webhooks.constructEvent(payload, header, secret).id, 'evt_1');
  });

  test('refuses a wrong secret, a changed body, a missing or malformed header', () => {
    const t = now();
    const header = `t=${t},v1=${sign(payload, t)}`;
    const refused = (fn: () => unknown, message: RegExp) =>
      assert.throws(fn, (err: unknown) => err instanceof SignatureVerificationError && message.test(err.message));
    refused(() => webhooks.constructEvent(payload, header, 'whsec_other'), /No signature matches/);
    refused(() => webhooks.constructEvent(payload.replace('pay_1', 'pay_2'), header, secret), /No signature matches/);
    refused(() => webhooks.constructEvent(payload, undefined, secret), /No Service-Signature/);
    refused(() => webhooks.constructEvent(payload, 'v1=abc', secret), /malformed/);
    refused(() => webhooks.constructEvent(payload, `t=${t}`, secret), /malformed/);
    refused(() => webhooks.constructEvent(payload, `t=${t},v0=${sign(payload, t)}`, secret), /malformed/);
  });

  test('refuses a timestamp outside the tolerance; tolerance is configurable', () => {
    const t = now() - 600;
    const header = `t=${t},v1=${sign(payload, t)}`;
    assert.throws(() => webhooks.constructEvent(payload, header, secret), /outside the 300 s tolerance/);
    assert.equal(webhooks.constructEvent(payload, header, secret, 900).id, 'evt_1');
    const future = now() + 600;
    assert.throws(() => webhooks.constructEvent(payload, `t=${future},v1=${sign(payload, future)}`, secret), SignatureVerificationError);
  });

  test('generateTestHeaderString makes headers the contract formula agrees with', () => {
    const header = new Webhooks().generateTestHeaderString({ payload, secret, timestamp: 1_700_000_123 });
    assert.equal(header, `t=1700000123,v1=${sign(payload, 1_700_000_123)}`);
  });
});
