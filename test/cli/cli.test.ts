import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { parseKey } from '../../src/domain/api-keys/key-format.js';

describe('payments CLI (SQLite file in DATA_DIR)', () => {
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
  before(() => {
    process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'payments-cli-'));
    process.env.DATABASE_URL = '';
  });
  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runCli(args, (l) => lines.push(l));
    return { code, out: lines.join('\n') };
  };

  test('migrate applies the schema once', async () => {
    const first = await run('migrate');
    assert.equal(first.code, 0);
    assert.match(first.out, /up to date|Applied/);
    assert.match((await run('migrate')).out, /up to date/);
  });

  test('accounts create --json prints the account and its four first keys', async () => {
    const { code, out } = await run('accounts', 'create', '--name', 'Shop', '--json');
    assert.equal(code, 0);
    const created = JSON.parse(out);
    assert.deepEqual(Object.keys(created).sort(), ['account', 'keys']);
    assert.match(created.account, /^acct_/);
    assert.deepEqual(Object.keys(created.keys).sort(), ['publishable_live', 'publishable_test', 'secret_live', 'secret_test']);
    assert.deepEqual(parseKey(created.keys.secret_test), { kind: 'secret', livemode: false, prefix: 'service_test_' });
    assert.deepEqual(parseKey(created.keys.secret_live), { kind: 'secret', livemode: true, prefix: 'service_live_' });
    assert.deepEqual(parseKey(created.keys.publishable_test), { kind: 'publishable', livemode: false, prefix: 'pk_test_' });
    assert.deepEqual(parseKey(created.keys.publishable_live), { kind: 'publishable', livemode: true, prefix: 'pk_live_' });

    const listed = JSON.parse((await run('keys', 'list', '--account', created.account, '--json')).out);
    assert.equal(listed.length, 4);
    assert.ok(!JSON.stringify(listed).includes(created.keys.secret_test.slice(13)), 'keys are never listed');

    const secret = listed.find((k: { prefix: string }) => k.prefix === 'service_test_');
    const rolled = JSON.parse((await run('keys', 'roll', secret.id, '--account', created.account, '--json')).out);
    assert.match(rolled.secret, /^service_test_/);
    assert.ok(rolled.previous.expires_at - rolled.created <= 24 * 3600);
    assert.equal((await run('keys', 'revoke', rolled.id, '--account', created.account)).code, 0);
    await assert.rejects(run('keys', 'revoke', rolled.id, '--account', created.account), /already revoked/);
  });

  test('unknown commands print the usage and fail', async () => {
    const { code, out } = await run('frobnicate');
    assert.equal(code, 1);
    assert.match(out, /Usage: payments/);
  });
});
