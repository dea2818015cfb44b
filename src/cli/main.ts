import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { createAccount } from '../domain/accounts/create-account.js';
import { revokeKey, rollKey } from '../domain/api-keys/manage-keys.js';
import { ApiError } from '../errors/api-error.js';
import { systemClock } from '../lib/clock.js';
import { type OpenedStore, openStore } from '../store/open-store.js';
import type { ApiKeyRecord } from '../store/records.js';

const USAGE = `Usage: payments <command>

  accounts create [--name NAME] [--json]   Create an account and its four first keys
  keys list --account ACCT [--json]        List an account's keys (never the keys themselves)
  keys roll KEY_ID --account ACCT [--json] New key; the old one stays valid 24 hours
  keys revoke KEY_ID --account ACCT        Revoke a key at once
  migrate                                  Apply database migrations

The database is chosen as the server chooses it: DATABASE_URL, else DATA_DIR/payments.db.`;

type Out = (line: string) => void;

async function withStore<T>(fn: (opened: OpenedStore) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const opened = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, sqliteSynchronous: config.sqliteSynchronous });
  try {
    await opened.migrate();
    return await fn(opened);
  } finally {
    await opened.store.close();
  }
}

function keyLine(k: ApiKeyRecord): string {
  const state = k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt * 1000 <= Date.now() ? 'expired' : 'active';
  const expires = k.expiresAt ? new Date(k.expiresAt * 1000).toISOString() : 'never';
  return `${k.id}  ${k.prefix}…${k.last4}  ${k.kind.padEnd(11)} ${state.padEnd(7)} expires ${expires}${k.name ? `  ${k.name}` : ''}`;
}

function keyJson(k: ApiKeyRecord) {
  return {
    id: k.id,
    prefix: k.prefix,
    last4: k.last4,
    kind: k.kind,
    livemode: k.livemode,
    name: k.name,
    permissions: k.permissions,
    created: k.created,
    expires_at: k.expiresAt,
    revoked_at: k.revokedAt,
  };
}

export async function runCli(argv: string[], out: Out = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      json: { type: 'boolean', default: false },
      account: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [group, action, target] = positionals;
  const command = [group, action].filter(Boolean).join(' ');
  if (values.help || !group) {
    out(USAGE);
    return values.help ? 0 : 1;
  }
  const requireAccount = () => {
    if (!values.account) throw new ConfigError('--account acct_... is required.');
    return values.account;
  };
  switch (command) {
    case 'accounts create':
      return withStore(async ({ store }) => {
        const { account, keys } = await createAccount(store, systemClock, values.name ?? 'Account');
        if (values.json) out(JSON.stringify({ account: account.id, keys }));
        else {
          out(`Created account ${account.id} (${account.name}). Keys, shown only now:`);
          for (const [kind, key] of Object.entries(keys)) out(`  ${kind.padEnd(17)} ${key}`);
        }
        return 0;
      });
    case 'keys list':
      return withStore(async ({ store }) => {
        const keys = await store.listApiKeys(requireAccount());
        if (values.json) out(JSON.stringify(keys.map(keyJson)));
        else for (const k of keys) out(keyLine(k));
        return 0;
      });
    case 'keys roll':
      return withStore(async ({ store }) => {
        if (!target) throw new ConfigError('Name the key to roll: payments keys roll key_... --account acct_...');
        const { previous, record, secret } = await rollKey(store, systemClock, requireAccount(), target);
        if (values.json) out(JSON.stringify({ ...keyJson(record), secret, previous: keyJson(previous) }));
        else {
          out(`New key ${record.id}: ${secret}`);
          out(`The old key ${previous.id} stays valid until ${new Date((previous.expiresAt ?? 0) * 1000).toISOString()}.`);
        }
        return 0;
      });
    case 'keys revoke':
      return withStore(async ({ store }) => {
        if (!target) throw new ConfigError('Name the key to revoke: payments keys revoke key_... --account acct_...');
        const key = await revokeKey(store, systemClock, requireAccount(), target);
        out(values.json ? JSON.stringify(keyJson(key)) : `Revoked ${key.id}.`);
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
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      const message = err instanceof ApiError || err instanceof ConfigError ? err.message : String(err?.message ?? err);
      process.stderr.write(`payments: ${message}\n`);
      process.exit(err instanceof ApiError || err instanceof ConfigError ? 2 : 1);
    },
  );
}
