import type {
  AccountRecord,
  ApiKeyRecord,
  AuditEventRecord,
  CardRecord,
  CustomerRecord,
  EventRecord,
  IdempotencyRecord,
  PaymentRecord,
  ProcessorOperationRecord,
  RefundRecord,
  TokenRecord,
} from '../records.js';
import type { SqlValue } from './database.js';

/** Maps between records and SQL rows: snake_case columns, 0/1 booleans, JSON text. */

type Row = Record<string, unknown>;

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
const parse = <T>(value: unknown): T | null => (value === null || value === undefined ? null : (JSON.parse(value as string) as T));
export const bool = (value: boolean): number => (value ? 1 : 0);

export function accountFromRow(r: Row): AccountRecord {
  return {
    id: r.id as string,
    name: r.name as string,
    defaultVersion: r.default_version as string,
    created: r.created as number,
    rateLimitPerSecond: r.rate_limit_per_second == null ? null : Number(r.rate_limit_per_second),
    rateLimitBurst: r.rate_limit_burst == null ? null : Number(r.rate_limit_burst),
  };
}

export function apiKeyFromRow(r: Row): ApiKeyRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    kind: r.kind as ApiKeyRecord['kind'],
    prefix: r.prefix as string,
    last4: r.last4 as string,
    secretHash: r.secret_hash as string,
    name: (r.name as string | null) ?? null,
    note: (r.note as string | null) ?? null,
    permissions: parse(r.permissions),
    created: r.created as number,
    expiresAt: (r.expires_at as number | null) ?? null,
    revokedAt: (r.revoked_at as number | null) ?? null,
    lastUsedAt: (r.last_used_at as number | null) ?? null,
  };
}

export function apiKeyToRow(k: ApiKeyRecord): SqlValue[] {
  return [
    k.id,
    k.accountId,
    bool(k.livemode),
    k.kind,
    k.prefix,
    k.last4,
    k.secretHash,
    k.name,
    k.note,
    json(k.permissions),
    k.created,
    k.expiresAt,
    k.revokedAt,
    k.lastUsedAt,
  ];
}
export const API_KEY_COLUMNS =
  'id, account_id, livemode, kind, prefix, last4, secret_hash, name, note, permissions, created, expires_at, revoked_at, last_used_at';

export function customerFromRow(r: Row): CustomerRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    email: (r.email as string | null) ?? null,
    name: (r.name as string | null) ?? null,
    description: (r.description as string | null) ?? null,
    metadata: parse(r.metadata) ?? {},
    created: r.created as number,
    deletedAt: (r.deleted_at as number | null) ?? null,
  };
}

export function customerToRow(c: CustomerRecord): SqlValue[] {
  return [c.id, c.accountId, bool(c.livemode), c.email, c.name, c.description, json(c.metadata), c.created, c.deletedAt];
}
export const CUSTOMER_COLUMNS = 'id, account_id, livemode, email, name, description, metadata, created, deleted_at';

export function paymentFromRow(r: Row): PaymentRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    customerId: r.customer_id as string,
    amount: r.amount as number,
    currency: r.currency as string,
    description: (r.description as string | null) ?? null,
    captureMethod: r.capture_method as PaymentRecord['captureMethod'],
    status: r.status as string,
    amountCapturable: r.amount_capturable as number,
    amountReceived: r.amount_received as number,
    amountRefunded: r.amount_refunded as number,
    paymentMethod: parse(r.payment_method),
    lastPaymentError: parse(r.last_payment_error),
    nextAction: parse(r.next_action),
    cancellationReason: (r.cancellation_reason as string | null) ?? null,
    canceledAt: (r.canceled_at as number | null) ?? null,
    metadata: parse(r.metadata) ?? {},
    created: r.created as number,
    cardId: (r.card_id as string | null) ?? null,
    clientSecret: (r.client_secret as string | null) ?? null,
    captureBefore: (r.capture_before as number | null) ?? null,
    processorReference: (r.processor_reference as string | null) ?? null,
  };
}

