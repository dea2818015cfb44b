import type { Clock } from '../../lib/clock.js';
import type { ProcessorOperationRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { OperationContext } from '../context.js';
import type { AuthorizeOutcome, Declined, SimpleOutcome } from '../processor/connector.js';
import type { Processors } from '../processor/processors.js';
import { applyRefundOutcome } from '../refunds/refunds.js';
import { applyAuthorizeOutcome, applyCaptureOutcome, settledOutcome } from './outcomes.js';

/** How long an operation may stay pending before reconciliation treats its process as gone. */
export const DEFAULT_RECONCILE_GRACE_MS = 60_000;

const neverArrived = (reference: string | null): Declined => ({
  status: 'declined',
  reference,
  code: 'processing_error',
  declineCode: 'processing_error',
  message: 'The processor never received this request; nothing was charged. Try again.',
});

/**
 * Resolves intent rows left pending by a process that died between calling the processor and
 * committing its answer: asks the connector what happened to each and applies that answer
 * through the same code as the request would have. Safe to run on several instances at once:
 * settling is a conditional UPDATE, so one of them wins and the others see it settled.
 */
export async function reconcileOperations(
  store: Store,
  clock: Clock,
  processors: Processors,
  publicBaseUrl: string,
  graceMs = DEFAULT_RECONCILE_GRACE_MS,
): Promise<number> {
  let resolved = 0;
  for (const operation of await store.listPendingOperations(clock.now() - graceMs, 100)) {
    const connector = processors.byName(operation.processor);
    if (!connector) continue;
    const ctx: OperationContext = { scope: { accountId: operation.accountId, livemode: operation.livemode }, nowMs: clock.now() };
    let outcome = await connector.lookup(operation.id);
    if (outcome === undefined && operation.kind === 'cancel') {
      // A void must happen: send it again (the connector treats the same id as the same request).
      outcome = await connector.cancel({ operationId: operation.id, reference: operation.reference ?? '' });
    }
    await apply(store, ctx, operation, outcome ?? neverArrived(operation.reference), publicBaseUrl);
    resolved++;
  }
  return resolved;
}

function apply(
  store: Store,
  ctx: OperationContext,
  operation: ProcessorOperationRecord,
  outcome: AuthorizeOutcome | SimpleOutcome,
  publicBaseUrl: string,
): Promise<unknown> {
  return store.transaction(async (tx) => {
    switch (operation.kind) {
      case 'authorize':
      case 'authenticate':
        return applyAuthorizeOutcome(tx, ctx, operation, outcome as AuthorizeOutcome, publicBaseUrl);
      case 'capture':
        return applyCaptureOutcome(tx, ctx, operation, outcome as SimpleOutcome);
      case 'refund':
        return applyRefundOutcome(tx, ctx, operation, outcome as SimpleOutcome);
      case 'cancel':
        return tx.settleProcessorOperation(operation.id, settledOutcome(outcome as SimpleOutcome, ctx.nowMs));
    }
  });
}
