import type { CheckoutSessionRecord } from '../records.js';
import type { SqlValue } from './database.js';
import { bool } from './rows.js';

/** Row mapping for checkout sessions (see rows.ts for the conventions). */

type Row = Record<string, unknown>;

export const CHECKOUT_SESSION_COLUMNS =
  'id, account_id, livemode, payment_id, client_secret, status, success_url, cancel_url, metadata, expires_at, completed_at, created';
export const CHECKOUT_SESSION_COLUMN_COUNT = 12;

export function checkoutSessionToRow(s: CheckoutSessionRecord): SqlValue[] {
  return [
    s.id,
    s.accountId,
    bool(s.livemode),
    s.paymentId,
    s.clientSecret,
    s.status,
    s.successUrl,
    s.cancelUrl,
    JSON.stringify(s.metadata),
    s.expiresAt,
    s.completedAt,
    s.created,
  ];
}

export function checkoutSessionFromRow(r: Row): CheckoutSessionRecord {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    livemode: Number(r.livemode) === 1,
    paymentId: r.payment_id as string,
    clientSecret: r.client_secret as string,
    status: r.status as CheckoutSessionRecord['status'],
    successUrl: r.success_url as string,
    cancelUrl: r.cancel_url as string,
    metadata: JSON.parse(r.metadata as string) as Record<string, string>,
    expiresAt: Number(r.expires_at),
    completedAt: r.completed_at === null || r.completed_at === undefined ? null : Number(r.completed_at),
    created: Number(r.created),
  };
}
