import { newId } from '../../lib/ids.js';
import type { EventRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';

export const ALL_EVENTS = '*';

export function endpointWants(enabledEvents: readonly string[], type: string): boolean {
  return enabledEvents.includes(ALL_EVENTS) || enabledEvents.includes(type);
}

/**
 * Writes the outbox: one delivery per enabled endpoint that wants the event, in the event's own
 * transaction, so a committed event always has its deliveries and a rolled-back one has none.
 * (A cursor over the events table would skip events on PostgreSQL, where transactions commit
 * out of id order.)
 */
export async function enqueueWebhookDeliveries(tx: Store, event: EventRecord, nowMs: number): Promise<number> {
  const endpoints = await tx.listEnabledWebhookEndpoints({ accountId: event.accountId, livemode: event.livemode });
  let queued = 0;
  for (const endpoint of endpoints) {
    if (!endpointWants(endpoint.enabledEvents, event.type)) continue;
    await tx.insertWebhookDelivery({
      id: newId('whd', nowMs),
      accountId: event.accountId,
      livemode: event.livemode,
      endpointId: endpoint.id,
      eventId: event.id,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: nowMs,
      firstAttemptedAt: null,
      leaseUntil: null,
      leaseToken: null,
      created: event.created,
    });
    queued++;
  }
  return queued;
}
