import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startServerProcess } from '../helpers/server-process.js';

const run = promisify(execFile);

/** The README's walkthrough, pasted into a shell against a real first-start server, works as written. */
test('the README walkthrough works as written', async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Walkthrough'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the walkthrough has a sh block');
  const server = await startServerProcess();
  try {
    assert.ok(server.keys);
    const script = block
      .replace(/^SK=service_test_….*$/m, `SK=${server.keys.secret}`)
      .replace(/^PK=pk_test_….*$/m, `PK=${server.keys.publishable}`)
      .replace(/^API=.*$/m, `API=${server.url}`);
    assert.notEqual(script, block, 'the placeholders were found');
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: 30_000 });
    assert.match(stdout, /^customer: cus_[0-9a-z]{33}$/m);
    assert.match(stdout, /^token: tok_[0-9a-z]{33}$/m);
    assert.match(stdout, /"object":"payment".*"status":"succeeded"/);
    assert.match(stdout, /^idempotent-replayed: true/im);
    assert.match(stdout, /"object":"list".*"has_more":false/);
    assert.match(stdout, /"code":"parameter_invalid_type".*"param":"amount"/);
  } finally {
    await server.stop();
  }
});