export function paymentToRow(p: PaymentRecord): SqlValue[] {
  return [
    p.id,
    p.accountId,
    bool(p.livemode),
    p.customerId,
    p.amount,
    p.currency,
    p.description,
    p.captureMethod,
    p.status,
    p.amountCapturable,
    p.amountReceived,
    p.amountRefunded,
    json(p.paymentMethod),
    json(p.lastPaymentError),
    json(p.nextAction),
    p.cancellationReason,
    p.canceledAt,
    json(p.metadata),
    p.created,
    p.cardId ?? null,
    p.clientSecret ?? null,
    p.captureBefore ?? null,
    p.processorReference ?? null,
  ];
}
export const PAYMENT_COLUMNS =
  'id, account_id, livemode, customer_id, amount, currency, description, capture_method, status, amount_capturable, amount_received, amount_refunded, payment_method, last_payment_error, next_action, cancellation_reason, canceled_at, metadata, created, card_id, client_secret, capture_before, processor_reference';
export const PAYMENT_COLUMN_COUNT = PAYMENT_COLUMNS.split(',').length;

/** camelCase record field → [column, encoder] for partial updates. */
export const PAYMENT_UPDATABLE: Record<string, [string, (v: unknown) => SqlValue]> = {
  customerId: ['customer_id', (v) => v as string],
  amount: ['amount', (v) => v as number],
  currency: ['currency', (v) => v as string],
  description: ['description', (v) => v as string | null],
  captureMethod: ['capture_method', (v) => v as string],
  status: ['status', (v) => v as string],
  amountCapturable: ['amount_capturable', (v) => v as number],
  amountReceived: ['amount_received', (v) => v as number],
  amountRefunded: ['amount_refunded', (v) => v as number],
  paymentMethod: ['payment_method', json],
  lastPaymentError: ['last_payment_error', json],
  nextAction: ['next_action', json],
  cancellationReason: ['cancellation_reason', (v) => v as string | null],
  canceledAt: ['canceled_at', (v) => v as number | null],
  metadata: ['metadata', json],
  cardId: ['card_id', (v) => v as string | null],
  clientSecret: ['client_secret', (v) => v as string | null],
  captureBefore: ['capture_before', (v) => v as number | null],
  processorReference: ['processor_reference', (v) => v as string | null],
};

export const CUSTOMER_UPDATABLE: Record<string, [string, (v: unknown) => SqlValue]> = {
  email: ['email', (v) => v as string | null],
  name: ['name', (v) => v as string | null],
  description: ['description', (v) => v as string | null],
  metadata: ['metadata', json],
  deletedAt: ['deleted_at', (v) => v as number | null],
};

export const API_KEY_UPDATABLE: Record<string, [string, (v: unknown) => SqlValue]> = {
  revokedAt: ['revoked_at', (v) => v as number | null],
  expiresAt: ['expires_at', (v) => v as number | null],
  lastUsedAt: ['last_used_at', (v) => v as number | null],
  name: ['name', (v) => v as string | null],
  note: ['note', (v) => v as string | null],
};

/** Builds `SET a = ?, b = ?` from a patch, in the patch's key order. */
export function setClause(patch: object, columns: Record<string, [string, (v: unknown) => SqlValue]>): { sql: string; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const column = columns[field];
    if (!column) throw new Error(`not an updatable field: ${field}`);
    parts.push(`${column[0]} = ?`);
    params.push(column[1](value));
  }
  return { sql: parts.join(', '), params };
}

export function idempotencyFromRow(r: Row): IdempotencyRecord {
  return {
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    key: r.idem_key as string,
    method: r.method as string,
    path: r.path as string,
    requestHash: r.request_hash as string,
    state: r.state as IdempotencyRecord['state'],
    responseStatus: (r.response_status as number | null) ?? null,
    responseBody: (r.response_body as string | null) ?? null,
    created: r.created as number,
    lockedAt: r.locked_at as number,
  };
}

export const EVENT_COLUMNS = 'id, account_id, livemode, type, data, request_id, created';

export function eventFromRow(r: Row): EventRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    type: r.type as string,
    object: JSON.parse(r.data as string) as Record<string, unknown>,
    requestId: (r.request_id as string | null) ?? null,
    created: r.created as number,
  };
}

