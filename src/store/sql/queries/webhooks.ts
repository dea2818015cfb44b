import type {
  Page,
  PageQuery,
  Scope,
  WebhookAttemptFilter,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from '../../records.js';
import type { WebhookEndpointPatch } from '../../store.js';
import { bool } from '../rows.js';
import {
  WEBHOOK_ATTEMPT_COLUMNS,
  WEBHOOK_DELIVERY_COLUMNS,
  WEBHOOK_ENDPOINT_COLUMNS,
  WEBHOOK_ENDPOINT_UPDATABLE,
  webhookAttemptFromRow,
  webhookAttemptToRow,
  webhookDeliveryFromRow,
  webhookDeliveryToRow,
  webhookEndpointFromRow,
  webhookEndpointToRow,
} from '../webhook-rows.js';
import { placeholders, type Row, type ScopedTable, SqlBase } from '../sql-base.js';

const ENDPOINTS: ScopedTable<WebhookEndpointRecord> = {
  name: 'webhook_endpoints',
  columns: WEBHOOK_ENDPOINT_COLUMNS,
  fromRow: webhookEndpointFromRow,
};
const ATTEMPTS: ScopedTable<WebhookAttemptRecord> = {
  name: 'webhook_attempts',
  columns: WEBHOOK_ATTEMPT_COLUMNS,
  fromRow: webhookAttemptFromRow,
};

/** Webhook endpoints, the delivery outbox and the attempts. */
export abstract class WebhookQueries extends SqlBase {
  async insertWebhookEndpoint(e: WebhookEndpointRecord): Promise<void> {
    await this.ex.run(`INSERT INTO webhook_endpoints (${WEBHOOK_ENDPOINT_COLUMNS}) VALUES (${placeholders(14)})`, webhookEndpointToRow(e));
  }

  findWebhookEndpointById(scope: Scope, id: string, options: { forUpdate?: boolean } = {}): Promise<WebhookEndpointRecord | undefined> {
    return this.findInScope(ENDPOINTS, scope, id, options.forUpdate);
  }

  updateWebhookEndpoint(scope: Scope, id: string, patch: WebhookEndpointPatch): Promise<void> {
    return this.updateInScope('webhook_endpoints', scope, id, patch, WEBHOOK_ENDPOINT_UPDATABLE);
  }

  async deleteWebhookEndpoint(scope: Scope, id: string): Promise<void> {
    await this.withTransaction(async (ex) => {
      const deleted = await ex.run('DELETE FROM webhook_endpoints WHERE id = ? AND account_id = ? AND livemode = ?', [
        id,
        scope.accountId,
        bool(scope.livemode),
      ]);
      if (deleted === 0) return;
      await ex.run('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', [id]);
      await ex.run('DELETE FROM webhook_attempts WHERE endpoint_id = ?', [id]);
    });
  }

  listWebhookEndpoints(scope: Scope, page: PageQuery): Promise<Page<WebhookEndpointRecord>> {
    return this.listInScope(ENDPOINTS, scope, {}, page);
  }

  async listEnabledWebhookEndpoints(scope: Scope): Promise<Pick<WebhookEndpointRecord, 'id' | 'enabledEvents'>[]> {
    const rows = await this.ex.all<{ id: string; enabled_events: string }>(
      `SELECT id, enabled_events FROM webhook_endpoints WHERE account_id = ? AND livemode = ? AND status = 'enabled'`,
      [scope.accountId, bool(scope.livemode)],
    );
    return rows.map((r) => ({ id: r.id, enabledEvents: JSON.parse(r.enabled_events) as string[] }));
  }

  async recordWebhookEndpointOutcome(id: string, succeeded: boolean, nowMs: number): Promise<WebhookEndpointRecord | undefined> {
    return this.withTransaction(async (ex) => {
      if (succeeded) {
        await ex.run('UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL WHERE id = ?', [id]);
      } else {
        await ex.run(
          'UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, failing_since = COALESCE(failing_since, ?) WHERE id = ?',
          [nowMs, id],
        );
      }
      const row = await ex.get<Row>(`SELECT ${WEBHOOK_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`, [id]);
      return row && webhookEndpointFromRow(row);
    });
  }

  // ---- webhook delivery outbox ----------------------------------------------------------------

  async insertWebhookDelivery(d: WebhookDeliveryRecord): Promise<void> {
    await this.ex.run(`INSERT INTO webhook_deliveries (${WEBHOOK_DELIVERY_COLUMNS}) VALUES (${placeholders(12)})`, webhookDeliveryToRow(d));
  }

  async findDueWebhookDeliveryIds(nowMs: number, limit: number): Promise<string[]> {
    const rows = await this.ex.all<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
       ORDER BY next_attempt_at ASC LIMIT ?`,
      [nowMs, nowMs, limit],
    );
    return rows.map((r) => r.id);
  }

  async leaseWebhookDelivery(id: string, nowMs: number, leaseUntil: number, token: string): Promise<boolean> {
    // A conditional UPDATE is the claim: on PostgreSQL a concurrent one waits for the row lock and
    // then re-checks the condition against the committed lease, so exactly one worker wins.
    const changed = await this.ex.run(
      `UPDATE webhook_deliveries SET lease_until = ?, lease_token = ?
       WHERE id = ? AND status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)`,
      [leaseUntil, token, id, nowMs, nowMs],
    );
    return changed === 1;
  }

  async findWebhookDeliveryById(id: string): Promise<WebhookDeliveryRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${WEBHOOK_DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`, [id]);
    return row && webhookDeliveryFromRow(row);
  }

  async finishWebhookDeliveryAttempt(
    id: string,
    token: string,
    patch: Pick<WebhookDeliveryRecord, 'status' | 'attempts' | 'nextAttemptAt' | 'firstAttemptedAt'>,
  ): Promise<boolean> {
    const changed = await this.ex.run(
      `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, first_attempted_at = ?, lease_until = NULL, lease_token = NULL
       WHERE id = ? AND lease_token = ?`,
      [patch.status, patch.attempts, patch.nextAttemptAt, patch.firstAttemptedAt, id, token],
    );
    return changed === 1;
  }

  async cancelWebhookDeliveries(endpointId: string): Promise<number> {
    return this.ex.run(
      `UPDATE webhook_deliveries SET status = 'canceled', lease_until = NULL, lease_token = NULL WHERE endpoint_id = ? AND status = 'pending'`,
      [endpointId],
    );
  }

  async countPendingWebhookDeliveries(eventIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (eventIds.length === 0) return counts;
    const rows = await this.ex.all<{ event_id: string; n: number }>(
      `SELECT event_id, COUNT(*) AS n FROM webhook_deliveries WHERE event_id IN (${placeholders(eventIds.length)}) AND status = 'pending'
       GROUP BY event_id`,
      eventIds,
    );
    for (const r of rows) counts.set(r.event_id, Number(r.n));
    return counts;
  }

  // ---- webhook attempts -----------------------------------------------------------------------

  async insertWebhookAttempt(a: WebhookAttemptRecord): Promise<void> {
    await this.ex.run(`INSERT INTO webhook_attempts (${WEBHOOK_ATTEMPT_COLUMNS}) VALUES (${placeholders(14)})`, webhookAttemptToRow(a));
  }

  findWebhookAttemptById(scope: Scope, id: string): Promise<WebhookAttemptRecord | undefined> {
    return this.findInScope(ATTEMPTS, scope, id);
  }

  listWebhookAttempts(
    scope: Scope,
    endpointId: string,
    filter: WebhookAttemptFilter,
    page: PageQuery,
  ): Promise<Page<WebhookAttemptRecord>> {
    return this.listInScope(ATTEMPTS, scope, { endpoint_id: endpointId, event_id: filter.eventId }, page);
  }
}
