import { type Static, Type } from '@sinclair/typebox';
import { AUDIT_EVENT_TYPES } from '../../store/records.js';
import { CreatedFilter, ListOf, ListQueryProperties, Nullable, StringEnum, Text } from './common.js';

export const AuditEvent = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('audit_event'),
    type: StringEnum(AUDIT_EVENT_TYPES),
    api_key: Type.String({ description: 'The key the event is about (for `api_key.used`, the key that made the request).' }),
    request: Nullable(
      Type.Object(
        {
          id: Type.String(),
          method: Type.String(),
          path: Type.String(),
          status: Type.Integer(),
          ip: Type.String(),
          user_agent: Nullable(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    created: Type.Integer(),
    livemode: Type.Boolean(),
    hash: Type.String({ description: 'sha256(previous_hash + canonical JSON of the event), hex.' }),
    previous_hash: Type.String({ description: 'The hash of the account’s previous audit event (64 zeros for the first).' }),
  },
  { $id: 'AuditEvent', additionalProperties: false },
);

export const AuditEventList = ListOf('AuditEventList', Type.Ref('AuditEvent'), '/v1/audit_events');

export const ListAuditEventsQuery = Type.Object(
  {
    ...ListQueryProperties,
    type: Type.Optional(StringEnum(AUDIT_EVENT_TYPES)),
    api_key: Type.Optional(Text(255, { minLength: 1, description: 'Only events about this key (`key_...`).' })),
    created: Type.Optional(CreatedFilter),
  },
  { additionalProperties: false },
);
export type ListAuditEventsQuery = Static<typeof ListAuditEventsQuery>;
