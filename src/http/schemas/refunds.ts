import { type Static, Type } from '@sinclair/typebox';
import { REFUND_REASONS } from '../../domain/refunds/refunds.js';
import { MAX_AMOUNT } from '../../lib/currencies.js';
import { CreatedFilter, ListOf, ListQueryProperties, Metadata, Nullable, ObjectId, StringEnum } from './common.js';

export const Refund = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('refund'),
    amount: Type.Integer(),
    currency: Type.String(),
    payment: Type.String(),
    reason: Nullable(Type.String()),
    status: StringEnum(['pending', 'succeeded', 'failed'] as const),
    failure_reason: Nullable(Type.String()),
    created: Type.Integer(),
    livemode: Type.Boolean(),
    metadata: Type.Record(Type.String(), Type.String()),
  },
  { $id: 'Refund', additionalProperties: false },
);

export const RefundList = ListOf('RefundList', Type.Ref('Refund'), '/v1/refunds');

export const CreateRefundBody = Type.Object(
  {
    payment: ObjectId('pay'),
    amount: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_AMOUNT, description: 'Default: everything captured and not yet refunded.' }),
    ),
    reason: Type.Optional(StringEnum(REFUND_REASONS)),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateRefundBody = Static<typeof CreateRefundBody>;

export const ListRefundsQuery = Type.Object(
  { ...ListQueryProperties, payment: Type.Optional(ObjectId('pay')), created: Type.Optional(CreatedFilter) },
  { additionalProperties: false },
);
export type ListRefundsQuery = Static<typeof ListRefundsQuery>;
