import type { WebhookAttemptRecord, WebhookDeliveryRecord, WebhookEndpointRecord } from '../records.js';
import type { SqlValue } from './database.js';
import { bool } from './rows.js';

/** Row mapping for webhook endpoints, the delivery outbox and attempts (see rows.ts for the conventions). */

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export const WEBHOOK_ENDPOINT_COLUMNS =
  'id, account_id, livemode, url, enabled_events, status, disabled_reason, disabled_at, secret, description, metadata, consecutive_failures, failing_since, created';

export function webhookEndpointToRow(e: WebhookEndpointRecord): SqlValue[] {
  return [
    e.id,
    e.accountId,
    bool(e.livemode),
    e.url,
    JSON.stringify(e.enabledEvents),
    e.status,
    e.disabledReason,
    e.disabledAt,
    e.secret,
    e.description,
    JSON.stringify(e.metadata),
    e.consecutiveFailures,
    e.failingSince,
    e.created,
  ];
}

export function webhookEndpointFromRow(r: Row): WebhookEndpointRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: num(r.livemode) === 1,
    url: r.url as string,
    enabledEvents: JSON.parse(r.enabled_events as string) as string[],
    status: r.status as WebhookEndpointRecord['status'],
    disabledReason: (r.disabled_reason as WebhookEndpointRecord['disabledReason']) ?? null,
    disabledAt: numOrNull(r.disabled_at),
    secret: r.secret as string,
    description: (r.description as string | null) ?? null,
    metadata: JSON.parse(r.metadata as string) as Record<string, string>,
    consecutiveFailures: num(r.consecutive_failures),
    failingSince: numOrNull(r.failing_since),
    created: num(r.created),
  };
}

export const WEBHOOK_ENDPOINT_UPDATABLE: Record<string, [string, (v: unknown) => SqlValue]> = {
  url: ['url', (v) => v as string],
  enabledEvents: ['enabled_events', (v) => JSON.stringify(v)],
  status: ['status', (v) => v as string],
  disabledReason: ['disabled_reason', (v) => v as string | null],
  disabledAt: ['disabled_at', (v) => v as number | null],
  description: ['description', (v) => v as string | null],
  metadata: ['metadata', (v) => JSON.stringify(v)],
  consecutiveFailures: ['consecutive_failures', (v) => v as number],
  failingSince: ['failing_since', (v) => v as number | null],
};

export const WEBHOOK_DELIVERY_COLUMNS =
  'id, account_id, livemode, endpoint_id, event_id, status, attempts, next_attempt_at, first_attempted_at, lease_until, lease_token, created';

export function webhookDeliveryToRow(d: WebhookDeliveryRecord): SqlValue[] {
  return [
    d.id,
    d.accountId,
    bool(d.livemode),
    d.endpointId,
    d.eventId,
    d.status,
    d.attempts,
    d.nextAttemptAt,
    d.firstAttemptedAt,
    d.leaseUntil,
    d.leaseToken,
    d.created,
  ];
}

export function webhookDeliveryFromRow(r: Row): WebhookDeliveryRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: num(r.livemode) === 1,
    endpointId: r.endpoint_id as string,
    eventId: r.event_id as string,
    status: r.status as WebhookDeliveryRecord['status'],
    attempts: num(r.attempts),
    nextAttemptAt: num(r.next_attempt_at),
    firstAttemptedAt: numOrNull(r.first_attempted_at),
    leaseUntil: numOrNull(r.lease_until),
    leaseToken: (r.lease_token as string | null) ?? null,
    created: num(r.created),
  };
}

export const WEBHOOK_ATTEMPT_COLUMNS =
  'id, account_id, livemode, endpoint_id, delivery_id, event_id, event_type, attempt, succeeded, status_code, error, duration_ms, created, next_attempt_at';

export function webhookAttemptToRow(a: WebhookAttemptRecord): SqlValue[] {
  return [
    a.id,
    a.accountId,
    bool(a.livemode),
    a.endpointId,
    a.deliveryId,
    a.eventId,
    a.eventType,
    a.attempt,
    bool(a.succeeded),
    a.statusCode,
    a.error,
    a.durationMs,
    a.created,
    a.nextAttemptAt,
  ];
}

export function webhookAttemptFromRow(r: Row): WebhookAttemptRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: num(r.livemode) === 1,
    endpointId: r.endpoint_id as string,
    deliveryId: r.delivery_id as string,
    eventId: r.event_id as string,
    eventType: r.event_type as string,
    attempt: num(r.attempt),
    succeeded: num(r.succeeded) === 1,
    statusCode: numOrNull(r.status_code),
    error: (r.error as string | null) ?? null,
    durationMs: num(r.duration_ms),
    created: num(r.created),
    nextAttemptAt: numOrNull(r.next_attempt_at),
  };
}
