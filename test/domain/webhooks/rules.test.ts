import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { endpointWants } from '../../../src/domain/webhooks/enqueue.js';
import {
  isSuccessStatus,
  MAX_RETRY_DELAY_MS,
  nextAttemptAt,
  RETRY_WINDOW_MS,
  retryDelayMs,
  shouldDisable,
} from '../../../src/domain/webhooks/schedule.js';
import { computeSignature, newSigningSecret, signatureHeader, verifySignature } from '../../../src/domain/webhooks/signature.js';
import { checkEndpointUrl, isForbiddenAddress } from '../../../src/domain/webhooks/url-policy.js';
import { DAY, MINUTE } from '../../../src/lib/clock.js';

describe('webhook signature', () => {
  const secret = 'whsec_test_secret';
  const body = '{"id":"evt_1","object":"event"}';

  test('is hex HMAC-SHA256 of "t.body" keyed with the whole secret', () => {
    // Fixed vector: `printf '1700000000.%s' "$body" | openssl dgst -sha256 -hmac whsec_test_secret`
    assert.equal(computeSignature(secret, 1700000000, body), '0c8670ed117751cc551a20e35839447075c42800ea3cf3e8a2fbda99cd1e6edd');
    assert.match(signatureHeader(secret, 1700000000, body), /^t=1700000000,v1=[0-9a-f]{64}$/);
  });

  test('verifies; refuses a changed body, another secret, an old timestamp, a missing header', () => {
    const header = signatureHeader(secret, 1000, body);
    assert.equal(verifySignature(header, body, secret, 1000), true);
    assert.equal(verifySignature(header, body, secret, 1299), true);
    assert.equal(verifySignature(header, `${body} `, secret, 1000), false);
    assert.equal(verifySignature(header, body, 'whsec_other', 1000), false);
    assert.equal(verifySignature(header, body, secret, 1301), false);
    assert.equal(verifySignature(undefined, body, secret, 1000), false);
    assert.equal(verifySignature('t=1000,v1=zz', body, secret, 1000), false);
    // Several v1 values (as during a secret change): any one matching is enough.
    assert.equal(verifySignature(`t=1000,v1=${'0'.repeat(64)},v1=${computeSignature(secret, 1000, body)}`, body, secret, 1000), true);
  });

  test('secrets are whsec_ with 192 random bits', () => {
    const a = newSigningSecret();
    assert.match(a, /^whsec_[A-Za-z0-9_-]{32}$/);
    assert.notEqual(a, newSigningSecret());
  });
});

describe('webhook retry schedule', () => {
  test('doubles from one minute, capped at 12 hours, with up to 10% jitter', () => {
    assert.equal(retryDelayMs(1, 0), MINUTE);
    assert.equal(retryDelayMs(2, 0), 2 * MINUTE);
    assert.equal(retryDelayMs(10, 0), 512 * MINUTE);
    assert.equal(retryDelayMs(11, 0), MAX_RETRY_DELAY_MS);
    assert.equal(retryDelayMs(40, 0), MAX_RETRY_DELAY_MS);
    assert.equal(retryDelayMs(1, 0.999), MINUTE + Math.floor(MINUTE * 0.1 * 0.999));
  });

  test('never schedules past 3 days after the first attempt, and gives up there', () => {
    const first = 1_000_000;
    assert.equal(nextAttemptAt(1, first, first, 0), first + MINUTE);
    assert.equal(nextAttemptAt(15, first, first + RETRY_WINDOW_MS - MINUTE, 0), first + RETRY_WINDOW_MS);
    assert.equal(nextAttemptAt(16, first, first + RETRY_WINDOW_MS, 0), null);
  });

  test('an endpoint failing for 3 days is disabled; 2xx is success', () => {
    assert.equal(shouldDisable(null, 10 * DAY), false);
    assert.equal(shouldDisable(0, 3 * DAY - 1), false);
    assert.equal(shouldDisable(0, 3 * DAY), true);
    assert.deepEqual([199, 200, 204, 299, 300, 500, null].map(isSuccessStatus), [false, true, true, true, false, false, false]);
  });

  test('"*" matches every event type', () => {
    assert.equal(endpointWants(['*'], 'payment.created'), true);
    assert.equal(endpointWants(['customer.created'], 'payment.created'), false);
  });
});

describe('webhook URL policy', () => {
  test('private, loopback, link-local and mapped addresses are forbidden', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd12::1',
      '::ffff:127.0.0.1',
      '::ffff:a00:1',
      'not-an-ip',
    ]) {
      assert.equal(isForbiddenAddress(a), true, a);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1']) assert.equal(isForbiddenAddress(a), false, a);
  });

  test('normalises the URL; live mode refuses odd spellings of loopback', () => {
    assert.equal(checkEndpointUrl('HTTP://Example.COM/hook', false), 'http://example.com/hook');
    for (const url of [
      'https://0x7f000001/',
      'https://127.1/',
      'https://[::ffff:7f00:1]/',
      'https://LOCALHOST./',
      'https://foo.localhost/',
    ]) {
      assert.throws(() => checkEndpointUrl(url, true), { param: 'url' }, url);
    }
  });
});
