import { type Static, Type } from '@sinclair/typebox';
import { Text } from './common.js';

export const Card = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('card'),
    brand: Type.String({ description: 'visa, mastercard, amex, discover, jcb, diners, unionpay or unknown.' }),
    last4: Type.String(),
    exp_month: Type.Integer(),
    exp_year: Type.Integer(),
    funding: Type.String(),
    fingerprint: Type.String({ description: 'The same card gives the same fingerprint within an account.' }),
  },
  { $id: 'Card', additionalProperties: false },
);

export const Token = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('token'),
    type: Type.Literal('card'),
    card: Type.Ref('Card'),
    created: Type.Integer(),
    expires_at: Type.Integer({ description: 'Unix seconds; a token is valid for 15 minutes and for one payment.' }),
    livemode: Type.Boolean(),
    used: Type.Boolean(),
  },
  { $id: 'Token', additionalProperties: false },
);

export const CreateTokenBody = Type.Object(
  {
    card: Type.Object(
      {
        number: Text(40, { minLength: 1, description: 'The card number (spaces and dashes are ignored).' }),
        exp_month: Type.Integer({ description: '1 to 12.' }),
        exp_year: Type.Integer({ description: 'Four digits (two are read as 20YY).' }),
        cvc: Text(8, { minLength: 1, description: '3 digits (4 for American Express).' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type CreateTokenBody = Static<typeof CreateTokenBody>;
