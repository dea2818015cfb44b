import { type Static, Type } from '@sinclair/typebox';
import { RELEASES } from '../../domain/versions/releases.js';
import { StringEnum, Text } from './common.js';

export const Account = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('account'),
    name: Type.String(),
    default_version: Type.String({ description: 'The API version used when a request sends no Service-Version.' }),
    created: Type.Integer(),
  },
  { $id: 'Account', additionalProperties: false },
);

export const UpdateAccountBody = Type.Object(
  {
    name: Type.Optional(Text(256, { minLength: 1 })),
    default_version: Type.Optional(StringEnum(RELEASES.map((r) => r.id))),
  },
  { additionalProperties: false },
);
export type UpdateAccountBody = Static<typeof UpdateAccountBody>;

export const ApiVersion = Type.Object(
  { object: Type.Literal('api_version'), id: Type.String(), changes: Type.Array(Type.String()) },
  { $id: 'ApiVersion', additionalProperties: false },
);

export const VersionList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(Type.Ref('ApiVersion')),
    latest: Type.String(),
  },
  { $id: 'VersionList', additionalProperties: false },
);

export const Health = Type.Object(
  {
    status: Type.String(),
    database: Type.String(),
    rate_limiter: Type.Optional(
      Type.String({
        description: '`ok` (shared through Redis), `degraded: ...` (Redis unreachable), `ok: per-instance limits ...` or `disabled`.',
      }),
    ),
  },
  { $id: 'Health', additionalProperties: false },
);
