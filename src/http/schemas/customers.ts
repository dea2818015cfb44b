import { type Static, Type } from '@sinclair/typebox';
import { ListOf, ListQueryProperties, Metadata, MetadataUpdate, Nullable, Text } from './common.js';

const Email = Text(512, { minLength: 3, pattern: '^[^\\s@]+@[^\\s@]+$', description: 'An email address.' });

export const Customer = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('customer'),
    email: Nullable(Type.String()),
    name: Nullable(Type.String()),
    description: Nullable(Type.String()),
    metadata: Type.Record(Type.String(), Type.String()),
    created: Type.Integer(),
    livemode: Type.Boolean(),
  },
  { $id: 'Customer', additionalProperties: false },
);

export const DeletedCustomer = Type.Object(
  { id: Type.String(), object: Type.Literal('customer'), deleted: Type.Literal(true) },
  { $id: 'DeletedCustomer', additionalProperties: false },
);

export const CustomerList = ListOf('CustomerList', Type.Ref('Customer'), '/v1/customers');

export const CreateCustomerBody = Type.Object(
  {
    email: Type.Optional(Email),
    name: Type.Optional(Text(256)),
    description: Type.Optional(Text(1000)),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateCustomerBody = Static<typeof CreateCustomerBody>;

export const UpdateCustomerBody = Type.Object(
  {
    email: Type.Optional(Nullable(Email)),
    name: Type.Optional(Nullable(Text(256))),
    description: Type.Optional(Nullable(Text(1000))),
    metadata: Type.Optional(MetadataUpdate),
  },
  { additionalProperties: false },
);
export type UpdateCustomerBody = Static<typeof UpdateCustomerBody>;

export const ListCustomersQuery = Type.Object({ ...ListQueryProperties }, { additionalProperties: false });
export type ListCustomersQuery = Static<typeof ListCustomersQuery>;
