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
  updateApiKey(id: string, patch: Partial<Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt' | 'lastUsedAt' | 'name' | 'note'>>): Promise<void>;
  listApiKeysPage(scope: Scope, page: PageQuery): Promise<Page<ApiKeyRecord>>;
  /** Marks that the key's expiry was written to the audit log; false when it already was (by anyone). */
  markApiKeyExpiryRecorded(id: string, at: number): Promise<boolean>;
  /** Keys whose `expires_at` has passed and whose expiry is not yet in the audit log. */
  listExpiredUnrecordedApiKeys(nowSeconds: number, limit: number): Promise<ApiKeyRecord[]>;
  /** Sets `last_used_at` to `at` unless it is already later. */
  touchApiKey(id: string, at: number): Promise<void>;

  // audit log
  /** The account's chain head, locked until the transaction ends (created at seq 0 when missing). Call inside a transaction. */
  lockAuditChainHead(accountId: string, genesisHash: string): Promise<AuditChainHead>;
  updateAuditChainHead(head: AuditChainHead): Promise<void>;
  listAuditChainHeads(): Promise<AuditChainHead[]>;
  insertAuditEvents(events: AuditEventRecord[]): Promise<void>;
  findAuditEventById(scope: Scope, id: string): Promise<AuditEventRecord | undefined>;
  listAuditEvents(scope: Scope, filter: AuditEventFilter, page: PageQuery): Promise<Page<AuditEventRecord>>;
  /** One account's chain in order, after `afterSeq`. */
  listAuditEventsBySeq(accountId: string, afterSeq: number, limit: number): Promise<AuditEventRecord[]>;
  findAuditRetention(accountId: string): Promise<AuditRetentionMark | undefined>;
  saveAuditRetention(mark: AuditRetentionMark): Promise<void>;
  /** Deletes the account's events with seq ≤ `throughSeq`; answers how many. */
  purgeAuditEvents(accountId: string, throughSeq: number): Promise<number>;

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
