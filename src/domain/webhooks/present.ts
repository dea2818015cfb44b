import type { Metadata, WebhookAttemptRecord, WebhookEndpointRecord } from '../../store/records.js';

export interface WebhookEndpointObject {
  id: string;
  object: 'webhook_endpoint';
  url: string;
  enabled_events: string[];
  status: 'enabled' | 'disabled';
  disabled_reason: 'requested' | 'failing' | null;
  disabled_at: number | null;
  description: string | null;
  metadata: Metadata;
  livemode: boolean;
  created: number;
  /** Only in the response that creates the endpoint. */
  secret?: string;
}

export function presentWebhookEndpoint(e: WebhookEndpointRecord, options: { withSecret?: boolean } = {}): WebhookEndpointObject {
  const object: WebhookEndpointObject = {
    id: e.id,
    object: 'webhook_endpoint',
    url: e.url,
    enabled_events: e.enabledEvents,
    status: e.status,
    disabled_reason: e.disabledReason,
    disabled_at: e.disabledAt,
    description: e.description,
    metadata: e.metadata,
    livemode: e.livemode,
    created: e.created,
  };
  if (options.withSecret) object.secret = e.secret;
  return object;
}

export interface WebhookAttemptObject {
  id: string;
  object: 'webhook_attempt';
  webhook_endpoint: string;
  event: string;
  event_type: string;
  attempt: number;
  succeeded: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created: number;
  next_attempt_at: number | null;
  livemode: boolean;
}

export function presentWebhookAttempt(a: WebhookAttemptRecord): WebhookAttemptObject {
  return {
    id: a.id,
    object: 'webhook_attempt',
    webhook_endpoint: a.endpointId,
    event: a.eventId,
    event_type: a.eventType,
    attempt: a.attempt,
    succeeded: a.succeeded,
    status_code: a.statusCode,
    error: a.error,
    duration_ms: a.durationMs,
    created: a.created,
    next_attempt_at: a.nextAttemptAt,
    livemode: a.livemode,
  };
}
