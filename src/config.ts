import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LIVE_CONNECTORS } from './domain/processor/processors.js';
import { KeyringError, parseKeyring } from './domain/tokens/keyring.js';

/** Everything the service reads from its environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  tls: { cert: Buffer; key: Buffer } | undefined;
  logLevel: string;
  /** Fastify's trustProxy: false, true, or a list of addresses/CIDRs whose X-Forwarded-* headers count. */
  trustProxy: boolean | string[];
  keyCacheTtlMs: number;
  sqliteSynchronous: 'NORMAL' | 'FULL';
  shutdownTimeoutMs: number;
  /** CARD_ENCRYPTION_KEY: base64 32 bytes, or `v2:<base64>,v1:<base64>` (first is current). Unset: a key file in dataDir. */
  cardEncryptionKey: string | undefined;
  /** CARD_FINGERPRINT_KEY: base64 HMAC key for card fingerprints. Unset: derived from the oldest card key. */
  cardFingerprintKey: string | undefined;
  /** PROCESSOR: the live-mode connector. Unset: live payments answer processor_not_configured. */
  processor: string | undefined;
  /** PUBLIC_URL: the origin customers' browsers reach the service on (authentication links). */
  publicUrl: string | undefined;
  /** How long a processor call may stay unanswered before reconciliation resolves it. */
  reconcileGraceMs: number;
  /** How often the authorisation-expiry sweeper and reconciliation run. */
  sweepIntervalMs: number;
  /** How often the webhook worker looks for due deliveries; 0 turns delivery off in this process. */
  webhookPollMs: number;
  webhookTimeoutMs: number;
  /** Exported audit events older than this are purged by the server; unexported ones are kept and reported. */
  auditRetentionDays: number;
  /** How often batched audit events (reads, refused requests) are committed: the most a crash can lose. */
  auditFlushMs: number;
  /** REDIS_URL: shares rate-limit buckets across instances; unset, each instance limits on its own. */
  redisUrl: string | undefined;
  rateLimit: { enabled: boolean; perSecond: number; burst: number };
  /** MAX_IN_FLIGHT: requests served at once; beyond, 503 service_overloaded. */
  maxInFlight: number;
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number; idleSocketMs: number };
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got '${raw}'.`);
  }
  return value;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got '${env[name]}'.`);
}

function checkedRedisUrl(value: string | undefined): string | undefined {
  if (value !== undefined && !/^rediss?:\/\//.test(value))
    throw new ConfigError('REDIS_URL must look like redis://host:6379 (or rediss://).');
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function checkedCardKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    parseKeyring(value);
  } catch (err) {
    throw new ConfigError(err instanceof KeyringError ? err.message : 'CARD_ENCRYPTION_KEY is invalid.');
  }
  return value;
}

function checkedProcessor(value: string | undefined): string | undefined {
  if (value !== undefined && !(LIVE_CONNECTORS as readonly string[]).includes(value)) {
    throw new ConfigError(`PROCESSOR must be one of ${LIVE_CONNECTORS.join(', ')} (or unset), got '${value}'.`);
  }
  return value;
}

function checkedPublicUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^https?:\/\/[^/]+$/.test(value.replace(/\/$/, '')))
    throw new ConfigError('PUBLIC_URL must be an origin like https://pay.example.com.');
  return value.replace(/\/$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const certFile = env.TLS_CERT_FILE || undefined;
  const keyFile = env.TLS_KEY_FILE || undefined;
  if (Boolean(certFile) !== Boolean(keyFile)) {
    throw new ConfigError('Set both TLS_CERT_FILE and TLS_KEY_FILE, or neither.');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}.`);
  const trustRaw = env.TRUST_PROXY ?? '';
  const trustProxy =
    trustRaw === '' || trustRaw === 'false' ? false : trustRaw === 'true' ? true : trustRaw.split(',').map((s) => s.trim());
  const sync = (env.SQLITE_SYNCHRONOUS || 'NORMAL').toUpperCase();
  if (sync !== 'NORMAL' && sync !== 'FULL') throw new ConfigError('SQLITE_SYNCHRONOUS must be NORMAL or FULL.');
  return {
    port: integer(env, 'PORT', 4242, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR || './data'),
    tls: certFile && keyFile ? { cert: readFileSync(certFile), key: readFileSync(keyFile) } : undefined,
    logLevel,
    trustProxy,
    keyCacheTtlMs: integer(env, 'KEY_CACHE_TTL_MS', 2000, 0, 600_000),
    sqliteSynchronous: sync,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    cardEncryptionKey: checkedCardKey(env.CARD_ENCRYPTION_KEY || undefined),
    cardFingerprintKey: env.CARD_FINGERPRINT_KEY || undefined,
    processor: checkedProcessor(env.PROCESSOR || undefined),
    publicUrl: checkedPublicUrl(env.PUBLIC_URL || undefined),
    reconcileGraceMs: integer(env, 'RECONCILE_GRACE_MS', 60_000, 0, 86_400_000),
    sweepIntervalMs: integer(env, 'SWEEP_INTERVAL_MS', 60_000, 100, 86_400_000),
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 1000, 0, 3_600_000),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 90, 1, 36_500),
    auditFlushMs: integer(env, 'AUDIT_FLUSH_MS', 200, 10, 60_000),
    redisUrl: checkedRedisUrl(env.REDIS_URL || undefined),
    rateLimit: {
      enabled: boolean(env, 'RATE_LIMIT_ENABLED', true),
      perSecond: integer(env, 'RATE_LIMIT_DEFAULT_PER_SECOND', 100, 1, 1_000_000),
      burst: integer(env, 'RATE_LIMIT_DEFAULT_BURST', 200, 1, 1_000_000),
    },
    maxInFlight: integer(env, 'MAX_IN_FLIGHT', 512, 1, 1_000_000),
    timeouts: {
      requestMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
      headersMs: integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
      keepAliveMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 600_000),
      idleSocketMs: integer(env, 'IDLE_SOCKET_TIMEOUT_MS', 120_000, 100, 3_600_000),
    },
  };
}
