import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type { HttpPost } from '../../lib/http-post.js';
import { newId } from '../../lib/ids.js';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { seconds } from '../context.js';
import { presentEvent, recordEvent } from '../events/events.js';
import { presentWebhookEndpoint } from './present.js';
import { isSuccessStatus, nextAttemptAt, shouldDisable } from './schedule.js';
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';
import { isForbiddenAddress } from './url-policy.js';

export interface DeliveryOptions {
  /** Per-request timeout. */
  timeoutMs?: number;
  /** How long a claimed delivery stays out of other workers' reach; must exceed the timeout. */
  leaseMs?: number;
  /** Deliveries claimed per run. */
  batchSize?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** Sends a request despite it being to a private address (never set in production). */
  allowPrivateLiveAddresses?: boolean;
}

export interface DeliveryReport {
  /** Requests sent. */
  attempted: number;
  succeeded: number;
  failed: number;
  /** Deliveries dropped because their endpoint was disabled or deleted. */
  canceled: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
const USER_AGENT = 'payments-service-webhooks/1.0';

class LeaseLost extends Error {}

/**
 * Sends every due delivery once. Safe to run from several workers or instances at once: each
 * delivery is claimed with a lease (a conditional UPDATE), so no two send the same attempt.
 */
export async function deliverDueWebhooks(
  store: Store,
  clock: Clock,
  post: HttpPost,
  options: DeliveryOptions = {},
): Promise<DeliveryReport> {
  const report: DeliveryReport = { attempted: 0, succeeded: 0, failed: 0, canceled: 0 };
  const ids = await store.findDueWebhookDeliveryIds(clock.now(), options.batchSize ?? 100);
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const id = ids[next++] as string;
      const outcome = await deliverOne(store, clock, post, id, options);
      if (outcome !== 'skipped') report[outcome]++;
      if (outcome === 'succeeded' || outcome === 'failed') report.attempted++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, ids.length) }, lane));
  return report;
}

type Outcome = 'succeeded' | 'failed' | 'canceled' | 'skipped';

async function deliverOne(store: Store, clock: Clock, post: HttpPost, id: string, options: DeliveryOptions): Promise<Outcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const leasedAt = clock.now();
  const token = randomUUID();
  if (!(await store.leaseWebhookDelivery(id, leasedAt, leasedAt + (options.leaseMs ?? timeoutMs * 3 + 30_000), token))) return 'skipped';
  const delivery = await store.findWebhookDeliveryById(id);
  if (!delivery) return 'skipped';
  const scope = { accountId: delivery.accountId, livemode: delivery.livemode };
  const [endpoint, event] = await Promise.all([
    store.findWebhookEndpointById(scope, delivery.endpointId),
    store.findEventById(scope, delivery.eventId),
  ]);
  if (!endpoint || endpoint.status !== 'enabled' || !event) {
    await store.finishWebhookDeliveryAttempt(id, token, { ...delivery, status: 'canceled' });
    return 'canceled';
  }

  const body = JSON.stringify(presentEvent(event));
  const startedAt = clock.now();
  const result = await post({
    url: endpoint.url,
    body,
    timeoutMs,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': USER_AGENT,
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(endpoint.secret, seconds(startedAt), body),
    },
    ...(delivery.livemode && !options.allowPrivateLiveAddresses ? { allowAddress: (a: string) => !isForbiddenAddress(a) } : {}),
  });
  const succeeded = isSuccessStatus(result.statusCode);
  const attempt = delivery.attempts + 1;
  const firstAttemptedAt = delivery.firstAttemptedAt ?? startedAt;
  const retryAt = succeeded ? null : nextAttemptAt(attempt, firstAttemptedAt, startedAt, (options.random ?? Math.random)());
  const error = succeeded ? null : (result.error ?? `HTTP ${result.statusCode}`);

  try {
    await store.transaction(async (tx) => {
      // Lock order everywhere: endpoint row, then its deliveries.
      const health = await tx.recordWebhookEndpointOutcome(endpoint.id, succeeded, startedAt);
      const status = succeeded ? 'succeeded' : retryAt === null ? 'failed' : 'pending';
      const kept = await tx.finishWebhookDeliveryAttempt(id, token, {
        status,
        attempts: attempt,
        nextAttemptAt: retryAt ?? delivery.nextAttemptAt,
        firstAttemptedAt,
      });
      if (!kept || !health) throw new LeaseLost();
      await tx.insertWebhookAttempt({
        id: newId('wha', startedAt),
        accountId: delivery.accountId,
        livemode: delivery.livemode,
        endpointId: endpoint.id,
        deliveryId: id,
        eventId: event.id,
        eventType: event.type,
        attempt,
        succeeded,
        statusCode: result.statusCode,
        error,
        durationMs: result.durationMs,
        created: seconds(startedAt),
        nextAttemptAt: retryAt === null ? null : seconds(retryAt),
      });
      if (!succeeded && health.status === 'enabled' && shouldDisable(health.failingSince, startedAt)) {
        await disableFailingEndpoint(tx, health, delivery, clock.now());
      }
    });
  } catch (err) {
    // The row was deleted with its endpoint, or (after a stall longer than the lease) taken over.
    if (err instanceof LeaseLost) return 'skipped';
    throw err;
  }
  return succeeded ? 'succeeded' : 'failed';
}

async function disableFailingEndpoint(tx: Store, endpoint: WebhookEndpointRecord, delivery: WebhookDeliveryRecord, nowMs: number) {
  const scope = { accountId: delivery.accountId, livemode: delivery.livemode };
  const disabled: WebhookEndpointRecord = { ...endpoint, status: 'disabled', disabledReason: 'failing', disabledAt: seconds(nowMs) };
  await tx.updateWebhookEndpoint(scope, endpoint.id, { status: 'disabled', disabledReason: 'failing', disabledAt: disabled.disabledAt });
  await tx.cancelWebhookDeliveries(endpoint.id);
  // Recorded after the endpoint is disabled, so it goes to the account's other endpoints only.
  await recordEvent(tx, { scope, nowMs }, 'webhook_endpoint.disabled', presentWebhookEndpoint(disabled));
}
