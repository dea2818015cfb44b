/** The records the store keeps. Field names are camelCase here; the SQL columns are snake_case. */

export interface Scope {
  accountId: string;
  livemode: boolean;
}

export type Metadata = Record<string, string>;

export interface AccountRecord {
  id: string;
  name: string;
  defaultVersion: string;
  created: number;
  /** Requests per second this account may make in each mode; null or absent: the service default. */
  rateLimitPerSecond?: number | null;
  /** Bucket size: how many requests may arrive at once; null or absent: the service default. */
  rateLimitBurst?: number | null;
}

export const API_KEY_KINDS = ['secret', 'publishable', 'restricted'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

export const PERMISSION_LEVELS = ['none', 'read', 'write'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export const PERMISSION_RESOURCES = [
  'payments',
  'customers',
  'refunds',
  'checkout_sessions',
  'tokens',
  'api_keys',
  'audit_events',
  'webhook_endpoints',
  'events',
] as const;
export type PermissionResource = (typeof PERMISSION_RESOURCES)[number];
export type Permissions = Partial<Record<PermissionResource, PermissionLevel>>;

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  kind: ApiKeyKind;
  /** e.g. `service_test_`: what the key starts with. */
  prefix: string;
  last4: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  secretHash: string;
  name: string | null;
  /** Free text for people: which worker or machine holds the key. */
  note: string | null;
  permissions: Permissions | null;
  created: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export interface CustomerRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Metadata;
  created: number;
  deletedAt: number | null;
}

export interface CardSummary {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  funding: string;
  fingerprint: string;
}

export interface PaymentRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  customerId: string;
  amount: number;
  currency: string;
  description: string | null;
  captureMethod: 'automatic' | 'manual';
  status: string;
  amountCapturable: number;
  amountReceived: number;
  amountRefunded: number;
  paymentMethod: CardSummary | null;
  lastPaymentError: Record<string, unknown> | null;
  nextAction: Record<string, unknown> | null;
  cancellationReason: string | null;
  canceledAt: number | null;
  metadata: Metadata;
  created: number;
  /** The vaulted card (`card_...`) the payment is charged to. */
  cardId?: string | null;
  /** `pay_..._secret_...`: lets a browser confirm or authenticate this one payment. */
  clientSecret?: string | null;
  /** Unix seconds after which an uncaptured authorisation expires. */
  captureBefore?: number | null;
  /** The processor's reference for the authorisation. */
  processorReference?: string | null;
}

export const CHECKOUT_SESSION_STATUSES = ['open', 'complete', 'expired'] as const;
export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number];

/** A hosted checkout for one payment; amount, currency and customer live on the payment. */
export interface CheckoutSessionRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  paymentId: string;
  /** `cs_..._secret_...`: lets a browser (publishable key) read and confirm this one session. */
  clientSecret: string;
  status: CheckoutSessionStatus;
  successUrl: string;
  cancelUrl: string;
  metadata: Metadata;
  /** Unix seconds. */
  expiresAt: number;
  completedAt: number | null;
  created: number;
}

/** A vaulted card. The number is only ever stored sealed (AES-256-GCM, src/domain/tokens/keyring.ts). */
export interface CardRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  funding: string;
  fingerprint: string;
  numberSealed: string;
  created: number;
}

/** A single-use reference to a card; the CVC is kept sealed until the token is used, then erased. */
export interface TokenRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  cardId: string;
  cvcSealed: string | null;
  created: number;
  /** Unix seconds. */
  expiresAt: number;
  usedAt: number | null;
}

export const PROCESSOR_OPERATION_KINDS = ['authorize', 'authenticate', 'capture', 'cancel', 'refund'] as const;
export type ProcessorOperationKind = (typeof PROCESSOR_OPERATION_KINDS)[number];
export type ProcessorOperationState = 'pending' | 'succeeded' | 'failed';

/**
 * An intent to call the processor, committed before the call and settled after it, so a crash
 * between the two leaves a pending row that reconciliation resolves.
 */
export interface ProcessorOperationRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  paymentId: string;
  refundId: string | null;
  kind: ProcessorOperationKind;
  amount: number;
  processor: string;
  state: ProcessorOperationState;
  reference: string | null;
  /** What the processor answered (no card data). */
  outcome: Record<string, unknown> | null;
  /** Milliseconds. */
  created: number;
  updated: number;
}

