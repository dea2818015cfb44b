import { randomBytes } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/store.js';
import type { AuthorizeOutcome, AuthorizeRequest, Declined, ProcessorConnector, SimpleOutcome } from './connector.js';

/** The contract's test cards (section 8) and what the simulated processor does with each. */
export const TEST_CARDS = {
  '4242424242424242': { outcome: 'succeeds' },
  '4000000000000259': { outcome: 'succeeds' }, // later disputed: a no-op until disputes exist
  '4000000000000002': { outcome: 'declined', code: 'card_declined', declineCode: 'generic_decline' },
  '4000000000009995': { outcome: 'declined', code: 'card_declined', declineCode: 'insufficient_funds' },
  '4000000000000069': { outcome: 'declined', code: 'expired_card', declineCode: 'expired_card' },
  '4000000000000127': { outcome: 'declined', code: 'incorrect_cvc', declineCode: 'incorrect_cvc' },
  '4000000000000119': { outcome: 'declined', code: 'processing_error', declineCode: 'processing_error' },
  '4000002500003155': { outcome: 'requires_action' },
} as const satisfies Record<string, { outcome: string; code?: Declined['code']; declineCode?: string }>;

const DECLINE_MESSAGES: Record<Declined['code'], string> = {
  card_declined: 'Your card was declined.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: 'Your card’s security code is incorrect.',
  processing_error: 'An error occurred while processing your card. Try again in a little bit.',
};

function declined(code: Declined['code'], declineCode: string, reference: string | null): Declined {
  return { status: 'declined', reference, code, declineCode, message: DECLINE_MESSAGES[code] };
}

/**
 * The reference connector, used in test mode. It keeps its own ledger in the database
 * (simulated_processor_operations), so it can answer `lookup` after a restart exactly as a real
 * processor would, and answers a repeated operation id with the first answer.
 */
export function createSimulatedProcessor(store: Store, clock: Clock): ProcessorConnector {
  async function once<T extends AuthorizeOutcome | SimpleOutcome>(
    operationId: string,
    kind: string,
    amount: number,
    decide: () => Promise<T> | T,
  ): Promise<T> {
    const earlier = await store.findSimulatedOperation(operationId);
    if (earlier) return earlier.outcome as unknown as T;
    const outcome = await decide();
    await store.insertSimulatedOperation({
      operationId,
      reference: outcome.reference ?? '',
      kind,
      amount,
      outcome: outcome as unknown as Record<string, unknown>,
      created: clock.now(),
    });
    return outcome;
  }

  const newReference = () => `sim_${randomBytes(12).toString('hex')}`;

  return {
    name: 'simulated',
    authorize(request: AuthorizeRequest) {
      return once(request.operationId, 'authorize', request.amount, (): AuthorizeOutcome => {
        const reference = newReference();
        const card = TEST_CARDS[request.card.number as keyof typeof TEST_CARDS];
        if (card?.outcome === 'declined') return declined(card.code, card.declineCode, reference);
        if (card?.outcome === 'requires_action') return { status: 'requires_action', reference };
        return { status: 'authorized', reference, captured: request.capture };
      });
    },
    completeAuthentication(request) {
      return once(request.operationId, 'authenticate', request.amount, async (): Promise<AuthorizeOutcome> => {
        const asked = await store.findSimulatedOperationsByReference(request.reference);
        if (!asked.some((o) => o.kind === 'authorize' && o.outcome.status === 'requires_action')) {
          return declined('processing_error', 'processing_error', request.reference);
        }
        if (!request.succeeded) return declined('card_declined', 'authentication_required', request.reference);
        return { status: 'authorized', reference: request.reference, captured: request.capture };
      });
    },
    capture(request) {
      return once(request.operationId, 'capture', request.amount, (): SimpleOutcome => ({
        status: 'succeeded',
        reference: request.reference,
      }));
    },
    cancel(request) {
      return once(request.operationId, 'cancel', 0, (): SimpleOutcome => ({ status: 'succeeded', reference: request.reference }));
    },
    refund(request) {
      return once(request.operationId, 'refund', request.amount, (): SimpleOutcome => ({
        status: 'succeeded',
        reference: request.reference,
      }));
    },
    async lookup(operationId) {
      const found = await store.findSimulatedOperation(operationId);
      return found?.outcome as AuthorizeOutcome | SimpleOutcome | undefined;
    },
  };
}
