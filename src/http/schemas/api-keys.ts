import { type Static, Type } from '@sinclair/typebox';
import { API_KEY_KINDS, PERMISSION_LEVELS, PERMISSION_RESOURCES } from '../../store/records.js';
import { ListOf, ListQueryProperties, Nullable, StringEnum, Text } from './common.js';

const KEY_NAME_MAX = 100;
const KEY_NOTE_MAX = 500;

const Level = StringEnum(PERMISSION_LEVELS);
export const PermissionsSchema = Type.Object(Object.fromEntries(PERMISSION_RESOURCES.map((r) => [r, Type.Optional(Level)])), {
  additionalProperties: false,
  description: 'Per resource: `none`, `read` or `write` (write implies read). Resources left out are `none`.',
});

const keyProperties = {
  id: Type.String(),
  object: Type.Literal('api_key'),
  kind: StringEnum(API_KEY_KINDS),
  prefix: Type.String({ description: 'What the key starts with, e.g. `rk_test_`.' }),
  last4: Type.String(),
  livemode: Type.Boolean(),
  name: Nullable(Type.String()),
  note: Nullable(Type.String()),
  permissions: Nullable(PermissionsSchema),
  created: Type.Integer(),
  expires_at: Nullable(Type.Integer({ description: 'Secret keys: 90 days after creation; after a roll, the end of the 24-hour overlap.' })),
  revoked_at: Nullable(Type.Integer()),
  last_used_at: Nullable(Type.Integer()),
};

export const ApiKey = Type.Object(keyProperties, { $id: 'ApiKey', additionalProperties: false });

export const NewApiKey = Type.Object(
  {
    ...keyProperties,
    secret: Type.Optional(Type.String({ description: 'The whole key. Shown only in this response; store it in a secrets manager.' })),
    secret_redacted: Type.Optional(
      Type.Literal(true, { description: 'Set on an idempotent replay: the key was shown once and is not stored in plain text.' }),
    ),
  },
  { $id: 'NewApiKey', additionalProperties: false },
);

export const ApiKeyList = ListOf('ApiKeyList', Type.Ref('ApiKey'), '/v1/api_keys');

export const CreateApiKeyBody = Type.Object(
  {
    kind: StringEnum(API_KEY_KINDS, { description: 'A key of the calling key’s mode. Restricted keys may create only restricted keys.' }),
    name: Type.Optional(Text(KEY_NAME_MAX, { description: 'Who holds the key, e.g. `billing-worker`.' })),
    note: Type.Optional(Text(KEY_NOTE_MAX)),
    permissions: Type.Optional(PermissionsSchema),
  },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

export const UpdateApiKeyBody = Type.Object(
  {
    name: Type.Optional(Nullable(Text(KEY_NAME_MAX))),
    note: Type.Optional(Nullable(Text(KEY_NOTE_MAX))),
  },
  { additionalProperties: false },
);
export type UpdateApiKeyBody = Static<typeof UpdateApiKeyBody>;

export const EmptyBody = Type.Object({}, { additionalProperties: false });

export const ListApiKeysQuery = Type.Object({ ...ListQueryProperties }, { additionalProperties: false });
export type ListApiKeysQuery = Static<typeof ListApiKeysQuery>;
