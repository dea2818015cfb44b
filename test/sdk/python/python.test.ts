import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pythonEmitter } from '../../../packages/sdk-generator/src/emitters/python/index.js';
import { BACKENDS } from '../../helpers/backends.js';
import {
  CHECKS,
  emitSynthetic,
  type LanguageFixture,
  missingCommand,
  passedChecks,
  run,
  startLanguageFixture,
} from '../helpers/language-fixture.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const missing = missingCommand('python3');

describe('Python SDK generation', () => {
  test('a synthetic document (nested resources, odd names, body and query) gives an importable SDK', { skip: missing }, async () => {
    const dir = emitSynthetic(pythonEmitter);
    try {
      const script = [
        'import payments',
        'client = payments.Client("service_test_x")',
        'assert callable(client.checkout.sessions.create) and callable(client.api_keys.roll)',
        'assert issubclass(payments.TeapotError, payments.PaymentsError)',
        'print("ok")',
      ].join('; ');
      const result = await run('python3', ['-c', script.replace(/; /g, '\n')], {
        cwd: dir,
        env: { PYTHONPATH: dir, PYTHONDONTWRITEBYTECODE: '1' },
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), 'ok');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const backend of BACKENDS) {
  describe(`Python SDK against the service (${backend.name})`, () => {
    let fixture: LanguageFixture;
    before(async () => {
      if (!missing) fixture = await startLanguageFixture(backend);
    });
    after(() => fixture?.close());

    test('the test program passes every check', { skip: missing }, async () => {
      const result = await run('python3', ['test/sdk/python/sdk_test.py'], {
        cwd: root,
        env: { ...fixture.env, PYTHONPATH: 'sdks/python', PYTHONDONTWRITEBYTECODE: '1' },
      });
      assert.equal(result.code, 0, `python3 failed:\n${result.stdout}\n${result.stderr}`);
      assert.deepEqual(passedChecks(result.stdout), [...CHECKS]);
      assert.equal(fixture.drop.idempotencyKeys.length, 2, 'the dropped POST was sent twice');
      assert.equal(fixture.drop.idempotencyKeys[0], fixture.drop.idempotencyKeys[1], 'with the same Idempotency-Key');
      assert.equal(fixture.rateLimit.requests.length, 3, 'one 429 raised, one 429 retried after Retry-After');
      assert.match(String(fixture.rateLimit.requests[0]?.['user-agent']), /^payments-sdk-python\/1\.0\.0$/);
    });
  });
}
