import type { Store } from '../store.js';
import type { SqlDatabase, SqlExecutor } from './database.js';
import { AccountQueries } from './queries/accounts.js';
import { ApiKeyQueries } from './queries/api-keys.js';
import { AuditQueries } from './queries/audit.js';
import { CardQueries } from './queries/cards.js';
import { CheckoutSessionQueries } from './queries/checkout-sessions.js';
import { CustomerQueries } from './queries/customers.js';
import { EventQueries } from './queries/events.js';
import { IdempotencyQueries } from './queries/idempotency.js';
import { PaymentQueries } from './queries/payments.js';
import { ProcessorQueries } from './queries/processor.js';
import { RefundQueries } from './queries/refunds.js';
import { WebhookQueries } from './queries/webhooks.js';
import { SqlBase } from './sql-base.js';

/** The parts of the store, one file per resource under queries/, combined into one class below. */
const PARTS = [
  AccountQueries,
  ApiKeyQueries,
  AuditQueries,
  CardQueries,
  CheckoutSessionQueries,
  CustomerQueries,
  EventQueries,
  IdempotencyQueries,
  PaymentQueries,
  ProcessorQueries,
  RefundQueries,
  WebhookQueries,
];

// The class below gets the parts' methods (copied onto its prototype after it); this interface
// tells TypeScript so. Both merging lint findings are this one deliberate pattern.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface SqlStore
  extends
    AccountQueries,
    ApiKeyQueries,
    AuditQueries,
    CardQueries,
    CheckoutSessionQueries,
    CustomerQueries,
    EventQueries,
    IdempotencyQueries,
    PaymentQueries,
    ProcessorQueries,
    RefundQueries,
    WebhookQueries {}

/** The Store, written once in SQL that both backends run. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SqlStore extends SqlBase implements Store {
  readonly backend: 'sqlite' | 'postgres';

  constructor(db: SqlDatabase, ex: SqlExecutor = db, inTransaction = false) {
    super(db, ex, inTransaction);
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
}

for (const part of PARTS) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name === 'constructor') continue;
    if (Object.prototype.hasOwnProperty.call(SqlStore.prototype, name)) throw new Error(`SqlStore: ${name} is defined twice`);
    Object.defineProperty(SqlStore.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name) as PropertyDescriptor);
  }
}