export interface RefundRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  paymentId: string;
  amount: number;
  currency: string;
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  failureReason: string | null;
  metadata: Metadata;
  created: number;
}

export interface RefundFilter {
  paymentId?: string | undefined;
}

/** The simulated processor's own ledger: what it was asked and what it answered. */
export interface SimulatedOperationRecord {
  operationId: string;
  reference: string;
  kind: string;
  amount: number;
  outcome: Record<string, unknown>;
  created: number;
}

export interface IdempotencyRecord {
  accountId: string;
  livemode: boolean;
  key: string;
  method: string;
  path: string;
  requestHash: string;
  state: 'in_progress' | 'done';
  responseStatus: number | null;
  responseBody: string | null;
  /** Milliseconds. */
  created: number;
  /** Milliseconds: when the current execution claimed the key. */
  lockedAt: number;
}

/** Cursor pagination over objects whose ids sort by creation time. */
export interface PageQuery {
  limit: number;
  startingAfter?: string | undefined;
  endingBefore?: string | undefined;
  /** Inclusive / exclusive id bounds derived from `created` filters. */
  idGte?: string | undefined;
  idLt?: string | undefined;
}

export interface Page<T> {
  rows: T[];
  hasMore: boolean;
}

export interface PaymentFilter {
  customerId?: string | undefined;
  status?: string | undefined;
}

/** Something that happened to an object, recorded in the transaction that made it happen. */
export interface EventRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  /** e.g. `payment.succeeded`. */
  type: string;
  /** The object as it stood after the change (newest API shape). */
  object: Record<string, unknown>;
  requestId: string | null;
  created: number;
}

export interface EventFilter {
  type?: string | undefined;
}

export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/** A URL that receives the account's events. */
export interface WebhookEndpointRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  url: string;
  /** Event types, or `*` for all. */
  enabledEvents: string[];
  status: WebhookEndpointStatus;
  /** `requested` (through the API) or `failing` (by the delivery worker); null while enabled. */
  disabledReason: 'requested' | 'failing' | null;
  disabledAt: number | null;
  /** `whsec_...`: the HMAC key, kept as it stands because every delivery is signed with it. */
  secret: string;
  description: string | null;
  metadata: Metadata;
  /** Failed attempts since the last success. */
  consecutiveFailures: number;
  /** Milliseconds: the first failed attempt since the last success; null when healthy. */
  failingSince: number | null;
  created: number;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

/** One event owed to one endpoint: the outbox row, written in the transaction of the event. */
export interface WebhookDeliveryRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  endpointId: string;
  eventId: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** Milliseconds. */
  nextAttemptAt: number;
  /** Milliseconds; the retry window runs from here. */
  firstAttemptedAt: number | null;
  /** Milliseconds: a worker holds the row until then. */
  leaseUntil: number | null;
  leaseToken: string | null;
  created: number;
}

/** The outcome of one delivery attempt, shown through the API. */
export interface WebhookAttemptRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  endpointId: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** Unix seconds: when the attempt started. */
  created: number;
  /** Unix seconds: when the next attempt is due; null when none follows. */
  nextAttemptAt: number | null;
}

export interface WebhookAttemptFilter {
  eventId?: string | undefined;
}

export const AUDIT_EVENT_TYPES = ['api_key.created', 'api_key.used', 'api_key.rolled', 'api_key.revoked', 'api_key.expired'] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** The request an audit event is about: what the key did, never what it sent. */
export interface AuditRequest {
  id: string;
  method: string;
  path: string;
  status: number;
  ip: string;
  user_agent: string | null;
}

/** One link of an account's audit chain (both modes share the chain). */
export interface AuditEventRecord {
  id: string;
  accountId: string;
  livemode: boolean;
  /** Position in the account's chain: 1, 2, 3, ... with no gaps. */
  seq: number;
  type: AuditEventType;
  apiKeyId: string;
  request: AuditRequest | null;
  created: number;
  hash: string;
  previousHash: string;
}

export interface AuditChainHead {
  accountId: string;
  seq: number;
  hash: string;
}

/** How far an account's chain has been exported to files, and purged from the database. */
export interface AuditRetentionMark {
  accountId: string;
  exportedThroughSeq: number;
  exportedThroughHash: string;
  purgedThroughSeq: number;
  purgedThroughHash: string;
}

export interface AuditEventFilter {
  type?: string | undefined;
  apiKeyId?: string | undefined;
}
