import { type Static, Type } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../domain/events/events.js';
import { ALL_EVENTS } from '../../domain/webhooks/enqueue.js';
import { WEBHOOK_URL_MAX_LENGTH } from '../../domain/webhooks/url-policy.js';
import { ListOf, ListQueryProperties, Metadata, MetadataUpdate, Nullable, ObjectId, StringEnum, Text } from './common.js';

const EnabledEvents = Type.Array(StringEnum([ALL_EVENTS, ...EVENT_TYPES]), {
  minItems: 1,
  maxItems: 100,
  description: 'Event types to send, or `["*"]` for all.',
});

const Url = Text(WEBHOOK_URL_MAX_LENGTH, {
  minLength: 1,
  description: 'Where events are POSTed. Live mode: https:// to a public host; test mode may use http:// and loopback.',
});

export const WebhookEndpoint = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('webhook_endpoint'),
    url: Type.String(),
    enabled_events: Type.Array(Type.String()),
    status: StringEnum(['enabled', 'disabled'] as const),
    disabled_reason: Nullable(
      StringEnum(['requested', 'failing'] as const, {
        description: '`requested` through the API, or `failing`: every delivery attempt failed for 3 days.',
      }),
    ),
    disabled_at: Nullable(Type.Integer()),
    description: Nullable(Type.String()),
    metadata: Type.Record(Type.String(), Type.String()),
    livemode: Type.Boolean(),
    created: Type.Integer(),
    secret: Type.Optional(
      Type.String({
        description: 'The signing secret (`whsec_...`), the HMAC-SHA256 key. Only in the response that creates the endpoint.',
      }),
    ),
  },
  { $id: 'WebhookEndpoint', additionalProperties: false },
);

export const DeletedWebhookEndpoint = Type.Object(
  { id: Type.String(), object: Type.Literal('webhook_endpoint'), deleted: Type.Literal(true) },
  { $id: 'DeletedWebhookEndpoint', additionalProperties: false },
);

export const WebhookEndpointList = ListOf('WebhookEndpointList', Type.Ref('WebhookEndpoint'), '/v1/webhook_endpoints');

export const WebhookAttempt = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('webhook_attempt'),
    webhook_endpoint: Type.String(),
    event: Type.String(),
    event_type: Type.String(),
    attempt: Type.Integer({ description: '1 for the first try of this event at this endpoint.' }),
    succeeded: Type.Boolean(),
    status_code: Nullable(Type.Integer({ description: 'The endpoint’s HTTP status; null when no response arrived.' })),
    error: Nullable(Type.String({ description: 'Why the attempt failed: an HTTP status, a timeout, a connection error.' })),
    duration_ms: Type.Integer(),
    created: Type.Integer({ description: 'When the attempt started (Unix seconds).' }),
    next_attempt_at: Nullable(Type.Integer({ description: 'When the next retry is due; null when none follows.' })),
    livemode: Type.Boolean(),
  },
  { $id: 'WebhookAttempt', additionalProperties: false },
);

export const WebhookAttemptList = ListOf('WebhookAttemptList', Type.Ref('WebhookAttempt'), '/v1/webhook_endpoints/we_.../attempts');

export const CreateWebhookEndpointBody = Type.Object(
  {
    url: Url,
    enabled_events: EnabledEvents,
    description: Type.Optional(Text(1000)),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateWebhookEndpointBody = Static<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    enabled_events: Type.Optional(EnabledEvents),
    status: Type.Optional(StringEnum(['enabled', 'disabled'] as const, { description: '`enabled` re-enables a disabled endpoint.' })),
    description: Type.Optional(Nullable(Text(1000))),
    metadata: Type.Optional(MetadataUpdate),
  },
  { additionalProperties: false },
);
export type UpdateWebhookEndpointBody = Static<typeof UpdateWebhookEndpointBody>;

export const ListWebhookEndpointsQuery = Type.Object({ ...ListQueryProperties }, { additionalProperties: false });
export type ListWebhookEndpointsQuery = Static<typeof ListWebhookEndpointsQuery>;

export const ListWebhookAttemptsQuery = Type.Object(
  { ...ListQueryProperties, event: Type.Optional(ObjectId('evt')) },
  { additionalProperties: false },
);
export type ListWebhookAttemptsQuery = Static<typeof ListWebhookAttemptsQuery>;
