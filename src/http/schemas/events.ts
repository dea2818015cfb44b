import { type Static, Type } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../domain/events/events.js';
import { CreatedFilter, ListOf, ListQueryProperties, Nullable, StringEnum } from './common.js';

export const Event = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('event'),
    type: StringEnum(EVENT_TYPES),
    data: Type.Object({ object: Type.Object({}, { additionalProperties: true }) }),
    request: Nullable(Type.Object({ id: Type.String() })),
    created: Type.Integer(),
    livemode: Type.Boolean(),
    pending_webhooks: Type.Optional(
      Type.Integer({
        description: 'Webhook deliveries of this event still to be made (not yet succeeded, not given up). Not in webhook bodies.',
      }),
    ),
  },
  { $id: 'Event', additionalProperties: false },
);

export const EventList = ListOf('EventList', Type.Ref('Event'), '/v1/events');

export const ListEventsQuery = Type.Object(
  { ...ListQueryProperties, type: Type.Optional(StringEnum(EVENT_TYPES)), created: Type.Optional(CreatedFilter) },
  { additionalProperties: false },
);
export type ListEventsQuery = Static<typeof ListEventsQuery>;