export function eventToRow(e: EventRecord): SqlValue[] {
  return [e.id, e.accountId, bool(e.livemode), e.type, JSON.stringify(e.object), e.requestId, e.created];
}

export const CARD_COLUMNS = 'id, account_id, livemode, brand, last4, exp_month, exp_year, funding, fingerprint, number_sealed, created';

export function cardFromRow(r: Row): CardRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    brand: r.brand as string,
    last4: r.last4 as string,
    expMonth: r.exp_month as number,
    expYear: r.exp_year as number,
    funding: r.funding as string,
    fingerprint: r.fingerprint as string,
    numberSealed: r.number_sealed as string,
    created: r.created as number,
  };
}

export function cardToRow(c: CardRecord): SqlValue[] {
  return [
    c.id,
    c.accountId,
    bool(c.livemode),
    c.brand,
    c.last4,
    c.expMonth,
    c.expYear,
    c.funding,
    c.fingerprint,
    c.numberSealed,
    c.created,
  ];
}

export const TOKEN_COLUMNS = 'id, account_id, livemode, card_id, cvc_sealed, created, expires_at, used_at';

export function tokenFromRow(r: Row): TokenRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    cardId: r.card_id as string,
    cvcSealed: (r.cvc_sealed as string | null) ?? null,
    created: r.created as number,
    expiresAt: r.expires_at as number,
    usedAt: (r.used_at as number | null) ?? null,
  };
}

export function tokenToRow(t: TokenRecord): SqlValue[] {
  return [t.id, t.accountId, bool(t.livemode), t.cardId, t.cvcSealed, t.created, t.expiresAt, t.usedAt];
}

export const PROCESSOR_OPERATION_COLUMNS =
  'id, account_id, livemode, payment_id, refund_id, kind, amount, processor, state, reference, outcome, created, updated';

export function processorOperationFromRow(r: Row): ProcessorOperationRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    paymentId: r.payment_id as string,
    refundId: (r.refund_id as string | null) ?? null,
    kind: r.kind as ProcessorOperationRecord['kind'],
    amount: r.amount as number,
    processor: r.processor as string,
    state: r.state as ProcessorOperationRecord['state'],
    reference: (r.reference as string | null) ?? null,
    outcome: parse(r.outcome),
    created: r.created as number,
    updated: r.updated as number,
  };
}

export function processorOperationToRow(o: ProcessorOperationRecord): SqlValue[] {
  return [
    o.id,
    o.accountId,
    bool(o.livemode),
    o.paymentId,
    o.refundId,
    o.kind,
    o.amount,
    o.processor,
    o.state,
    o.reference,
    json(o.outcome),
    o.created,
    o.updated,
  ];
}

export const REFUND_COLUMNS = 'id, account_id, livemode, payment_id, amount, currency, reason, status, failure_reason, metadata, created';

export function refundFromRow(r: Row): RefundRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    paymentId: r.payment_id as string,
    amount: r.amount as number,
    currency: r.currency as string,
    reason: (r.reason as string | null) ?? null,
    status: r.status as RefundRecord['status'],
    failureReason: (r.failure_reason as string | null) ?? null,
    metadata: parse(r.metadata) ?? {},
    created: r.created as number,
  };
}

export function refundToRow(f: RefundRecord): SqlValue[] {
  return [
    f.id,
    f.accountId,
    bool(f.livemode),
    f.paymentId,
    f.amount,
    f.currency,
    f.reason,
    f.status,
    f.failureReason,
    json(f.metadata),
    f.created,
  ];
}

export const AUDIT_EVENT_COLUMNS = 'id, account_id, livemode, seq, type, api_key_id, request, created, hash, previous_hash';

export function auditEventFromRow(r: Row): AuditEventRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: r.livemode === 1,
    seq: r.seq as number,
    type: r.type as AuditEventRecord['type'],
    apiKeyId: r.api_key_id as string,
    request: parse(r.request),
    created: r.created as number,
    hash: r.hash as string,
    previousHash: r.previous_hash as string,
  };
}

export function auditEventToRow(e: AuditEventRecord): SqlValue[] {
  return [e.id, e.accountId, bool(e.livemode), e.seq, e.type, e.apiKeyId, json(e.request), e.created, e.hash, e.previousHash];
}
