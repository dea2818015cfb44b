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
];
