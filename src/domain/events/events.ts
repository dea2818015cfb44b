import { ApiError, resourceMissing } from '../../errors/api-error.js';
import { newId } from '../../lib/ids.js';
import type { EventRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { type OperationContext, seconds } from '../context.js';
import { type ListObject, type ListParams, pageQuery, toList } from '../lists.js';
import { enqueueWebhookDeliveries } from '../webhooks/enqueue.js';

/** Event types, as data: the webhook endpoint schema and the docs read this list. */
export const EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'payment.created',
  'payment.succeeded',
  'payment.payment_failed',
  'payment.requires_action',
  'payment.canceled',
  'payment.amount_capturable_updated',
  'refund.created',
  'refund.failed',
  'checkout.session.completed',
  'checkout.session.expired',
  'webhook_endpoint.disabled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventObject {
  id: string;
  object: 'event';
  type: string;
  data: { object: Record<string, unknown> };
  request: { id: string } | null;
  created: number;
  livemode: boolean;
  /** Webhook deliveries of this event not yet succeeded or given up (API responses only, not webhook bodies). */
  pending_webhooks?: number;
}

export function presentEvent(e: EventRecord): EventObject {
  return {
    id: e.id,
    object: 'event',
    type: e.type,
    data: { object: e.object },
    request: e.requestId ? { id: e.requestId } : null,
    created: e.created,
    livemode: e.livemode,
  };
}

/**
 * Records that something happened. Call it with the transaction that made the change, so the
 * event exists exactly when the change does. The same transaction queues one webhook delivery
 * per enabled endpoint that wants the event (the outbox).
 */
export async function recordEvent(tx: Store, ctx: OperationContext, type: EventType, object: object): Promise<EventRecord> {
  const event: EventRecord = {
    id: newId('evt', ctx.nowMs),
    accountId: ctx.scope.accountId,
    livemode: ctx.scope.livemode,
    type,
    object: object as Record<string, unknown>,
    requestId: ctx.requestId ?? null,
    created: seconds(ctx.nowMs),
  };
  await tx.insertEvent(event);
  await enqueueWebhookDeliveries(tx, event, ctx.nowMs);
  return event;
}

export async function retrieveEvent(store: Store, ctx: OperationContext, id: string): Promise<EventObject> {
  const event = await store.findEventById(ctx.scope, id);
  if (!event) throw resourceMissing('event', id, 'id');
  const pending = await store.countPendingWebhookDeliveries([event.id]);
  return { ...presentEvent(event), pending_webhooks: pending.get(event.id) ?? 0 };
}

export async function listEvents(
  store: Store,
  ctx: OperationContext,
  params: ListParams & { type?: string },
): Promise<ListObject<EventObject>> {
  if (params.type !== undefined && !(EVENT_TYPES as readonly string[]).includes(params.type)) {
    throw new ApiError('parameter_invalid', `Unknown event type: '${params.type.slice(0, 80)}'.`, { param: 'type' });
  }
  const query = await pageQuery(params, 'evt', async (id) => (await store.findEventById(ctx.scope, id)) !== undefined);
  const page = await store.listEvents(ctx.scope, { type: params.type }, query);
  const pending = await store.countPendingWebhookDeliveries(page.rows.map((e) => e.id));
  return toList('/v1/events', page, (e) => ({ ...presentEvent(e), pending_webhooks: pending.get(e.id) ?? 0 }));
}
