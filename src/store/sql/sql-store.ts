import type {
  AccountRecord,
  ApiKeyRecord,
  CustomerRecord,
  EventFilter,
  EventRecord,
  IdempotencyRecord,
  Page,
  PageQuery,
  PaymentFilter,
  PaymentRecord,
  Scope,
  WebhookAttemptFilter,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from '../records.js';
import type { ClaimResult, Store, WebhookEndpointPatch } from '../store.js';
import type { SqlDatabase, SqlExecutor, SqlValue } from './database.js';
import { pageClause, toPage } from './pagination.js';
import {
  API_KEY_COLUMNS,
  API_KEY_UPDATABLE,
  accountFromRow,
  apiKeyFromRow,
  apiKeyToRow,
  bool,
  CUSTOMER_COLUMNS,
  CUSTOMER_UPDATABLE,
  customerFromRow,
  customerToRow,
  EVENT_COLUMNS,
  eventFromRow,
  eventToRow,
  idempotencyFromRow,
  PAYMENT_COLUMNS,
  PAYMENT_UPDATABLE,
  paymentFromRow,
  paymentToRow,
  setClause,
} from './rows.js';
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
} from './webhook-rows.js';

type Row = Record<string, unknown>;
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const PAYMENT_INSERT = `INSERT INTO payments (${PAYMENT_COLUMNS}) VALUES (${placeholders(19)})`;

/** The Store, written once in SQL that both backends run. */
export class SqlStore implements Store {
  readonly backend: 'sqlite' | 'postgres';

