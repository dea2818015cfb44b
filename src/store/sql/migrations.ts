import type { Migration } from './database.js';

/**
 * Schema migrations, in order. The DDL is written in the subset that SQLite and PostgreSQL both
 * accept (SQLite reads BIGINT as INTEGER affinity), so one list serves both backends.
 * Never edit a released migration: add a new one.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, keys, customers, payments, idempotency',
    sql: `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  default_version TEXT NOT NULL,
  created BIGINT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  kind TEXT NOT NULL,
  prefix TEXT NOT NULL,
  last4 TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  name TEXT,
  permissions TEXT,
  created BIGINT NOT NULL,
  expires_at BIGINT,
  revoked_at BIGINT,
  last_used_at BIGINT
);
CREATE INDEX api_keys_by_account ON api_keys (account_id, livemode, id);

CREATE TABLE customers (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  email TEXT,
  name TEXT,
  description TEXT,
  metadata TEXT NOT NULL,
  created BIGINT NOT NULL,
  deleted_at BIGINT
);
CREATE INDEX customers_live ON customers (account_id, livemode, id) WHERE deleted_at IS NULL;

CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  amount BIGINT NOT NULL,
  currency TEXT NOT NULL,
  description TEXT,
  capture_method TEXT NOT NULL,
  status TEXT NOT NULL,
  amount_capturable BIGINT NOT NULL,
  amount_received BIGINT NOT NULL,
  amount_refunded BIGINT NOT NULL,
  payment_method TEXT,
  last_payment_error TEXT,
  next_action TEXT,
  cancellation_reason TEXT,
  canceled_at BIGINT,
  metadata TEXT NOT NULL,
  created BIGINT NOT NULL
);
CREATE INDEX payments_by_account ON payments (account_id, livemode, id);
CREATE INDEX payments_by_customer ON payments (account_id, livemode, customer_id, id);
CREATE INDEX payments_by_status ON payments (account_id, livemode, status, id);

CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL,
  livemode INTEGER NOT NULL,
  idem_key TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL,
  response_status INTEGER,
  response_body TEXT,
  created BIGINT NOT NULL,
  locked_at BIGINT NOT NULL,
  PRIMARY KEY (account_id, livemode, idem_key)
);
CREATE INDEX idempotency_keys_by_created ON idempotency_keys (created);
`,
  },
  {
    version: 2,
    name: 'events',
    sql: `
CREATE TABLE events (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  request_id TEXT,
  created BIGINT NOT NULL
);
CREATE INDEX events_by_account ON events (account_id, livemode, id);
CREATE INDEX events_by_type ON events (account_id, livemode, type, id);
`,
  },
  {
    version: 10,
    name: 'card vault, tokens, payment card and authorisation columns',
    sql: `
CREATE TABLE cards (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  brand TEXT NOT NULL,
  last4 TEXT NOT NULL,
  exp_month INTEGER NOT NULL,
  exp_year INTEGER NOT NULL,
  funding TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  number_sealed TEXT NOT NULL,
  created BIGINT NOT NULL
);
CREATE INDEX cards_by_fingerprint ON cards (account_id, livemode, fingerprint);

CREATE TABLE tokens (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  card_id TEXT NOT NULL REFERENCES cards (id),
  cvc_sealed TEXT,
  created BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE UNIQUE INDEX tokens_by_card ON tokens (card_id);
CREATE INDEX tokens_with_cvc ON tokens (expires_at) WHERE cvc_sealed IS NOT NULL;

ALTER TABLE payments ADD COLUMN card_id TEXT;
ALTER TABLE payments ADD COLUMN client_secret TEXT;
ALTER TABLE payments ADD COLUMN capture_before BIGINT;
ALTER TABLE payments ADD COLUMN processor_reference TEXT;
CREATE UNIQUE INDEX payments_by_client_secret ON payments (client_secret);
CREATE INDEX payments_capture_before ON payments (capture_before) WHERE status = 'requires_capture';
`,
  },
  {
    version: 11,
    name: 'processor operations (intent log) and the simulated processor ledger',
    sql: `
CREATE TABLE processor_operations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  payment_id TEXT NOT NULL REFERENCES payments (id),
  refund_id TEXT,
  kind TEXT NOT NULL,
  amount BIGINT NOT NULL,
  processor TEXT NOT NULL,
  state TEXT NOT NULL,
  reference TEXT,
  outcome TEXT,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL
);
CREATE INDEX processor_operations_pending ON processor_operations (created) WHERE state = 'pending';
CREATE INDEX processor_operations_by_payment ON processor_operations (payment_id, state);

CREATE TABLE simulated_processor_operations (
  operation_id TEXT PRIMARY KEY,
  reference TEXT NOT NULL,
  kind TEXT NOT NULL,
  amount BIGINT NOT NULL,
  outcome TEXT NOT NULL,
  created BIGINT NOT NULL
);
CREATE INDEX simulated_processor_by_reference ON simulated_processor_operations (reference);
`,
  },
  {
    version: 12,
    name: 'refunds',
    sql: `
CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  payment_id TEXT NOT NULL REFERENCES payments (id),
  amount BIGINT NOT NULL,
  currency TEXT NOT NULL,
  reason TEXT,
  status TEXT NOT NULL,
  failure_reason TEXT,
  metadata TEXT NOT NULL,
  created BIGINT NOT NULL
);
CREATE INDEX refunds_by_account ON refunds (account_id, livemode, id);
CREATE INDEX refunds_by_payment ON refunds (account_id, livemode, payment_id, id);
`,
  },
  {
    version: 30,
    name: 'webhook endpoints, delivery outbox, attempts',
    sql: `
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  url TEXT NOT NULL,
  enabled_events TEXT NOT NULL,
  status TEXT NOT NULL,
  disabled_reason TEXT,
  disabled_at BIGINT,
  secret TEXT NOT NULL,
  description TEXT,
  metadata TEXT NOT NULL,
  consecutive_failures INTEGER NOT NULL,
  failing_since BIGINT,
  created BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_by_account ON webhook_endpoints (account_id, livemode, id);
CREATE INDEX webhook_endpoints_enabled ON webhook_endpoints (account_id, livemode) WHERE status = 'enabled';

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  livemode INTEGER NOT NULL,
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_at BIGINT NOT NULL,
  first_attempted_at BIGINT,
  lease_until BIGINT,
  lease_token TEXT,
  created BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, status);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  livemode INTEGER NOT NULL,
  endpoint_id TEXT NOT NULL,
  delivery_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  succeeded INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  duration_ms INTEGER NOT NULL,
  created BIGINT NOT NULL,
  next_attempt_at BIGINT
);
CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts (endpoint_id, id);
CREATE INDEX webhook_attempts_by_event ON webhook_attempts (endpoint_id, event_id, id);
`,
  },
  {
    version: 20,
    name: 'key notes and expiry marks; audit log with a hash chain per account; audit retention marks',
    sql: `
ALTER TABLE api_keys ADD COLUMN note TEXT;
ALTER TABLE api_keys ADD COLUMN expiry_recorded_at BIGINT;
CREATE INDEX api_keys_expiring ON api_keys (expires_at) WHERE expiry_recorded_at IS NULL;

CREATE TABLE audit_events (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  seq BIGINT NOT NULL,
  type TEXT NOT NULL,
  api_key_id TEXT NOT NULL,
  request TEXT,
  created BIGINT NOT NULL,
  hash TEXT NOT NULL,
  previous_hash TEXT NOT NULL
);
CREATE UNIQUE INDEX audit_events_chain ON audit_events (account_id, seq);
CREATE INDEX audit_events_by_account ON audit_events (account_id, livemode, id);
CREATE INDEX audit_events_by_key ON audit_events (account_id, livemode, api_key_id, id);
CREATE INDEX audit_events_by_type ON audit_events (account_id, livemode, type, id);

CREATE TABLE audit_chain_heads (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  seq BIGINT NOT NULL,
  hash TEXT NOT NULL
);

CREATE TABLE audit_retention (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  exported_through_seq BIGINT NOT NULL,
  exported_through_hash TEXT NOT NULL,
  purged_through_seq BIGINT NOT NULL,
  purged_through_hash TEXT NOT NULL
);
`,
  },
  {
    version: 40,
    name: 'per-account rate limits (null: the service default)',
    sql: `
ALTER TABLE accounts ADD COLUMN rate_limit_per_second INTEGER;
ALTER TABLE accounts ADD COLUMN rate_limit_burst INTEGER;
`,
  },
  {
    version: 50,
    name: 'checkout sessions',
    sql: `
CREATE TABLE checkout_sessions (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  livemode INTEGER NOT NULL,
  payment_id TEXT NOT NULL REFERENCES payments (id),
  client_secret TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  success_url TEXT NOT NULL,
  cancel_url TEXT NOT NULL,
  metadata TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  completed_at BIGINT,
  created BIGINT NOT NULL
);
CREATE INDEX checkout_sessions_by_account ON checkout_sessions (account_id, livemode, id);
CREATE INDEX checkout_sessions_by_payment ON checkout_sessions (payment_id);
`,
  },
];
