import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { presentKey } from '../domain/api-keys/present.js';
import { createAccount } from '../domain/accounts/create-account.js';
import { setAccountRateLimit } from '../domain/accounts/set-rate-limit.js';
import { createKey, type KeyChangeContext, revokeKey, rollKey } from '../domain/api-keys/manage-keys.js';
import { exportAuditEvents } from '../domain/audit/retention.js';
import { verifyAuditChains } from '../domain/audit/verify.js';
import { ApiError } from '../errors/api-error.js';
import { type Clock, systemClock } from '../lib/clock.js';
import { type OpenedStore, openStore } from '../store/open-store.js';
import { API_KEY_KINDS, type ApiKeyKind, type ApiKeyRecord } from '../store/records.js';
import { followAudit, parsePermissions, tailAudit } from './audit-commands.js';

const USAGE = `Usage: payments <command>

  accounts create [--name NAME] [--json]   Create an account and its four first keys
  accounts set-limit ACCT [--rate N] [--burst M] [--default] [--json]
                                           The account's rate limit in each mode (requests per
                                           second, bucket size); --default returns to the service
                                           default. Running instances apply it within KEY_CACHE_TTL_MS
  keys list --account ACCT [--json]        List an account's keys (never the keys themselves)
  keys create --account ACCT --kind KIND [--live] [--name N] [--note T] [--permissions P] [--json]
                                           New key (KIND: secret, publishable, restricted);
                                           P for restricted keys: payments=read,customers=write or JSON
  keys roll KEY_ID --account ACCT [--json] New key; the old one stays valid 24 hours
  keys revoke KEY_ID --account ACCT        Revoke a key at once
  audit tail [--account ACCT] [--limit N] [--follow]
                                           The newest audit events as JSON lines; --follow keeps
                                           printing new ones as they are committed (Ctrl-C stops)
  audit verify [--account ACCT]            Check each account's hash chain; exit 3 at a broken link
  audit export --before DATE --out DIR [--account ACCT] [--keep]
                                           Write events created before DATE to JSON Lines files,
                                           then delete them from the database (unless --keep)
  migrate                                  Apply database migrations

The database is chosen as the server chooses it: DATABASE_URL, else DATA_DIR/payments.db.`;

type Out = (line: string) => void;

/** What the CLI runs against; tests pass their own store, clock and stop signal. */
export interface CliDeps {
  store?: OpenedStore;
  clock?: Clock;
  signal?: AbortSignal;
  followIntervalMs?: number;
}

function keyLine(k: ApiKeyRecord, nowMs: number): string {
  const state = k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt * 1000 <= nowMs ? 'expired' : 'active';
  const expires = k.expiresAt ? new Date(k.expiresAt * 1000).toISOString() : 'never';
  const label = [k.name, k.note].filter(Boolean).join(' — ');
  return `${k.id}  ${k.prefix}…${k.last4}  ${k.kind.padEnd(11)} ${state.padEnd(7)} expires ${expires}${label ? `  ${label}` : ''}`;
}

function parseDate(value: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);
  if (!Number.isFinite(ms)) throw new ConfigError(`--before must be a date (2026-01-31 or an ISO time) or unix seconds, got '${value}'.`);
  return Math.floor(ms / 1000);
}

