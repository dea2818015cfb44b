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
import type { SqlValue } from '../database.js';
import { pageClause, toPage } from '../pagination.js';
import { bool, setClause } from '../rows.js';
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
import { SqlBase, type Row, placeholders } from '../sql-base.js';

/** Webhook endpoints, the delivery outbox and the attempts. */
export abstract class WebhookQueries extends SqlBase {
  async insertWebhookEndpoint(e: WebhookEndpointRecord): Promise<void> {
    await this.ex.run(`INSERT INTO webhook_endpoints (${WEBHOOK_ENDPOINT_COLUMNS}) VALUES (${placeholders(14)})`, webhookEndpointToRow(e));
  }

  async findWebhookEndpointById(
    scope: Scope,
    id: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<WebhookEndpointRecord | undefined> {
    const lock = options.forUpdate ? this.db.dialect.forUpdate : '';
    const row = await this.ex.get<Row>(
      `SELECT ${WEBHOOK_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ? AND account_id = ? AND livemode = ?${lock}`,
      [id, scope.accountId, bool(scope.livemode)],
    );
    return row && webhookEndpointFromRow(row);
  }

  async updateWebhookEndpoint(scope: Scope, id: string, patch: WebhookEndpointPatch): Promise<void> {
    const { sql, params } = setClause(patch, WEBHOOK_ENDPOINT_UPDATABLE);
    if (!sql) return;
    await this.ex.run(`UPDATE webhook_endpoints SET ${sql} WHERE id = ? AND account_id = ? AND livemode = ?`, [
      ...params,
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
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

  async listWebhookEndpoints(scope: Scope, page: PageQuery): Promise<Page<WebhookEndpointRecord>> {
    const clause = pageClause(page);
    const rows = await this.ex.all<Row>(
      `SELECT ${WEBHOOK_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE account_id = ? AND livemode = ?${clause.where}${clause.order}`,
      [scope.accountId, bool(scope.livemode), ...clause.params],
    );
    return toPage(rows.map(webhookEndpointFromRow), page.limit, clause.reversed);
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

  async findWebhookAttemptById(scope: Scope, id: string): Promise<WebhookAttemptRecord | undefined> {
    const row = await this.ex.get<Row>(
      `SELECT ${WEBHOOK_ATTEMPT_COLUMNS} FROM webhook_attempts WHERE id = ? AND account_id = ? AND livemode = ?`,
      [id, scope.accountId, bool(scope.livemode)],
    );
    return row && webhookAttemptFromRow(row);
  }

  async listWebhookAttempts(
    scope: Scope,
    endpointId: string,
    filter: WebhookAttemptFilter,
    page: PageQuery,
  ): Promise<Page<WebhookAttemptRecord>> {
    const clause = pageClause(page);
    let where = 'endpoint_id = ? AND account_id = ? AND livemode = ?';
    const params: SqlValue[] = [endpointId, scope.accountId, bool(scope.livemode)];
    if (filter.eventId !== undefined) {
      where += ' AND event_id = ?';
      params.push(filter.eventId);
    }
    const rows = await this.ex.all<Row>(
      `SELECT ${WEBHOOK_ATTEMPT_COLUMNS} FROM webhook_attempts WHERE ${where}${clause.where}${clause.order}`,
      [...params, ...clause.params],
    );
    return toPage(rows.map(webhookAttemptFromRow), page.limit, clause.reversed);
  }
}
