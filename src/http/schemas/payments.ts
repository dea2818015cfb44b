import { type Static, Type } from '@sinclair/typebox';
import { CANCELLATION_REASONS } from '../../domain/payments/lifecycle.js';
import { PAYMENT_STATUSES } from '../../domain/payments/state-machine.js';
import { MAX_AMOUNT, MIN_AMOUNT } from '../../lib/currencies.js';
import { CreatedFilter, ListOf, ListQueryProperties, Metadata, MetadataUpdate, Nullable, ObjectId, StringEnum, Text } from './common.js';

const CAPTURE_METHODS = ['automatic', 'manual'] as const;

export const CardSummary = Type.Object(
  {
    brand: Type.String(),
    last4: Type.String(),
    exp_month: Type.Integer(),
    exp_year: Type.Integer(),
    funding: Type.String(),
    fingerprint: Type.String(),
  },
  { $id: 'CardSummary', additionalProperties: false },
);

export const Payment = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('payment'),
    amount: Type.Integer({ description: 'In the currency’s minor unit.' }),
    amount_capturable: Type.Integer(),
    amount_received: Type.Integer(),
    amount_refunded: Type.Integer(),
    currency: Type.String(),
    customer: Type.String(),
    description: Nullable(Type.String()),
    capture_method: StringEnum(CAPTURE_METHODS),
    status: StringEnum(PAYMENT_STATUSES),
    payment_method: Nullable(Type.Ref('CardSummary')),
    last_payment_error: Nullable(Type.Object({}, { additionalProperties: true })),
    next_action: Nullable(Type.Object({}, { additionalProperties: true })),
    cancellation_reason: Nullable(Type.String()),
    canceled_at: Nullable(Type.Integer()),
    created: Type.Integer(),
    livemode: Type.Boolean(),
    metadata: Type.Record(Type.String(), Type.String()),
    client_secret: Nullable(
      Type.String({ description: 'Lets a browser confirm or authenticate this payment; treat it like a password for this one payment.' }),
    ),
  },
  { $id: 'Payment', additionalProperties: false },
);

export const PaymentList = ListOf('PaymentList', Type.Ref('Payment'), '/v1/payments');

export const CreatePaymentBody = Type.Object(
  {
    amount: Type.Integer({
      minimum: MIN_AMOUNT,
      maximum: MAX_AMOUNT,
      description: 'In the currency’s minor unit (cents for USD, whole yen for JPY).',
    }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code in upper case.' }),
    customer: ObjectId('cus'),
    description: Type.Optional(Text(1000)),
    capture_method: Type.Optional(StringEnum(CAPTURE_METHODS, { default: 'automatic' })),
    metadata: Type.Optional(Metadata),
    payment_method: Type.Optional(ObjectId('tok')),
    confirm: Type.Optional(Type.Boolean({ description: 'Confirm at once (needs payment_method).' })),
  },
  { additionalProperties: false },
);
export type CreatePaymentBody = Static<typeof CreatePaymentBody>;

export const UpdatePaymentBody = Type.Object(
  {
    description: Type.Optional(Nullable(Text(1000))),
    metadata: Type.Optional(MetadataUpdate),
  },
  { additionalProperties: false },
);
export type UpdatePaymentBody = Static<typeof UpdatePaymentBody>;

export const ListPaymentsQuery = Type.Object(
  {
    ...ListQueryProperties,
    customer: Type.Optional(ObjectId('cus')),
    status: Type.Optional(StringEnum(PAYMENT_STATUSES)),
    created: Type.Optional(CreatedFilter),
  },
  { additionalProperties: false },
);
export type ListPaymentsQuery = Static<typeof ListPaymentsQuery>;

const ClientSecret = Text(255, { minLength: 1, description: 'The payment’s client secret; required with a publishable key.' });

export const ConfirmPaymentBody = Type.Object(
  { payment_method: Type.Optional(ObjectId('tok')), client_secret: Type.Optional(ClientSecret) },
  { additionalProperties: false },
);
export type ConfirmPaymentBody = Static<typeof ConfirmPaymentBody>;

export const CapturePaymentBody = Type.Object(
  {
    amount_to_capture: Type.Optional(
      Type.Integer({
        minimum: MIN_AMOUNT,
        maximum: MAX_AMOUNT,
        description: 'At most amount_capturable; default all of it. What is not captured is released.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CapturePaymentBody = Static<typeof CapturePaymentBody>;

export const CancelPaymentBody = Type.Object(
  { cancellation_reason: Type.Optional(StringEnum(CANCELLATION_REASONS)) },
  { additionalProperties: false },
);
export type CancelPaymentBody = Static<typeof CancelPaymentBody>;

export const TestAuthenticationBody = Type.Object(
  { outcome: StringEnum(['succeed', 'fail'] as const, { description: 'What the customer did on the authentication page.' }) },
  { additionalProperties: false },
);
export type TestAuthenticationBody = Static<typeof TestAuthenticationBody>;
