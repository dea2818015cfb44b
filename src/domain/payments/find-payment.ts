import { ApiError, resourceMissing } from '../../errors/api-error.js';
import type { PaymentRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { OperationContext } from '../context.js';

/** The payment in the caller's scope; 404 `resource_missing`, or 403 `livemode_mismatch` when it is in the other mode. */
export async function findPaymentOrThrow(
  store: Store,
  ctx: OperationContext,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PaymentRecord> {
  const payment = await store.findPaymentById(ctx.scope, id, options);
  if (payment) return payment;
  if (await store.objectExistsInOtherMode(ctx.scope, 'payments', id)) {
    throw new ApiError('livemode_mismatch', `The payment '${id}' exists in the other mode than the key's.`, { param: 'id' });
  }
  throw resourceMissing('payment', id, 'id');
}
