import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  nextStatus,
  PAYMENT_EVENTS,
  PAYMENT_STATUSES,
  TERMINAL_STATUSES,
  TRANSITIONS,
  transition,
} from '../../../src/domain/payments/state-machine.js';

describe('payment state machine', () => {
  test('the contract’s happy paths', () => {
    let s = transition('requires_payment_method', 'attach_payment_method');
    assert.equal(s, 'requires_confirmation');
    s = transition(s, 'confirm');
    assert.equal(s, 'processing');
    assert.equal(transition(s, 'charge_succeeded'), 'succeeded');
    assert.equal(transition(transition(s, 'authorized'), 'capture'), 'succeeded');
    assert.equal(transition(transition(s, 'require_action'), 'action_completed'), 'processing');
  });
  test('a failed confirmation returns to requires_payment_method', () => {
    assert.equal(transition('processing', 'charge_failed'), 'requires_payment_method');
    assert.equal(transition('requires_action', 'action_failed'), 'requires_payment_method');
  });
  test('every state before succeeded can be canceled; terminal states allow nothing', () => {
    for (const s of PAYMENT_STATUSES) {
      if (s === 'succeeded' || s === 'canceled') continue;
      assert.equal(nextStatus(s, 'cancel'), 'canceled', s);
    }
    assert.deepEqual([...TERMINAL_STATUSES].sort(), ['canceled', 'succeeded']);
    for (const e of PAYMENT_EVENTS) {
      assert.throws(() => transition('succeeded', e), { code: 'payment_unexpected_state', status: 400 });
      assert.throws(() => transition('canceled', e), { code: 'payment_unexpected_state' });
    }
  });
  test('only an authorised payment can be captured or expire', () => {
    for (const s of PAYMENT_STATUSES) {
      assert.equal(nextStatus(s, 'capture') !== undefined, s === 'requires_capture', s);
      assert.equal(nextStatus(s, 'expire') !== undefined, s === 'requires_capture', s);
    }
  });
  test('the table only names known statuses', () => {
    for (const [from, edges] of Object.entries(TRANSITIONS)) {
      assert.ok((PAYMENT_STATUSES as readonly string[]).includes(from));
      for (const [event, to] of Object.entries(edges)) {
        assert.ok((PAYMENT_EVENTS as readonly string[]).includes(event));
        assert.ok((PAYMENT_STATUSES as readonly string[]).includes(to as string));
      }
    }
  });
});