  constructor(
    private readonly db: SqlDatabase,
    private readonly ex: SqlExecutor = db,
    private readonly inTransaction = false,
  ) {
    this.backend = db.dialect.name;
  }

  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    return this.db.transaction((ex) => fn(new SqlStore(this.db, ex, true)));
  }

  async ping(): Promise<void> {
    await this.ex.get('SELECT 1 AS ok');
  }

  close(): Promise<void> {
    return this.db.close();
  }

  // ---- accounts -----------------------------------------------------------------------------

  async insertAccount(a: AccountRecord): Promise<void> {
    await this.ex.run('INSERT INTO accounts (id, name, default_version, created) VALUES (?, ?, ?, ?)', [
      a.id,
      a.name,
      a.defaultVersion,
      a.created,
    ]);
  }

  async findAccountById(id: string): Promise<AccountRecord | undefined> {
    const row = await this.ex.get<Row>('SELECT id, name, default_version, created FROM accounts WHERE id = ?', [id]);
    return row && accountFromRow(row);
  }

  async countAccounts(): Promise<number> {
    const row = await this.ex.get<{ n: number }>('SELECT COUNT(*) AS n FROM accounts');
    return Number(row?.n ?? 0);
  }

  async updateAccount(id: string, patch: Partial<Pick<AccountRecord, 'name' | 'defaultVersion'>>): Promise<void> {
    const { sql, params } = setClause(patch, {
      name: ['name', (v) => v as string],
      defaultVersion: ['default_version', (v) => v as string],
    });
    if (sql) await this.ex.run(`UPDATE accounts SET ${sql} WHERE id = ?`, [...params, id]);
  }

  // ---- api keys -----------------------------------------------------------------------------

  async insertApiKey(k: ApiKeyRecord): Promise<void> {
    await this.ex.run(`INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES (${placeholders(13)})`, apiKeyToRow(k));
  }

  async findApiKeyByHash(secretHash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE secret_hash = ?`, [secretHash]);
    return row && apiKeyFromRow(row);
  }

  async findApiKeyById(accountId: string, id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE id = ? AND account_id = ?`, [id, accountId]);
    return row && apiKeyFromRow(row);
  }

  async listApiKeys(accountId: string, livemode?: boolean): Promise<ApiKeyRecord[]> {
    const rows =
      livemode === undefined
        ? await this.ex.all<Row>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY id DESC`, [accountId])
        : await this.ex.all<Row>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? AND livemode = ? ORDER BY id DESC`, [
            accountId,
            bool(livemode),
          ]);
    return rows.map(apiKeyFromRow);
  }

  async updateApiKey(id: string, patch: Partial<Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt' | 'lastUsedAt' | 'name'>>): Promise<void> {
    const { sql, params } = setClause(patch, API_KEY_UPDATABLE);
    if (sql) await this.ex.run(`UPDATE api_keys SET ${sql} WHERE id = ?`, [...params, id]);
  }

  // ---- customers ----------------------------------------------------------------------------

  async insertCustomer(c: CustomerRecord): Promise<void> {
    await this.ex.run(`INSERT INTO customers (${CUSTOMER_COLUMNS}) VALUES (${placeholders(9)})`, customerToRow(c));
  }

  async findCustomerById(scope: Scope, id: string): Promise<CustomerRecord | undefined> {
    const row = await this.ex.get<Row>(
      `SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE id = ? AND account_id = ? AND livemode = ? AND deleted_at IS NULL`,
      [id, scope.accountId, bool(scope.livemode)],
    );
    return row && customerFromRow(row);
  }

  async updateCustomer(
    scope: Scope,
    id: string,
    patch: Partial<Pick<CustomerRecord, 'email' | 'name' | 'description' | 'metadata' | 'deletedAt'>>,
  ): Promise<void> {
    const { sql, params } = setClause(patch, CUSTOMER_UPDATABLE);
    if (!sql) return;
    await this.ex.run(`UPDATE customers SET ${sql} WHERE id = ? AND account_id = ? AND livemode = ?`, [
      ...params,
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
  }

  async listCustomers(scope: Scope, page: PageQuery): Promise<Page<CustomerRecord>> {
    const clause = pageClause(page);
    const rows = await this.ex.all<Row>(
      `SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE account_id = ? AND livemode = ? AND deleted_at IS NULL${clause.where}${clause.order}`,
      [scope.accountId, bool(scope.livemode), ...clause.params],
    );
    return toPage(rows.map(customerFromRow), page.limit, clause.reversed);
  }

  // ---- payments -----------------------------------------------------------------------------

  async insertPayment(p: PaymentRecord): Promise<void> {
    await this.ex.run(PAYMENT_INSERT, paymentToRow(p));
  }

  async bulkInsertPayments(payments: PaymentRecord[]): Promise<void> {
    const perStatement = 100;
    for (let i = 0; i < payments.length; i += perStatement) {
      const chunk = payments.slice(i, i + perStatement);
      const values = chunk.map(() => `(${placeholders(19)})`).join(', ');
      await this.ex.run(`INSERT INTO payments (${PAYMENT_COLUMNS}) VALUES ${values}`, chunk.flatMap(paymentToRow));
    }
  }

  async findPaymentById(scope: Scope, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentRecord | undefined> {
    const lock = options.forUpdate ? this.db.dialect.forUpdate : '';
    const row = await this.ex.get<Row>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = ? AND account_id = ? AND livemode = ?${lock}`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && paymentFromRow(row);
  }

  async updatePayment(
    scope: Scope,
    id: string,
    patch: Partial<Omit<PaymentRecord, 'id' | 'accountId' | 'livemode' | 'created'>>,
  ): Promise<void> {
    const { sql, params } = setClause(patch, PAYMENT_UPDATABLE);
    if (!sql) return;
    await this.ex.run(`UPDATE payments SET ${sql} WHERE id = ? AND account_id = ? AND livemode = ?`, [
      ...params,
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
  }

  async listPayments(scope: Scope, filter: PaymentFilter, page: PageQuery): Promise<Page<PaymentRecord>> {
    const clause = pageClause(page);
    let where = 'account_id = ? AND livemode = ?';
    const params: SqlValue[] = [scope.accountId, bool(scope.livemode)];
    if (filter.customerId !== undefined) {
      where += ' AND customer_id = ?';
      params.push(filter.customerId);
    }
    if (filter.status !== undefined) {
      where += ' AND status = ?';
      params.push(filter.status);
    }
    const rows = await this.ex.all<Row>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE ${where}${clause.where}${clause.order}`, [
      ...params,
      ...clause.params,
    ]);
    return toPage(rows.map(paymentFromRow), page.limit, clause.reversed);
  }

  async objectExistsInOtherMode(scope: Scope, table: 'customers' | 'payments', id: string): Promise<boolean> {
    const row = await this.ex.get(`SELECT 1 AS found FROM ${table} WHERE id = ? AND account_id = ? AND livemode = ?`, [
      id,
      scope.accountId,
      bool(!scope.livemode),
    ]);
    return row !== undefined;
  }

  // ---- events -------------------------------------------------------------------------------

  async insertEvent(e: EventRecord): Promise<void> {
    await this.ex.run(`INSERT INTO events (${EVENT_COLUMNS}) VALUES (${placeholders(7)})`, eventToRow(e));
  }

  async findEventById(scope: Scope, id: string): Promise<EventRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ? AND account_id = ? AND livemode = ?`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && eventFromRow(row);
  }

  async listEvents(scope: Scope, filter: EventFilter, page: PageQuery): Promise<Page<EventRecord>> {
    const clause = pageClause(page);
    let where = 'account_id = ? AND livemode = ?';
    const params: SqlValue[] = [scope.accountId, bool(scope.livemode)];
    if (filter.type !== undefined) {
      where += ' AND type = ?';
      params.push(filter.type);
    }
    const rows = await this.ex.all<Row>(`SELECT ${EVENT_COLUMNS} FROM events WHERE ${where}${clause.where}${clause.order}`, [
      ...params,
      ...clause.params,
    ]);
    return toPage(rows.map(eventFromRow), page.limit, clause.reversed);
  }

  async listEventsAfter(afterId: string, limit: number): Promise<EventRecord[]> {
    const rows = await this.ex.all<Row>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id > ? ORDER BY id ASC LIMIT ?`, [afterId, limit]);
    return rows.map(eventFromRow);
  }

  // ---- webhook endpoints --------------------------------------------------------------------

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
    await this.transaction(async (tx) => {
      const ex = (tx as SqlStore).ex;
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
    return this.transaction(async (tx) => {
      const ex = (tx as SqlStore).ex;
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

  // ---- webhook delivery outbox --------------------------------------------------------------

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

  // ---- webhook attempts ---------------------------------------------------------------------

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

  // ---- idempotency --------------------------------------------------------------------------

  async claimIdempotencyKey(r: IdempotencyRecord, staleBefore: number): Promise<ClaimResult> {
    return this.transaction(async (tx) => {
      const ex = (tx as SqlStore).ex;
      const inserted = await ex.run(
        `INSERT INTO idempotency_keys (account_id, livemode, idem_key, method, path, request_hash, state, created, locked_at)
         VALUES (?, ?, ?, ?, ?, ?, 'in_progress', ?, ?) ON CONFLICT DO NOTHING`,
        [r.accountId, bool(r.livemode), r.key, r.method, r.path, r.requestHash, r.created, r.lockedAt],
      );
      if (inserted === 1) return { claimed: true, record: r };
      const row = await ex.get<Row>(
        `SELECT * FROM idempotency_keys WHERE account_id = ? AND livemode = ? AND idem_key = ?${this.db.dialect.forUpdate}`,
        [r.accountId, bool(r.livemode), r.key],
      );
      if (!row) throw new Error('idempotency key vanished during claim');
      const existing = idempotencyFromRow(row);
      // A claim whose process died before finishing leaves no result; after a while it may be retaken.
      const sameRequest = existing.method === r.method && existing.path === r.path && existing.requestHash === r.requestHash;
      if (existing.state === 'in_progress' && existing.lockedAt < staleBefore && sameRequest) {
        await ex.run('UPDATE idempotency_keys SET locked_at = ? WHERE account_id = ? AND livemode = ? AND idem_key = ?', [
          r.lockedAt,
          r.accountId,
          bool(r.livemode),
          r.key,
        ]);
        return { claimed: true, record: { ...existing, lockedAt: r.lockedAt } };
      }
      return { claimed: false, record: existing };
    });
  }

  async completeIdempotencyKey(scope: Scope, key: string, status: number, body: string): Promise<void> {
    await this.ex.run(
      `UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ?
       WHERE account_id = ? AND livemode = ? AND idem_key = ?`,
      [status, body, scope.accountId, bool(scope.livemode), key],
    );
  }

  async releaseIdempotencyKey(scope: Scope, key: string): Promise<void> {
    await this.ex.run(`DELETE FROM idempotency_keys WHERE account_id = ? AND livemode = ? AND idem_key = ? AND state = 'in_progress'`, [
      scope.accountId,
      bool(scope.livemode),
      key,
    ]);
  }

  async purgeIdempotencyKeys(createdBefore: number): Promise<number> {
    return this.ex.run('DELETE FROM idempotency_keys WHERE created < ?', [createdBefore]);
  }
}
