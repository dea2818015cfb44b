import type {
  AccountRecord,
  ApiKeyRecord,
  AuditChainHead,
  AuditEventFilter,
  AuditEventRecord,
  AuditRetentionMark,
  CardRecord,
  CustomerRecord,
  EventFilter,
  EventRecord,
  IdempotencyRecord,
  Page,
  PageQuery,
  PaymentFilter,
  PaymentRecord,
  ProcessorOperationRecord,
  RefundFilter,
  RefundRecord,
  Scope,
  SimulatedOperationRecord,
  TokenRecord,
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
  AUDIT_EVENT_COLUMNS,
  accountFromRow,
  apiKeyFromRow,
  apiKeyToRow,
  auditEventFromRow,
  auditEventToRow,
  bool,
  CARD_COLUMNS,
  CUSTOMER_COLUMNS,
  CUSTOMER_UPDATABLE,
  cardFromRow,
  cardToRow,
  customerFromRow,
  customerToRow,
  EVENT_COLUMNS,
  eventFromRow,
  eventToRow,
  idempotencyFromRow,
  PAYMENT_COLUMN_COUNT,
  PAYMENT_COLUMNS,
  PAYMENT_UPDATABLE,
  PROCESSOR_OPERATION_COLUMNS,
  paymentFromRow,
  paymentToRow,
  processorOperationFromRow,
  processorOperationToRow,
  REFUND_COLUMNS,
  refundFromRow,
  refundToRow,
  setClause,
  TOKEN_COLUMNS,
  tokenFromRow,
  tokenToRow,
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
const PAYMENT_INSERT = `INSERT INTO payments (${PAYMENT_COLUMNS}) VALUES (${placeholders(PAYMENT_COLUMN_COUNT)})`;

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
    await this.ex.run(`INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES (${placeholders(14)})`, apiKeyToRow(k));
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

  async updateApiKey(
    id: string,
    patch: Partial<Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt' | 'lastUsedAt' | 'name' | 'note'>>,
  ): Promise<void> {
    const { sql, params } = setClause(patch, API_KEY_UPDATABLE);
    if (sql) await this.ex.run(`UPDATE api_keys SET ${sql} WHERE id = ?`, [...params, id]);
  }

  async listApiKeysPage(scope: Scope, page: PageQuery): Promise<Page<ApiKeyRecord>> {
    const clause = pageClause(page);
    const rows = await this.ex.all<Row>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? AND livemode = ?${clause.where}${clause.order}`,
      [scope.accountId, bool(scope.livemode), ...clause.params],
    );
    return toPage(rows.map(apiKeyFromRow), page.limit, clause.reversed);
  }

  async markApiKeyExpiryRecorded(id: string, at: number): Promise<boolean> {
    return (await this.ex.run('UPDATE api_keys SET expiry_recorded_at = ? WHERE id = ? AND expiry_recorded_at IS NULL', [at, id])) === 1;
  }

  async listExpiredUnrecordedApiKeys(nowSeconds: number, limit: number): Promise<ApiKeyRecord[]> {
    const rows = await this.ex.all<Row>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE expiry_recorded_at IS NULL AND expires_at <= ? ORDER BY expires_at, id LIMIT ?`,
      [nowSeconds, limit],
    );
    return rows.map(apiKeyFromRow);
  }

  async touchApiKey(id: string, at: number): Promise<void> {
    await this.ex.run('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)', [at, id, at]);
  }

  // ---- audit log ----------------------------------------------------------------------------

  async lockAuditChainHead(accountId: string, genesisHash: string): Promise<AuditChainHead> {
    const select = `SELECT seq, hash FROM audit_chain_heads WHERE account_id = ?${this.db.dialect.forUpdate}`;
    let row = await this.ex.get<{ seq: number; hash: string }>(select, [accountId]);
    if (!row) {
      await this.ex.run('INSERT INTO audit_chain_heads (account_id, seq, hash) VALUES (?, 0, ?) ON CONFLICT DO NOTHING', [
        accountId,
        genesisHash,
      ]);
      row = await this.ex.get<{ seq: number; hash: string }>(select, [accountId]);
      if (!row) throw new Error('audit chain head vanished');
    }
    return { accountId, seq: Number(row.seq), hash: row.hash };
  }

  async updateAuditChainHead(head: AuditChainHead): Promise<void> {
    await this.ex.run('UPDATE audit_chain_heads SET seq = ?, hash = ? WHERE account_id = ?', [head.seq, head.hash, head.accountId]);
  }

  async listAuditChainHeads(): Promise<AuditChainHead[]> {
    const rows = await this.ex.all<Row>('SELECT account_id, seq, hash FROM audit_chain_heads ORDER BY account_id');
    return rows.map((r) => ({ accountId: r.account_id as string, seq: Number(r.seq), hash: r.hash as string }));
  }

  async insertAuditEvents(events: AuditEventRecord[]): Promise<void> {
    const perStatement = 50;
    for (let i = 0; i < events.length; i += perStatement) {
      const chunk = events.slice(i, i + perStatement);
      const values = chunk.map(() => `(${placeholders(10)})`).join(', ');
      await this.ex.run(`INSERT INTO audit_events (${AUDIT_EVENT_COLUMNS}) VALUES ${values}`, chunk.flatMap(auditEventToRow));
    }
  }

  async findAuditEventById(scope: Scope, id: string): Promise<AuditEventRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_events WHERE id = ? AND account_id = ? AND livemode = ?`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && auditEventFromRow(row);
  }

  async listAuditEvents(scope: Scope, filter: AuditEventFilter, page: PageQuery): Promise<Page<AuditEventRecord>> {
    const clause = pageClause(page);
    let where = 'account_id = ? AND livemode = ?';
    const params: SqlValue[] = [scope.accountId, bool(scope.livemode)];
    if (filter.type !== undefined) {
      where += ' AND type = ?';
      params.push(filter.type);
    }
    if (filter.apiKeyId !== undefined) {
      where += ' AND api_key_id = ?';
      params.push(filter.apiKeyId);
    }
    const rows = await this.ex.all<Row>(`SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_events WHERE ${where}${clause.where}${clause.order}`, [
      ...params,
      ...clause.params,
    ]);
    return toPage(rows.map(auditEventFromRow), page.limit, clause.reversed);
  }

  async listAuditEventsBySeq(accountId: string, afterSeq: number, limit: number): Promise<AuditEventRecord[]> {
    const rows = await this.ex.all<Row>(
      `SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_events WHERE account_id = ? AND seq > ? ORDER BY seq ASC LIMIT ?`,
      [accountId, afterSeq, limit],
    );
    return rows.map(auditEventFromRow);
  }

  async findAuditRetention(accountId: string): Promise<AuditRetentionMark | undefined> {
    const r = await this.ex.get<Row>('SELECT * FROM audit_retention WHERE account_id = ?', [accountId]);
    return (
      r && {
        accountId,
        exportedThroughSeq: Number(r.exported_through_seq),
        exportedThroughHash: r.exported_through_hash as string,
        purgedThroughSeq: Number(r.purged_through_seq),
        purgedThroughHash: r.purged_through_hash as string,
      }
    );
  }

  async saveAuditRetention(m: AuditRetentionMark): Promise<void> {
    await this.ex.run(
      `INSERT INTO audit_retention (account_id, exported_through_seq, exported_through_hash, purged_through_seq, purged_through_hash)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET exported_through_seq = excluded.exported_through_seq,
         exported_through_hash = excluded.exported_through_hash, purged_through_seq = excluded.purged_through_seq,
         purged_through_hash = excluded.purged_through_hash`,
      [m.accountId, m.exportedThroughSeq, m.exportedThroughHash, m.purgedThroughSeq, m.purgedThroughHash],
    );
  }

  async purgeAuditEvents(accountId: string, throughSeq: number): Promise<number> {
    return this.ex.run('DELETE FROM audit_events WHERE account_id = ? AND seq <= ?', [accountId, throughSeq]);
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
      const values = chunk.map(() => `(${placeholders(PAYMENT_COLUMN_COUNT)})`).join(', ');
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

  async updatePaymentIfStatus(
    scope: Scope,
    id: string,
    status: string,
    patch: Partial<Omit<PaymentRecord, 'id' | 'accountId' | 'livemode' | 'created'>>,
  ): Promise<boolean> {
    const { sql, params } = setClause(patch, PAYMENT_UPDATABLE);
    if (!sql) return false;
    const changed = await this.ex.run(`UPDATE payments SET ${sql} WHERE id = ? AND account_id = ? AND livemode = ? AND status = ?`, [
      ...params,
      id,
      scope.accountId,
      bool(scope.livemode),
      status,
    ]);
    return changed === 1;
  }

  async findPaymentByClientSecret(clientSecret: string): Promise<PaymentRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE client_secret = ?`, [clientSecret]);
    return row && paymentFromRow(row);
  }

  async listExpiredAuthorizations(nowSeconds: number, limit: number): Promise<PaymentRecord[]> {
    const rows = await this.ex.all<Row>(
      `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE status = 'requires_capture' AND capture_before < ? ORDER BY capture_before LIMIT ?`,
      [nowSeconds, limit],
    );
    return rows.map(paymentFromRow);
  }

  async objectExistsInOtherMode(scope: Scope, table: 'customers' | 'payments' | 'tokens' | 'refunds', id: string): Promise<boolean> {
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

  async findIdempotencyKey(scope: Scope, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.ex.get<Row>('SELECT * FROM idempotency_keys WHERE account_id = ? AND livemode = ? AND idem_key = ?', [
      scope.accountId,
      bool(scope.livemode),
      key,
    ]);
    return row && idempotencyFromRow(row);
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

  // ---- card vault and tokens ----------------------------------------------------------------

  async insertCard(c: CardRecord): Promise<void> {
    await this.ex.run(`INSERT INTO cards (${CARD_COLUMNS}) VALUES (${placeholders(11)})`, cardToRow(c));
  }

  async findCardById(scope: Scope, id: string): Promise<CardRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${CARD_COLUMNS} FROM cards WHERE id = ? AND account_id = ? AND livemode = ?`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && cardFromRow(row);
  }

  async listCardsNotSealedWith(version: number, limit: number): Promise<CardRecord[]> {
    const rows = await this.ex.all<Row>(`SELECT ${CARD_COLUMNS} FROM cards WHERE number_sealed NOT LIKE ? ORDER BY id LIMIT ?`, [
      `v${version}.%`,
      limit,
    ]);
    return rows.map(cardFromRow);
  }

  async updateCardSealedNumber(id: string, numberSealed: string): Promise<void> {
    await this.ex.run('UPDATE cards SET number_sealed = ? WHERE id = ?', [numberSealed, id]);
  }

  async insertToken(t: TokenRecord): Promise<void> {
    await this.ex.run(`INSERT INTO tokens (${TOKEN_COLUMNS}) VALUES (${placeholders(8)})`, tokenToRow(t));
  }

  async findTokenById(scope: Scope, id: string, options: { forUpdate?: boolean } = {}): Promise<TokenRecord | undefined> {
    const lock = options.forUpdate ? this.db.dialect.forUpdate : '';
    const row = await this.ex.get<Row>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = ? AND account_id = ? AND livemode = ?${lock}`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && tokenFromRow(row);
  }

  async consumeToken(scope: Scope, id: string, usedAt: number): Promise<boolean> {
    const changed = await this.ex.run(
      'UPDATE tokens SET used_at = ? WHERE id = ? AND account_id = ? AND livemode = ? AND used_at IS NULL',
      [usedAt, id, scope.accountId, bool(scope.livemode)],
    );
    return changed === 1;
  }

  async findTokenByCardId(cardId: string): Promise<TokenRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE card_id = ?`, [cardId]);
    return row && tokenFromRow(row);
  }

  async eraseTokenCvc(id: string): Promise<void> {
    await this.ex.run('UPDATE tokens SET cvc_sealed = NULL WHERE id = ?', [id]);
  }

  async eraseExpiredTokenCvcs(nowSeconds: number): Promise<number> {
    return this.ex.run('UPDATE tokens SET cvc_sealed = NULL WHERE expires_at < ? AND cvc_sealed IS NOT NULL', [nowSeconds]);
  }

  // ---- processor operations -----------------------------------------------------------------

  async insertProcessorOperation(o: ProcessorOperationRecord): Promise<void> {
    await this.ex.run(
      `INSERT INTO processor_operations (${PROCESSOR_OPERATION_COLUMNS}) VALUES (${placeholders(13)})`,
      processorOperationToRow(o),
    );
  }

  async settleProcessorOperation(
    id: string,
    patch: Pick<ProcessorOperationRecord, 'state' | 'reference' | 'outcome' | 'updated'>,
  ): Promise<boolean> {
    const changed = await this.ex.run(
      `UPDATE processor_operations SET state = ?, reference = ?, outcome = ?, updated = ? WHERE id = ? AND state = 'pending'`,
      [patch.state, patch.reference, patch.outcome === null ? null : JSON.stringify(patch.outcome), patch.updated, id],
    );
    return changed === 1;
  }

  async findPendingOperationForPayment(paymentId: string): Promise<ProcessorOperationRecord | undefined> {
    const row = await this.ex.get<Row>(
      `SELECT ${PROCESSOR_OPERATION_COLUMNS} FROM processor_operations WHERE payment_id = ? AND state = 'pending' LIMIT 1`,
      [paymentId],
    );
    return row && processorOperationFromRow(row);
  }

  async listPendingOperations(createdBeforeMs: number, limit: number): Promise<ProcessorOperationRecord[]> {
    const rows = await this.ex.all<Row>(
      `SELECT ${PROCESSOR_OPERATION_COLUMNS} FROM processor_operations WHERE state = 'pending' AND created <= ? ORDER BY created LIMIT ?`,
      [createdBeforeMs, limit],
    );
    return rows.map(processorOperationFromRow);
  }

  // ---- refunds ------------------------------------------------------------------------------

  async insertRefund(f: RefundRecord): Promise<void> {
    await this.ex.run(`INSERT INTO refunds (${REFUND_COLUMNS}) VALUES (${placeholders(11)})`, refundToRow(f));
  }

  async findRefundById(scope: Scope, id: string): Promise<RefundRecord | undefined> {
    const row = await this.ex.get<Row>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = ? AND account_id = ? AND livemode = ?`, [
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
    return row && refundFromRow(row);
  }

  async updateRefund(scope: Scope, id: string, patch: Partial<Pick<RefundRecord, 'status' | 'failureReason'>>): Promise<void> {
    const { sql, params } = setClause(patch, {
      status: ['status', (v) => v as string],
      failureReason: ['failure_reason', (v) => v as string | null],
    });
    if (!sql) return;
    await this.ex.run(`UPDATE refunds SET ${sql} WHERE id = ? AND account_id = ? AND livemode = ?`, [
      ...params,
      id,
      scope.accountId,
      bool(scope.livemode),
    ]);
  }

  async listRefunds(scope: Scope, filter: RefundFilter, page: PageQuery): Promise<Page<RefundRecord>> {
    const clause = pageClause(page);
    let where = 'account_id = ? AND livemode = ?';
    const params: SqlValue[] = [scope.accountId, bool(scope.livemode)];
    if (filter.paymentId !== undefined) {
      where += ' AND payment_id = ?';
      params.push(filter.paymentId);
    }
    const rows = await this.ex.all<Row>(`SELECT ${REFUND_COLUMNS} FROM refunds WHERE ${where}${clause.where}${clause.order}`, [
      ...params,
      ...clause.params,
    ]);
    return toPage(rows.map(refundFromRow), page.limit, clause.reversed);
  }

  // ---- simulated processor ------------------------------------------------------------------

  async insertSimulatedOperation(o: SimulatedOperationRecord): Promise<void> {
    await this.ex.run(
      'INSERT INTO simulated_processor_operations (operation_id, reference, kind, amount, outcome, created) VALUES (?, ?, ?, ?, ?, ?)',
      [o.operationId, o.reference, o.kind, o.amount, JSON.stringify(o.outcome), o.created],
    );
  }

  async findSimulatedOperation(operationId: string): Promise<SimulatedOperationRecord | undefined> {
    const row = await this.ex.get<Row>('SELECT * FROM simulated_processor_operations WHERE operation_id = ?', [operationId]);
    return row && simulatedFromRow(row);
  }

  async findSimulatedOperationsByReference(reference: string): Promise<SimulatedOperationRecord[]> {
    const rows = await this.ex.all<Row>('SELECT * FROM simulated_processor_operations WHERE reference = ? ORDER BY created', [reference]);
    return rows.map(simulatedFromRow);
  }
}

function simulatedFromRow(r: Row): SimulatedOperationRecord {
  return {
    operationId: r.operation_id as string,
    reference: r.reference as string,
    kind: r.kind as string,
    amount: Number(r.amount),
    outcome: JSON.parse(r.outcome as string) as Record<string, unknown>,
    created: Number(r.created),
  };
}
