import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

for (const backend of BACKENDS) {
  describe(`payments accounts set-limit (${backend.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(() => t.close());
    const run = async (...args: string[]) => {
      const lines: string[] = [];
      const code = await runCli(args, (l) => lines.push(l), { store: t.db, clock: t.clock });
      return { code, out: lines.join('\n') };
    };

    test('sets the account’s rate and burst; the API applies them; --default returns to 100/s, 200', async () => {
      const id = t.account.account.id;
      const set = await run('accounts', 'set-limit', id, '--rate', '2', '--burst', '4', '--json');
      assert.equal(set.code, 0);
      assert.deepEqual(JSON.parse(set.out), { account: id, rate_limit_per_second: 2, rate_limit_burst: 4 });
      const first = await t.call('GET', '/v1/customers');
      assert.equal(first.headers['ratelimit-limit'], '4');
      for (let i = 0; i < 3; i++) await t.call('GET', '/v1/customers');
      assert.equal((await t.call('GET', '/v1/customers')).statusCode, 429);

      const reset = await run('accounts', 'set-limit', id, '--default');
      assert.equal(reset.code, 0);
      assert.match(reset.out, /the default requests per second, bursts of the default requests/);
      t.clock.advance(10_000);
      assert.equal((await t.call('GET', '/v1/customers')).headers['ratelimit-limit'], '200');
    });

    test('refuses bad values and unknown accounts', async () => {
      await assert.rejects(run('accounts', 'set-limit', t.account.account.id, '--rate', '0'), /rate must be a whole number/);
      await assert.rejects(run('accounts', 'set-limit', t.account.account.id, '--burst', '1.5'), /burst must be a whole number/);
      await assert.rejects(run('accounts', 'set-limit', 'acct_nope', '--rate', '5'), /No such account/);
      await assert.rejects(run('accounts', 'set-limit', t.account.account.id), /--rate N and\/or --burst M/);
    });
  });
}
