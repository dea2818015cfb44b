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
} from './records.js';

export type * from './records.js';

export type ClaimResult = { claimed: true; record: IdempotencyRecord } | { claimed: false; record: IdempotencyRecord };

/**
 * The storage interface. One implementation over SQL (src/store/sql) runs on each backend
 * (src/store/sqlite, src/store/postgres). Methods are named by intent; a `Store` received
 * inside `transaction` runs every call in that transaction.
 */
export interface Store {
  readonly backend: 'sqlite' | 'postgres';

  /** Runs `fn` in one transaction: all its writes commit together or not at all. */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;

  // accounts
  insertAccount(account: AccountRecord): Promise<void>;
  findAccountById(id: string): Promise<AccountRecord | undefined>;
  countAccounts(): Promise<number>;
  updateAccount(id: string, patch: Partial<Pick<AccountRecord, 'name' | 'defaultVersion'>>): Promise<void>;

  // api keys
  insertApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(secretHash: string): Promise<ApiKeyRecord | undefined>;
  findApiKeyById(accountId: string, id: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(accountId: string, livemode?: boolean): Promise<ApiKeyRecord[]>;
  updateApiKey(id: string, patch: Partial<Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt' | 'lastUsedAt' | 'name'>>): Promise<void>;

  // customers
  insertCustomer(customer: CustomerRecord): Promise<void>;
  findCustomerById(scope: Scope, id: string): Promise<CustomerRecord | undefined>;
  updateCustomer(
    scope: Scope,
    id: string,
    patch: Partial<Pick<CustomerRecord, 'email' | 'name' | 'description' | 'metadata' | 'deletedAt'>>,
  ): Promise<void>;
  listCustomers(scope: Scope, page: PageQuery): Promise<Page<CustomerRecord>>;

  // payments
  insertPayment(payment: PaymentRecord): Promise<void>;
  findPaymentById(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<PaymentRecord | undefined>;
  updatePayment(scope: Scope, id: string, patch: Partial<Omit<PaymentRecord, 'id' | 'accountId' | 'livemode' | 'created'>>): Promise<void>;
  listPayments(scope: Scope, filter: PaymentFilter, page: PageQuery): Promise<Page<PaymentRecord>>;
  bulkInsertPayments(payments: PaymentRecord[]): Promise<void>;

  /** True when an object with this id exists in the account in either mode (for livemode_mismatch). */
  objectExistsInOtherMode(scope: Scope, table: 'customers' | 'payments', id: string): Promise<boolean>;

  // events
  insertEvent(event: EventRecord): Promise<void>;
  findEventById(scope: Scope, id: string): Promise<EventRecord | undefined>;
  listEvents(scope: Scope, filter: EventFilter, page: PageQuery): Promise<Page<EventRecord>>;
  /** Events of every account after `afterId` in id order: how background workers follow the log. */
  listEventsAfter(afterId: string, limit: number): Promise<EventRecord[]>;

  // idempotency
  /** Claims the key for one execution, or returns who holds it. Stale claims (older than `staleBefore`) are taken over. */
  claimIdempotencyKey(record: IdempotencyRecord, staleBefore: number): Promise<ClaimResult>;
  completeIdempotencyKey(scope: Scope, key: string, status: number, body: string): Promise<void>;
  releaseIdempotencyKey(scope: Scope, key: string): Promise<void>;
  purgeIdempotencyKeys(createdBefore: number): Promise<number>;
}
