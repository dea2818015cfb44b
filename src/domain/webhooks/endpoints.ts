import { ApiError, resourceMissing } from '../../errors/api-error.js';
import { hasIdShape, newId } from '../../lib/ids.js';
import type { WebhookEndpointRecord } from '../../store/records.js';
import type { Store, WebhookEndpointPatch } from '../../store/store.js';
import { type OperationContext, seconds } from '../context.js';
import { type ListObject, type ListParams, pageQuery, toList } from '../lists.js';
import { initialMetadata, mergeMetadata } from '../metadata.js';
import { presentWebhookAttempt, presentWebhookEndpoint, type WebhookAttemptObject, type WebhookEndpointObject } from './present.js';
import { newSigningSecret } from './signature.js';
import { checkEndpointUrl } from './url-policy.js';

export interface CreateWebhookEndpointInput {
  url: string;
  enabled_events: string[];
  description?: string;
  metadata?: Record<string, string>;
}

export interface UpdateWebhookEndpointInput {
  url?: string;
  enabled_events?: string[];
  status?: 'enabled' | 'disabled';
  description?: string | null;
  metadata?: Record<string, string | null>;
}

/** `["*"]` stands alone: with it, other types add nothing. */
function normaliseEvents(events: string[]): string[] {
  return events.includes('*') ? ['*'] : [...new Set(events)];
}

export async function createWebhookEndpoint(
  store: Store,
  ctx: OperationContext,
  input: CreateWebhookEndpointInput,
): Promise<WebhookEndpointObject> {
  const record: WebhookEndpointRecord = {
    id: newId('we', ctx.nowMs),
    accountId: ctx.scope.accountId,
    livemode: ctx.scope.livemode,
    url: checkEndpointUrl(input.url, ctx.scope.livemode),
    enabledEvents: normaliseEvents(input.enabled_events),
    status: 'enabled',
    disabledReason: null,
    disabledAt: null,
    secret: newSigningSecret(),
    description: input.description ?? null,
    metadata: initialMetadata(input.metadata),
    consecutiveFailures: 0,
    failingSince: null,
    created: seconds(ctx.nowMs),
  };
  await store.insertWebhookEndpoint(record);
  return presentWebhookEndpoint(record, { withSecret: true });
}

export async function findWebhookEndpointOrThrow(
  store: Store,
  ctx: OperationContext,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookEndpointRecord> {
  const endpoint = await store.findWebhookEndpointById(ctx.scope, id, options);
  if (!endpoint) throw resourceMissing('webhook endpoint', id, 'id');
  return endpoint;
}

export async function retrieveWebhookEndpoint(store: Store, ctx: OperationContext, id: string): Promise<WebhookEndpointObject> {
  return presentWebhookEndpoint(await findWebhookEndpointOrThrow(store, ctx, id));
}

export async function updateWebhookEndpoint(
  store: Store,
  ctx: OperationContext,
  id: string,
  input: UpdateWebhookEndpointInput,
): Promise<WebhookEndpointObject> {
  const current = await findWebhookEndpointOrThrow(store, ctx, id, { forUpdate: true });
  const patch: WebhookEndpointPatch = {};
  if (input.url !== undefined) patch.url = checkEndpointUrl(input.url, ctx.scope.livemode);
  if (input.enabled_events !== undefined) patch.enabledEvents = normaliseEvents(input.enabled_events);
  if (input.description !== undefined) patch.description = input.description;
  if (input.metadata !== undefined) patch.metadata = mergeMetadata(current.metadata, input.metadata);
  if (input.status === 'enabled' && current.status !== 'enabled') {
    // Re-enabling starts with a clean record; deliveries canceled while disabled stay canceled.
    Object.assign(patch, { status: 'enabled', disabledReason: null, disabledAt: null, consecutiveFailures: 0, failingSince: null });
  } else if (input.status === 'disabled' && current.status !== 'disabled') {
    Object.assign(patch, { status: 'disabled', disabledReason: 'requested', disabledAt: seconds(ctx.nowMs) });
  }
  await store.updateWebhookEndpoint(ctx.scope, id, patch);
  if (patch.status === 'disabled') await store.cancelWebhookDeliveries(id);
  return presentWebhookEndpoint({ ...current, ...patch });
}

export async function deleteWebhookEndpoint(store: Store, ctx: OperationContext, id: string) {
  await findWebhookEndpointOrThrow(store, ctx, id, { forUpdate: true });
  await store.deleteWebhookEndpoint(ctx.scope, id);
  return { id, object: 'webhook_endpoint' as const, deleted: true as const };
}

export async function listWebhookEndpoints(
  store: Store,
  ctx: OperationContext,
  params: ListParams,
): Promise<ListObject<WebhookEndpointObject>> {
  const query = await pageQuery(params, 'we', async (id) => (await store.findWebhookEndpointById(ctx.scope, id)) !== undefined);
  return toList('/v1/webhook_endpoints', await store.listWebhookEndpoints(ctx.scope, query), (e) => presentWebhookEndpoint(e));
}

export async function listWebhookAttempts(
  store: Store,
  ctx: OperationContext,
  endpointId: string,
  params: ListParams & { event?: string },
): Promise<ListObject<WebhookAttemptObject>> {
  await findWebhookEndpointOrThrow(store, ctx, endpointId);
  if (params.event !== undefined && !hasIdShape('evt', params.event)) {
    throw new ApiError('parameter_invalid', `Invalid event id: '${params.event.slice(0, 80)}'.`, { param: 'event' });
  }
  const query = await pageQuery(
    params,
    'wha',
    async (id) => (await store.findWebhookAttemptById(ctx.scope, id))?.endpointId === endpointId,
  );
  const page = await store.listWebhookAttempts(ctx.scope, endpointId, { eventId: params.event }, query);
  return toList(`/v1/webhook_endpoints/${endpointId}/attempts`, page, presentWebhookAttempt);
}
