import { type Static, Type } from '@sinclair/typebox';
import { CHECKOUT_SESSION_STATUSES } from '../../store/records.js';
import { MAX_AMOUNT, MIN_AMOUNT } from '../../lib/currencies.js';
import { ListOf, ListQueryProperties, Metadata, Nullable, ObjectId, StringEnum, Text } from './common.js';

const CAPTURE_METHODS = ['automatic', 'manual'] as const;
const ClientSecret = Text(255, { minLength: 1, description: 'The session’s (or payment’s) client secret: what lets a browser act on it.' });

export const CheckoutSession = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('checkout.session'),
    url: Type.String({ description: 'The hosted checkout page: redirect the customer here.' }),
    client_secret: Type.String({ description: 'With a publishable key, lets a browser read and pay this one session.' }),
    status: StringEnum(CHECKOUT_SESSION_STATUSES),
    payment: Type.String({ description: 'The `pay_` payment the session collects.' }),
    payment_status: Type.String({ description: 'The payment’s status.' }),
    amount: Type.Integer(),
    currency: Type.String(),
    customer: Type.String(),
    description: Nullable(Type.String()),
    capture_method: StringEnum(CAPTURE_METHODS),
    success_url: Type.String(),
    cancel_url: Type.String(),
    next_action: Nullable(Type.Object({}, { additionalProperties: true })),
    last_payment_error: Nullable(Type.Object({}, { additionalProperties: true })),
    expires_at: Type.Integer({ description: 'Unix seconds; an unpaid session expires then.' }),
    completed_at: Nullable(Type.Integer()),
    created: Type.Integer(),
    livemode: Type.Boolean(),
    metadata: Type.Record(Type.String(), Type.String()),
  },
  { $id: 'CheckoutSession', additionalProperties: false },
);

export const CheckoutSessionList = ListOf('CheckoutSessionList', Type.Ref('CheckoutSession'), '/v1/checkout/sessions');

export const CheckoutConfig = Type.Object(
  {
    object: Type.Literal('checkout_config'),
    livemode: Type.Boolean(),
    account_name: Type.String(),
    card_brands: Type.Array(Type.String(), { description: 'Brands the service accepts.' }),
    api_base: Type.String({ description: 'Where browsers send API requests.' }),
  },
  { $id: 'CheckoutConfig', additionalProperties: false },
);

const RedirectUrl = (what: string) =>
  Text(2048, { minLength: 1, description: `Absolute URL the customer is sent to ${what} (https in live mode).` });

export const CreateCheckoutSessionBody = Type.Object(
  {
    amount: Type.Integer({ minimum: MIN_AMOUNT, maximum: MAX_AMOUNT, description: 'In the currency’s minor unit.' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code in upper case.' }),
    customer: ObjectId('cus'),
    description: Type.Optional(Text(1000)),
    capture_method: Type.Optional(StringEnum(CAPTURE_METHODS, { default: 'automatic' })),
    success_url: RedirectUrl('after paying'),
    cancel_url: RedirectUrl('when they cancel'),
    expires_at: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Unix seconds, 30 minutes to 24 hours from now (default 24 hours).' }),
    ),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateCheckoutSessionBody = Static<typeof CreateCheckoutSessionBody>;

export const RetrieveCheckoutSessionQuery = Type.Object({ client_secret: Type.Optional(ClientSecret) }, { additionalProperties: false });
export type RetrieveCheckoutSessionQuery = Static<typeof RetrieveCheckoutSessionQuery>;

export const ListCheckoutSessionsQuery = Type.Object(
  { ...ListQueryProperties, payment: Type.Optional(ObjectId('pay')) },
  { additionalProperties: false },
);
export type ListCheckoutSessionsQuery = Static<typeof ListCheckoutSessionsQuery>;

export const ConfirmCheckoutSessionBody = Type.Object(
  { client_secret: ClientSecret, payment_method: ObjectId('tok') },
  { additionalProperties: false },
);
export type ConfirmCheckoutSessionBody = Static<typeof ConfirmCheckoutSessionBody>;

export const EmptyBody = Type.Object({}, { additionalProperties: false });
