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
} from '../records.js';
import type { ClaimResult, Store } from '../store.js';
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
