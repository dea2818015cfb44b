import type {
  AccountRecord,
  ApiKeyRecord,
  AuditChainHead,
  AuditEventFilter,
  AuditEventRecord,
  AuditRetentionMark,
  CardRecord,
  CheckoutSessionRecord,
  CheckoutSessionStatus,
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
} from './records.js';

export type * from './records.js';

export type WebhookEndpointPatch = Partial<
  Pick<
    WebhookEndpointRecord,
    | 'url'
    | 'enabledEvents'
    | 'status'
    | 'disabledReason'
    | 'disabledAt'
    | 'description'
    | 'metadata'
    | 'consecutiveFailures'
    | 'failingSince'
  >
>;

export type AccountPatch = Partial<Pick<AccountRecord, 'name' | 'defaultVersion' | 'rateLimitPerSecond' | 'rateLimitBurst'>>;

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
  updateAccount(id: string, patch: AccountPatch): Promise<void>;

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

  /**
   * Applies `patch` only if the payment still has `status`: the guard that lets several
   * instances (or the sweeper and a request) race without both moving the same payment.
   */
  updatePaymentIfStatus(
    scope: Scope,
    id: string,
    status: string,
    patch: Partial<Omit<PaymentRecord, 'id' | 'accountId' | 'livemode' | 'created'>>,
  ): Promise<boolean>;
  /** The payment a client secret belongs to, in any account (the secret is the credential). */
  findPaymentByClientSecret(clientSecret: string): Promise<PaymentRecord | undefined>;
  /** Uncaptured authorisations of every account whose `captureBefore` is before `nowSeconds`. */
  listExpiredAuthorizations(nowSeconds: number, limit: number): Promise<PaymentRecord[]>;

  /** True when an object with this id exists in the account in either mode (for livemode_mismatch). */
  objectExistsInOtherMode(
    scope: Scope,
    table: 'customers' | 'payments' | 'tokens' | 'refunds' | 'checkout_sessions',
    id: string,
  ): Promise<boolean>;

  // checkout sessions
  insertCheckoutSession(session: CheckoutSessionRecord): Promise<void>;
  findCheckoutSessionById(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<CheckoutSessionRecord | undefined>;
  /** The session with this id in any account: the hosted page's URL names only the (unguessable) id. */
  findCheckoutSessionByIdInAnyAccount(id: string): Promise<CheckoutSessionRecord | undefined>;
  /** The session a client secret belongs to, in any account (the secret is the credential). */
  findCheckoutSessionByClientSecret(clientSecret: string): Promise<CheckoutSessionRecord | undefined>;
  listCheckoutSessions(scope: Scope, filter: { paymentId?: string | undefined }, page: PageQuery): Promise<Page<CheckoutSessionRecord>>;
  /**
   * Moves the session from `from` to `to` (setting `completedAt` when given): false when it was
   * no longer in `from`. The guard that makes completion and expiry happen exactly once.
   */
  updateCheckoutSessionStatus(id: string, from: CheckoutSessionStatus, to: CheckoutSessionStatus, completedAt?: number): Promise<boolean>;
  /** The open session of a payment, if the payment was made by one. */
  findOpenCheckoutSessionByPayment(paymentId: string): Promise<CheckoutSessionRecord | undefined>;

  // card vault and tokens
  insertCard(card: CardRecord): Promise<void>;
  findCardById(scope: Scope, id: string): Promise<CardRecord | undefined>;
  /** Cards sealed under another key version than `version` (for re-encryption after rotation). */
  listCardsNotSealedWith(version: number, limit: number): Promise<CardRecord[]>;
  updateCardSealedNumber(id: string, numberSealed: string): Promise<void>;
  insertToken(token: TokenRecord): Promise<void>;
  findTokenById(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<TokenRecord | undefined>;
  /** Marks the token used; false when it was already used. */
  consumeToken(scope: Scope, id: string, usedAt: number): Promise<boolean>;
  /** The token that vaulted this card (each tokenisation vaults its own card row). */
  findTokenByCardId(cardId: string): Promise<TokenRecord | undefined>;
  eraseTokenCvc(id: string): Promise<void>;
  /** Erases the CVCs of tokens that expired unused; answers how many. */
  eraseExpiredTokenCvcs(nowSeconds: number): Promise<number>;

  // processor operations (intent log)
  insertProcessorOperation(operation: ProcessorOperationRecord): Promise<void>;
  /** Settles a pending operation; false when it was no longer pending (someone else settled it). */
  settleProcessorOperation(
    id: string,
    patch: Pick<ProcessorOperationRecord, 'state' | 'reference' | 'outcome' | 'updated'>,
  ): Promise<boolean>;
  findPendingOperationForPayment(paymentId: string): Promise<ProcessorOperationRecord | undefined>;
  /** Pending operations of every account created at or before `createdBeforeMs`, oldest first. */
  listPendingOperations(createdBeforeMs: number, limit: number): Promise<ProcessorOperationRecord[]>;

  // refunds
  insertRefund(refund: RefundRecord): Promise<void>;
  findRefundById(scope: Scope, id: string): Promise<RefundRecord | undefined>;
  updateRefund(scope: Scope, id: string, patch: Partial<Pick<RefundRecord, 'status' | 'failureReason'>>): Promise<void>;
  listRefunds(scope: Scope, filter: RefundFilter, page: PageQuery): Promise<Page<RefundRecord>>;

  // the simulated processor's ledger
  insertSimulatedOperation(operation: SimulatedOperationRecord): Promise<void>;
  findSimulatedOperation(operationId: string): Promise<SimulatedOperationRecord | undefined>;
  findSimulatedOperationsByReference(reference: string): Promise<SimulatedOperationRecord[]>;

  // events
  insertEvent(event: EventRecord): Promise<void>;
  findEventById(scope: Scope, id: string): Promise<EventRecord | undefined>;
  listEvents(scope: Scope, filter: EventFilter, page: PageQuery): Promise<Page<EventRecord>>;
  /** Events of every account after `afterId` in id order: how background workers follow the log. */
  listEventsAfter(afterId: string, limit: number): Promise<EventRecord[]>;

  // webhook endpoints
  insertWebhookEndpoint(endpoint: WebhookEndpointRecord): Promise<void>;
  findWebhookEndpointById(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<WebhookEndpointRecord | undefined>;
  updateWebhookEndpoint(scope: Scope, id: string, patch: WebhookEndpointPatch): Promise<void>;
  /** Deletes the endpoint with its outbox rows and attempt history. */
  deleteWebhookEndpoint(scope: Scope, id: string): Promise<void>;
  listWebhookEndpoints(scope: Scope, page: PageQuery): Promise<Page<WebhookEndpointRecord>>;
  /** The enabled endpoints of an account and mode: one indexed read per recorded event. */
  listEnabledWebhookEndpoints(scope: Scope): Promise<Pick<WebhookEndpointRecord, 'id' | 'enabledEvents'>[]>;
  /** Counts an attempt's outcome atomically (several workers may finish at once) and answers the endpoint as it now stands. */
  recordWebhookEndpointOutcome(id: string, succeeded: boolean, nowMs: number): Promise<WebhookEndpointRecord | undefined>;

  // webhook delivery outbox
  insertWebhookDelivery(delivery: WebhookDeliveryRecord): Promise<void>;
  /** Ids of pending deliveries due at `nowMs` and not leased, oldest due first. */
  findDueWebhookDeliveryIds(nowMs: number, limit: number): Promise<string[]>;
  /** Takes the lease on a due delivery; false when another worker holds it or it is no longer due. */
  leaseWebhookDelivery(id: string, nowMs: number, leaseUntil: number, token: string): Promise<boolean>;
  findWebhookDeliveryById(id: string): Promise<WebhookDeliveryRecord | undefined>;
  /** Ends an attempt under the lease `token` and releases it; false when the lease was lost (or the row deleted). */
  finishWebhookDeliveryAttempt(
    id: string,
    token: string,
    patch: Pick<WebhookDeliveryRecord, 'status' | 'attempts' | 'nextAttemptAt' | 'firstAttemptedAt'>,
  ): Promise<boolean>;
  /** Cancels an endpoint's pending deliveries (it was disabled); answers how many. */
  cancelWebhookDeliveries(endpointId: string): Promise<number>;
  /** Pending deliveries per event, for the events' `pending_webhooks`. */
  countPendingWebhookDeliveries(eventIds: readonly string[]): Promise<Map<string, number>>;

  // webhook attempts
  insertWebhookAttempt(attempt: WebhookAttemptRecord): Promise<void>;
  findWebhookAttemptById(scope: Scope, id: string): Promise<WebhookAttemptRecord | undefined>;
  listWebhookAttempts(scope: Scope, endpointId: string, filter: WebhookAttemptFilter, page: PageQuery): Promise<Page<WebhookAttemptRecord>>;

  // idempotency
  /** Claims the key for one execution, or returns who holds it. Stale claims (older than `staleBefore`) are taken over. */
  claimIdempotencyKey(record: IdempotencyRecord, staleBefore: number): Promise<ClaimResult>;
  /** The key's record as last committed, without locking or claiming (a replay needs no write). */
  findIdempotencyKey(scope: Scope, key: string): Promise<IdempotencyRecord | undefined>;
  completeIdempotencyKey(scope: Scope, key: string, status: number, body: string): Promise<void>;
  releaseIdempotencyKey(scope: Scope, key: string): Promise<void>;
  purgeIdempotencyKeys(createdBefore: number): Promise<number>;
}
