import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectBrand, luhnValid, validateCard } from '../../../src/domain/tokens/card-rules.js';
import { fingerprint, open, parseKeyring, seal, sealedVersion } from '../../../src/domain/tokens/keyring.js';

const NOW = Date.UTC(2026, 10, 1);

test('Luhn', () => {
  assert.equal(luhnValid('4242424242424242'), true);
  assert.equal(luhnValid('4242424242424241'), false);
  assert.equal(luhnValid(''), false);
});

test('brand detection by leading digits', () => {
  const cases: Record<string, string> = {
    '4242424242424242': 'visa',
    '5555555555554444': 'mastercard',
    '2720990000000007': 'mastercard',
    '378282246310005': 'amex',
    '6011000990139424': 'discover',
    '6221260000000000': 'discover',
    '3530111333300000': 'jcb',
    '30569309025904': 'diners',
    '6200000000000005': 'unionpay',
    '9999999999999995': 'unknown',
  };
  for (const [number, brand] of Object.entries(cases)) assert.equal(detectBrand(number), brand, number);
});

test('expiry this month is still valid; two-digit years are 20YY', () => {
  assert.equal(validateCard({ number: '4242424242424242', exp_month: 11, exp_year: 2026, cvc: '123' }, NOW).expYear, 2026);
  assert.equal(validateCard({ number: '4242424242424242', exp_month: 1, exp_year: 30, cvc: '123' }, NOW).expYear, 2030);
});

test('sealing: authenticated, bound to its row, readable after rotation by version', () => {
  const v1 = Buffer.alloc(32, 1).toString('base64');
  const v2 = Buffer.alloc(32, 2).toString('base64');
  const old = parseKeyring(`v1:${v1}`);
  const sealed = seal(old, '4242424242424242', 'card_a');
  assert.equal(sealedVersion(sealed), 1);
  assert.equal(open(old, sealed, 'card_a'), '4242424242424242');
  assert.throws(() => open(old, sealed, 'card_b'));
  const tampered = `${sealed.slice(0, -4)}AAAA`;
  assert.throws(() => open(old, tampered, 'card_a'));

  const rotated = parseKeyring(`v2:${v2},v1:${v1}`);
  assert.equal(rotated.current.version, 2);
  assert.equal(open(rotated, sealed, 'card_a'), '4242424242424242');
  assert.equal(sealedVersion(seal(rotated, 'x', 'card_a')), 2);
  assert.equal(fingerprint(old, 'acct_1', '4242424242424242'), fingerprint(rotated, 'acct_1', '4242424242424242'));
  assert.notEqual(fingerprint(old, 'acct_1', '4242424242424242'), fingerprint(old, 'acct_2', '4242424242424242'));
  assert.throws(() => open(parseKeyring(`v3:${v2}`), sealed, 'card_a'), /version 1/);
});

test('a bad CARD_ENCRYPTION_KEY is refused', () => {
  assert.throws(() => parseKeyring('short'), /32 bytes/);
  assert.throws(() => parseKeyring(`v1:${Buffer.alloc(32).toString('base64')},v1:${Buffer.alloc(32).toString('base64')}`), /twice/);
});