export async function runCli(argv: string[], out: Out = (l) => process.stdout.write(`${l}\n`), deps: CliDeps = {}): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      note: { type: 'string' },
      kind: { type: 'string' },
      permissions: { type: 'string' },
      live: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      account: { type: 'string' },
      limit: { type: 'string' },
      follow: { type: 'boolean', short: 'f', default: false },
      before: { type: 'string' },
      out: { type: 'string' },
      keep: { type: 'boolean', default: false },
      rate: { type: 'string' },
      burst: { type: 'string' },
      default: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [group, action, target] = positionals;
  const command = [group, action].filter(Boolean).join(' ');
  if (values.help || !group) {
    out(USAGE);
    return values.help ? 0 : 1;
  }
  const clock = deps.clock ?? systemClock;
  const withStore = async <T>(fn: (opened: OpenedStore) => Promise<T>): Promise<T> => {
    if (deps.store) return fn(deps.store);
    const config = loadConfig();
    const opened = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, sqliteSynchronous: config.sqliteSynchronous });
    try {
      await opened.migrate();
      return await fn(opened);
    } finally {
      await opened.store.close();
    }
  };
  const requireAccount = () => {
    if (!values.account) throw new ConfigError('--account acct_... is required.');
    return values.account;
  };
  /** The operator acts on the account's keys in either mode; the audit log records no request. */
  const operator = (livemode = false): KeyChangeContext => ({
    scope: { accountId: requireAccount(), livemode },
    nowMs: clock.now(),
    actor: null,
    request: null,
  });
  switch (command) {
    case 'accounts create':
      return withStore(async ({ store }) => {
        const { account, keys } = await createAccount(store, clock, values.name ?? 'Account');
        if (values.json) out(JSON.stringify({ account: account.id, keys }));
        else {
          out(`Created account ${account.id} (${account.name}). Keys, shown only now:`);
          for (const [kind, key] of Object.entries(keys)) out(`  ${kind.padEnd(17)} ${key}`);
        }
        return 0;
      });
    case 'accounts set-limit':
      return withStore(async ({ store }) => {
        if (!target) throw new ConfigError('Name the account: payments accounts set-limit acct_... --rate N --burst M');
        if (!values.default && values.rate === undefined && values.burst === undefined) {
          throw new ConfigError('Give --rate N and/or --burst M, or --default.');
        }
        const whole = (v: string | undefined) => (values.default ? null : v === undefined ? undefined : Number(v));
        const account = await setAccountRateLimit(store, target, { perSecond: whole(values.rate), burst: whole(values.burst) });
        const limit = { rate_limit_per_second: account.rateLimitPerSecond ?? null, rate_limit_burst: account.rateLimitBurst ?? null };
        if (values.json) out(JSON.stringify({ account: account.id, ...limit }));
        else {
          const describe = (v: number | null, unit: string) => (v === null ? `the default ${unit}` : `${v} ${unit}`);
          out(
            `${account.id}: ${describe(limit.rate_limit_per_second, 'requests per second')}, bursts of ${describe(limit.rate_limit_burst, 'requests')}, in each mode.`,
          );
        }
        return 0;
      });
    case 'keys list':
      return withStore(async ({ store }) => {
        const keys = await store.listApiKeys(requireAccount());
        if (values.json) out(JSON.stringify(keys.map((k) => presentKey(k))));
        else for (const k of keys) out(keyLine(k, clock.now()));
        return 0;
      });
    case 'keys create':
      return withStore(async ({ store }) => {
        const kind = values.kind as ApiKeyKind | undefined;
        if (!kind || !API_KEY_KINDS.includes(kind)) throw new ConfigError(`--kind must be one of ${API_KEY_KINDS.join(', ')}.`);
        const ctx = operator(values.live);
        if (!(await store.findAccountById(ctx.scope.accountId))) throw new ConfigError(`No such account: ${ctx.scope.accountId}.`);
        const key = await createKey(store, ctx, {
          kind,
          name: values.name,
          note: values.note,
          permissions: values.permissions === undefined ? undefined : parsePermissions(values.permissions),
        });
        if (values.json) out(JSON.stringify(key));
        else out(`Created ${key.kind} key ${key.id}${key.name ? ` (${key.name})` : ''}. The key, shown only now:\n  ${key.secret}`);
        return 0;
      });
    case 'keys roll':
      return withStore(async ({ store }) => {
        if (!target) throw new ConfigError('Name the key to roll: payments keys roll key_... --account acct_...');
        const { previous, record, object } = await rollKey(store, operator(), target);
        if (values.json) out(JSON.stringify({ ...presentKey(record), secret: object.secret, previous: presentKey(previous) }));
        else {
          out(`New key ${record.id}: ${object.secret}`);
          out(`The old key ${previous.id} stays valid until ${new Date((previous.expiresAt ?? 0) * 1000).toISOString()}.`);
        }
        return 0;
      });
    case 'keys revoke':
      return withStore(async ({ store }) => {
        if (!target) throw new ConfigError('Name the key to revoke: payments keys revoke key_... --account acct_...');
        const key = await revokeKey(store, operator(), target);
        out(values.json ? JSON.stringify(presentKey(key)) : `Revoked ${key.id}.`);
        return 0;
      });
    case 'audit tail':
      return withStore(async ({ store }) => {
        const limit = values.limit === undefined ? 20 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 0 || limit > 10_000) throw new ConfigError('--limit must be an integer from 0 to 10000.');
        const positions = await tailAudit(store, { accountId: values.account, limit }, out);
        if (values.follow) {
          await followAudit(
            store,
            positions,
            { accountId: values.account, intervalMs: deps.followIntervalMs ?? 1000, signal: deps.signal },
            out,
          );
        }
        return 0;
      });
    case 'audit verify':
      return withStore(async ({ store }) => {
        const reports = await verifyAuditChains(store, values.account);
        let broken = 0;
        for (const r of reports) {
          if (values.json) out(JSON.stringify(r));
          else if (r.ok) out(`${r.accountId}  ok  ${r.checked} events (seq ${r.firstSeq}–${r.lastSeq})`);
          else out(`${r.accountId}  BROKEN at seq ${r.seq}${r.eventId ? ` (${r.eventId})` : ''}: ${r.reason}`);
          if (!r.ok) broken += 1;
        }
        if (!values.json && reports.length === 0) out('No audit events yet.');
        return broken > 0 ? 3 : 0;
      });
    case 'audit export':
      return withStore(async ({ store }) => {
        if (!values.before || !values.out) throw new ConfigError('audit export needs --before DATE and --out DIR.');
        const results = await exportAuditEvents(store, {
          beforeSeconds: parseDate(values.before),
          outDir: values.out,
          accountId: values.account,
          keep: values.keep,
        });
        for (const r of results) {
          if (values.json) out(JSON.stringify(r));
          else if (r.file) out(`${r.accountId}  ${r.exported} events (seq ${r.fromSeq}–${r.toSeq}) → ${r.file}; purged ${r.purged}`);
          else out(`${r.accountId}  nothing to export${r.purged ? `; purged ${r.purged} exported earlier` : ''}`);
        }
        return 0;
      });
    case 'migrate':
      return withStore(async (opened) => {
        const applied = await opened.migrate();
        out(applied.length ? `Applied migrations ${applied.join(', ')} to ${opened.description}.` : `${opened.description} is up to date.`);
        return 0;
      });
    default:
      out(`Unknown command: ${command}\n\n${USAGE}`);
      return 1;
  }
}

export function runCliProcess(): void {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  runCli(process.argv.slice(2), undefined, { signal: controller.signal }).then(
    (code) => process.exit(code),
    (err) => {
      const message = err instanceof ApiError || err instanceof ConfigError ? err.message : String(err?.message ?? err);
      process.stderr.write(`payments: ${message}\n`);
      process.exit(err instanceof ApiError || err instanceof ConfigError ? 2 : 1);
    },
  );
}
