import { ApiError, resourceMissing } from '../../errors/api-error.js';
import { newId } from '../../lib/ids.js';
import type { CustomerRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { type OperationContext, seconds } from '../context.js';
import { recordEvent } from '../events/events.js';
import { type ListObject, type ListParams, pageQuery, toList } from '../lists.js';
import { initialMetadata, mergeMetadata } from '../metadata.js';
import { type CustomerObject, presentCustomer } from './present.js';

export interface CreateCustomerInput {
  email?: string;
  name?: string;
  description?: string;
  metadata?: Record<string, string>;
}

export interface UpdateCustomerInput {
  email?: string | null;
  name?: string | null;
  description?: string | null;
  metadata?: Record<string, string | null>;
}

export async function createCustomer(store: Store, ctx: OperationContext, input: CreateCustomerInput): Promise<CustomerObject> {
  const record: CustomerRecord = {
    id: newId('cus', ctx.nowMs),
    accountId: ctx.scope.accountId,
    livemode: ctx.scope.livemode,
    email: input.email ?? null,
    name: input.name ?? null,
    description: input.description ?? null,
    metadata: initialMetadata(input.metadata),
    created: seconds(ctx.nowMs),
    deletedAt: null,
  };
  await store.insertCustomer(record);
  const customer = presentCustomer(record);
  await recordEvent(store, ctx, 'customer.created', customer);
  return customer;
}

/** The customer in the caller's scope; 404 (or 403 livemode_mismatch) otherwise. */
export async function findCustomerOrThrow(
  store: Store,
  ctx: OperationContext,
  id: string,
  param = 'id',
  inBody = false,
): Promise<CustomerRecord> {
  const customer = await store.findCustomerById(ctx.scope, id);
  if (customer) return customer;
  if (await store.objectExistsInOtherMode(ctx.scope, 'customers', id)) {
    throw new ApiError(
      'livemode_mismatch',
      `The customer '${id}' exists in ${ctx.scope.livemode ? 'test' : 'live'} mode, but a ${ctx.scope.livemode ? 'live' : 'test'} mode key was used.`,
      { param },
    );
  }
  throw resourceMissing('customer', id, param, inBody);
}

export async function retrieveCustomer(store: Store, ctx: OperationContext, id: string): Promise<CustomerObject> {
  return presentCustomer(await findCustomerOrThrow(store, ctx, id));
}

export async function updateCustomer(store: Store, ctx: OperationContext, id: string, input: UpdateCustomerInput): Promise<CustomerObject> {
  const current = await findCustomerOrThrow(store, ctx, id);
  const patch: Partial<CustomerRecord> = {};
  if (input.email !== undefined) patch.email = input.email;
  if (input.name !== undefined) patch.name = input.name;
  if (input.description !== undefined) patch.description = input.description;
  if (input.metadata !== undefined) patch.metadata = mergeMetadata(current.metadata, input.metadata);
  await store.updateCustomer(ctx.scope, id, patch);
  const customer = presentCustomer({ ...current, ...patch });
  await recordEvent(store, ctx, 'customer.updated', customer);
  return customer;
}

export async function deleteCustomer(store: Store, ctx: OperationContext, id: string) {
  const current = await findCustomerOrThrow(store, ctx, id);
  await store.updateCustomer(ctx.scope, id, { deletedAt: seconds(ctx.nowMs) });
  await recordEvent(store, ctx, 'customer.deleted', presentCustomer(current));
  return { id, object: 'customer' as const, deleted: true as const };
}

export async function listCustomers(store: Store, ctx: OperationContext, params: ListParams): Promise<ListObject<CustomerObject>> {
  const query = await pageQuery(params, 'cus', async (id) => (await store.findCustomerById(ctx.scope, id)) !== undefined);
  const page = await store.listCustomers(ctx.scope, query);
  return toList('/v1/customers', page, presentCustomer);
}
