import type {
  AccountRecord,
  ApiKeyRecord,
  AuditChainHead,
  AuditEventFilter,
  AuditEventRecord,
  AuditRetentionMark,
  CustomerRecord,
  EventFilter,
  EventRecord,
  IdempotencyRecord,
  Page,
  PageQuery,
  PaymentFilter,
  PaymentRecord,
  Scope,
} from '../records.js';
import type { ClaimResult, Store } from '../store.js';
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
