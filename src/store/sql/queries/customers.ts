import type { CustomerRecord, Page, PageQuery, Scope } from '../../records.js';
import { CUSTOMER_COLUMNS, CUSTOMER_UPDATABLE, customerFromRow, customerToRow } from '../rows.js';
import { placeholders, type ScopedTable, SqlBase } from '../sql-base.js';

const CUSTOMERS: ScopedTable<CustomerRecord> = {
  name: 'customers',
  columns: CUSTOMER_COLUMNS,
  fromRow: customerFromRow,
  visible: 'deleted_at IS NULL',
};

/** Customers; deleted ones are kept but never found. */
export abstract class CustomerQueries extends SqlBase {
  async insertCustomer(c: CustomerRecord): Promise<void> {
    await this.ex.run(`INSERT INTO customers (${CUSTOMER_COLUMNS}) VALUES (${placeholders(9)})`, customerToRow(c));
  }

  findCustomerById(scope: Scope, id: string): Promise<CustomerRecord | undefined> {
    return this.findInScope(CUSTOMERS, scope, id);
  }

  updateCustomer(
    scope: Scope,
    id: string,
    patch: Partial<Pick<CustomerRecord, 'email' | 'name' | 'description' | 'metadata' | 'deletedAt'>>,
  ): Promise<void> {
    return this.updateInScope('customers', scope, id, patch, CUSTOMER_UPDATABLE);
  }

  listCustomers(scope: Scope, page: PageQuery): Promise<Page<CustomerRecord>> {
    return this.listInScope(CUSTOMERS, scope, {}, page);
  }
}
