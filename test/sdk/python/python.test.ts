import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { BACKENDS } from '../../helpers/backends.js';
import { CHECKS, type LanguageFixture, missingCommand, passedChecks, run, startLanguageFixture } from '../helpers/language-fixture.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const missing = missingCommand('python3');

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
