import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/store.js';
import { type OperationContext, seconds } from '../context.js';
import type { Processors } from '../processor/processors.js';
import { applyCancel, newOperation, settledOutcome } from './outcomes.js';

/**
 * The sweeper: cancels authorisations not captured within 7 days (reason `expired`) and voids
 * them at the processor. Each payment moves under its row lock with a status-guarded UPDATE, so
 * any number of instances can sweep at once and each payment expires exactly once.
 */
export async function expireAuthorizations(store: Store, clock: Clock, processors: Processors, batch = 100): Promise<number> {
  const nowMs = clock.now();
  let expired = 0;
  for (const candidate of await store.listExpiredAuthorizations(seconds(nowMs), batch)) {
    const ctx: OperationContext = { scope: { accountId: candidate.accountId, livemode: candidate.livemode }, nowMs };
    const voiding = await store.transaction(async (tx) => {
      const p = await tx.findPaymentById(ctx.scope, candidate.id, { forUpdate: true });
      if (!p || p.status !== 'requires_capture' || (p.captureBefore ?? Number.POSITIVE_INFINITY) >= seconds(nowMs)) return undefined;
      if (await tx.findPendingOperationForPayment(p.id)) return undefined;
      await applyCancel(tx, ctx, p, 'expired', 'expire');
      const connector = processors.byName(processors.nameForMode(p.livemode) ?? '');
      if (!connector || !p.processorReference) return null;
      const operation = newOperation(ctx, p, 'cancel', 0, connector.name);
      await tx.insertProcessorOperation(operation);
      return { operation, connector };
    });
    if (voiding === undefined) continue;
    expired++;
    if (voiding === null) continue;
    const { operation, connector } = voiding;
    const outcome = await connector.cancel({ operationId: operation.id, reference: operation.reference ?? '' });
    await store.transaction((tx) => tx.settleProcessorOperation(operation.id, settledOutcome(outcome, clock.now())));
  }
  return expired;
}
