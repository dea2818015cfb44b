import assert from 'node:assert/strict';
import { readdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { javaEmitter } from '../../../packages/sdk-generator/src/emitters/java/index.js';
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
const missing = missingCommand('javac', ['-version']) ?? missingCommand('java', ['-version']);

const javaFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? javaFiles(path) : name.endsWith('.java') ? [path] : [];
  });

/** javac with no build tool, every lint warning an error: the SDK's sources and the test program, into a temporary class directory. */
async function compile(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'payments-java-sdk-'));
  const sources = [...javaFiles(join(root, 'sdks/java/src/main/java')), join(root, 'test/sdk/java/SdkTest.java')];
  const javac = await run('javac', ['-Xlint:all', '-Werror', '-d', out, ...sources]);
  assert.equal(javac.code, 0, `javac:\n${javac.stdout}${javac.stderr}`);
  return out;
}

describe('Java SDK generation', () => {
  test('a synthetic document (nested resources, odd names, body and query) compiles with -Werror', { skip: missing }, async () => {
    const dir = emitSynthetic(javaEmitter);
    try {
      const javac = await run('javac', ['-Xlint:all', '-Werror', '-d', join(dir, 'classes'), ...javaFiles(join(dir, 'src'))]);
      assert.equal(javac.code, 0, `javac:\n${javac.stdout}${javac.stderr}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const backend of BACKENDS) {
  describe(`Java SDK against the service (${backend.name})`, () => {
    let fixture: LanguageFixture;
    let classes: string;
    before(async () => {
      if (missing) return;
      classes = await compile();
      fixture = await startLanguageFixture(backend);
    });
    after(async () => {
      await fixture?.close();
      if (classes) rmSync(classes, { recursive: true, force: true });
    });

    test('the test program passes every check', { skip: missing }, async () => {
      const result = await run('java', ['-cp', classes, 'SdkTest'], { env: fixture.env });
      assert.equal(result.code, 0, `the Java program failed:\n${result.stdout}\n${result.stderr}`);
      assert.deepEqual(passedChecks(result.stdout), [...CHECKS]);
      assert.equal(fixture.drop.idempotencyKeys.length, 2, 'the dropped POST was sent twice');
      assert.equal(fixture.drop.idempotencyKeys[0], fixture.drop.idempotencyKeys[1], 'with the same Idempotency-Key');
      assert.equal(fixture.rateLimit.requests.length, 3, 'one 429 thrown, one 429 retried after Retry-After');
      assert.match(String(fixture.rateLimit.requests[0]?.['user-agent']), /^payments-sdk-java\/1\.0\.0$/);
    });
  });
}
