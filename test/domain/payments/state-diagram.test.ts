import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { paymentStatesDocument } from '../../../src/domain/payments/state-diagram.js';
import {
  PAYMENT_EVENTS,
  PAYMENT_STATUSES,
  TERMINAL_STATUSES,
  TRANSITIONS,
  transition,
} from '../../../src/domain/payments/state-machine.js';

test('docs/payment-states.md is what the state machine generates (npm run docs:states)', () => {
  const committed = readFileSync(new URL('../../../docs/payment-states.md', import.meta.url), 'utf8');
  assert.equal(committed, paymentStatesDocument());
});

test('the diagram has one edge per transition in TRANSITIONS', () => {
  const doc = paymentStatesDocument();
  for (const from of PAYMENT_STATUSES) {
    for (const [event, to] of Object.entries(TRANSITIONS[from])) {
      if (from === to) continue;
      assert.ok(doc.includes(`  ${from} --> ${to}: ${event}`), `${from} --${event}--> ${to}`);
    }
  }
});

test('every forbidden (state, event) pair is payment_unexpected_state', () => {
  for (const from of PAYMENT_STATUSES) {
    for (const event of PAYMENT_EVENTS) {
      const to = TRANSITIONS[from][event];
      if (to) assert.equal(transition(from, event), to);
      else assert.throws(() => transition(from, event), { code: 'payment_unexpected_state' });
    }
  }
});

test('the contract’s shape: succeeded and canceled are terminal; everything before succeeded can be canceled', () => {
  assert.deepEqual([...TERMINAL_STATUSES].sort(), ['canceled', 'succeeded']);
  for (const s of PAYMENT_STATUSES.filter((x) => !TERMINAL_STATUSES.includes(x))) assert.equal(TRANSITIONS[s].cancel, 'canceled');
  assert.equal(TRANSITIONS.processing.charge_failed, 'requires_payment_method');
  assert.equal(TRANSITIONS.requires_capture.expire, 'canceled');
});
