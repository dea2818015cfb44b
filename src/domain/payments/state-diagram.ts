import { PAYMENT_STATUSES, type PaymentEvent, TRANSITIONS } from './state-machine.js';

/** What each state-machine event means, for the generated document. */
export const EVENT_MEANINGS: Readonly<Record<PaymentEvent, string>> = {
  attach_payment_method: '`payment_method` given (create or confirm)',
  confirm: '`POST /v1/payments/:id/confirm` or `confirm: true`',
  require_action: 'the issuer asks the customer to authenticate (`next_action`)',
  action_completed: 'the customer completed authentication (hosted page or `test_authentication`)',
  action_failed: 'the customer failed authentication (`last_payment_error`)',
  authorized: 'the processor authorised a manual-capture payment',
  charge_succeeded: 'the processor authorised and captured an automatic payment',
  charge_failed: 'the processor declined (402 `card_error`, `last_payment_error`)',
  capture: '`POST /v1/payments/:id/capture` (partial allowed; the rest is released)',
  cancel: '`POST /v1/payments/:id/cancel`',
  expire: 'the sweeper, 7 days after authorisation (`cancellation_reason: expired`)',
};

/** The mermaid state diagram of TRANSITIONS: docs/payment-states.md embeds exactly this. */
export function paymentStateDiagram(): string {
  const lines = ['stateDiagram-v2', '  [*] --> requires_payment_method'];
  for (const from of PAYMENT_STATUSES) {
    for (const [event, to] of Object.entries(TRANSITIONS[from])) {
      if (from === to && event === 'attach_payment_method') continue;
      lines.push(`  ${from} --> ${to}: ${event}`);
    }
  }
  lines.push('  succeeded --> [*]', '  canceled --> [*]');
  return lines.join('\n');
}

/** The table of every allowed (state, event) → state, in TRANSITIONS order. */
export function paymentTransitionTable(): string {
  const rows = ['| from | event | to | when |', '|---|---|---|---|'];
  for (const from of PAYMENT_STATUSES) {
    for (const [event, to] of Object.entries(TRANSITIONS[from])) {
      rows.push(`| \`${from}\` | \`${event}\` | \`${to}\` | ${EVENT_MEANINGS[event as PaymentEvent]} |`);
    }
  }
  return rows.join('\n');
}

export function paymentStatesDocument(): string {
  return `<!-- Generated from src/domain/payments/state-machine.ts by \`npm run docs:states\`; test/domain/payments/state-diagram.test.ts fails when it is stale. -->
# Payment states

Every status change of a payment goes through \`transition()\` in
\`src/domain/payments/state-machine.ts\`; anything not listed here is refused with \`400\`
\`payment_unexpected_state\` and changes nothing.

\`\`\`mermaid
${paymentStateDiagram()}
\`\`\`

${paymentTransitionTable()}

## Amounts

| status | \`amount_capturable\` | \`amount_received\` | \`amount_refunded\` |
|---|---|---|---|
| before \`requires_capture\` | 0 | 0 | 0 |
| \`requires_capture\` | \`amount\` | 0 | 0 |
| \`succeeded\` | 0 | captured (≤ \`amount\`) | sum of succeeded and pending refunds (≤ received) |
| \`canceled\` | 0 | 0 | 0 |

## Money and crashes

Each processor call (authorise, authenticate, capture, void, refund) is first written as a
pending row in \`processor_operations\` and committed; the processor's answer is committed with
the payment change. A process that dies in between leaves the row pending; on start (and every
sweep) reconciliation asks the connector what happened to that operation id and applies the
answer through the same code, so an authorisation is never left unrecorded. A void the
processor never received is sent again.

## Events

| change | event |
|---|---|
| created | \`payment.created\` |
| → \`requires_action\` | \`payment.requires_action\` |
| → \`requires_capture\` | \`payment.amount_capturable_updated\` |
| → \`succeeded\` | \`payment.succeeded\` |
| declined / authentication failed | \`payment.payment_failed\` |
| → \`canceled\` (also expiry) | \`payment.canceled\` |
| refund succeeded / failed | \`refund.created\` / \`refund.failed\` |

Each is written in the transaction that makes the change.
`;
}
