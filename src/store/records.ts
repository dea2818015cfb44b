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
