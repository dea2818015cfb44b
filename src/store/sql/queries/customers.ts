import type { CustomerRecord, Page, PageQuery, Scope } from '../../records.js';
import { pageClause, toPage } from '../pagination.js';
import { bool, CUSTOMER_COLUMNS, CUSTOMER_UPDATABLE, customerFromRow, customerToRow, setClause } from '../rows.js';
import { SqlBase, type Row, placeholders } from '../sql-base.js';

/** Customers; deleted ones are kept but never found. */
export abstract class CustomerQueries extends SqlBase {
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
}
