import type { Page, PageQuery, PaymentFilter, PaymentRecord, Scope } from '../../records.js';
import { bool, PAYMENT_COLUMN_COUNT, PAYMENT_COLUMNS, PAYMENT_UPDATABLE, paymentFromRow, paymentToRow, setClause } from '../rows.js';
import { placeholders, type Row, type ScopedTable, SqlBase } from '../sql-base.js';

const PAYMENT_INSERT = `INSERT INTO payments (${PAYMENT_COLUMNS}) VALUES (${placeholders(PAYMENT_COLUMN_COUNT)})`;

const PAYMENTS: ScopedTable<PaymentRecord> = { name: 'payments', columns: PAYMENT_COLUMNS, fromRow: paymentFromRow };

/** Payments. */
export abstract class PaymentQueries extends SqlBase {
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

  findPaymentById(scope: Scope, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentRecord | undefined> {
    return this.findInScope(PAYMENTS, scope, id, options.forUpdate);
  }

  updatePayment(scope: Scope, id: string, patch: Partial<Omit<PaymentRecord, 'id' | 'accountId' | 'livemode' | 'created'>>): Promise<void> {
    return this.updateInScope('payments', scope, id, patch, PAYMENT_UPDATABLE);
  }

  listPayments(scope: Scope, filter: PaymentFilter, page: PageQuery): Promise<Page<PaymentRecord>> {
    return this.listInScope(PAYMENTS, scope, { customer_id: filter.customerId, status: filter.status }, page);
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

  async objectExistsInOtherMode(
    scope: Scope,
    table: 'customers' | 'payments' | 'tokens' | 'refunds' | 'checkout_sessions',
    id: string,
  ): Promise<boolean> {
    const row = await this.ex.get(`SELECT 1 AS found FROM ${table} WHERE id = ? AND account_id = ? AND livemode = ?`, [
      id,
      scope.accountId,
      bool(!scope.livemode),
    ]);
    return row !== undefined;
  }
}
