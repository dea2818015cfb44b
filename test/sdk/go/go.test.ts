import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { goEmitter } from '../../../packages/sdk-generator/src/emitters/go/index.js';
import { GO_MODULE } from '../../../packages/sdk-generator/src/emitters/go/readme.js';
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
const missing = missingCommand('go', ['version']);

/**
 * The test program is its own module that requires the SDK through a `replace` to sdks/go, built
 * offline (GOPROXY=off) in a temporary GOPATH: the SDK's go.mod has no requires to fetch.
 */
function programDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'payments-go-sdk-'));
  writeFileSync(
    join(dir, 'go.mod'),
    `module sdktest\n\ngo 1.19\n\nrequire ${GO_MODULE} v0.0.0\n\nreplace ${GO_MODULE} => ${join(root, 'sdks/go')}\n`,
  );
  copyFileSync(join(root, 'test/sdk/go/program/main.go'), join(dir, 'main.go'));
  return dir;
}

const goEnv = (dir: string) => ({ GOPATH: join(dir, 'gopath'), GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' });

describe('Go SDK sources', () => {
  test('go vet passes on the SDK and gofmt has nothing to change', { skip: missing }, async () => {
    const dir = programDir();
    try {
      const vet = await run('go', ['vet', GO_MODULE], { cwd: dir, env: goEnv(dir) });
      assert.equal(vet.code, 0, `go vet:\n${vet.stdout}${vet.stderr}`);
      const fmt = await run('gofmt', ['-l', join(root, 'sdks/go')]);
      assert.equal(fmt.stdout, '', `gofmt would change:\n${fmt.stdout}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(
    'a synthetic document (nested resources, odd names, body and query) gives a vetted, gofmt-clean SDK',
    { skip: missing },
    async () => {
      const dir = emitSynthetic(goEmitter);
      try {
        const vet = await run('go', ['vet', '.'], { cwd: dir, env: goEnv(dir) });
        assert.equal(vet.code, 0, `go vet:\n${vet.stdout}${vet.stderr}`);
        const fmt = await run('gofmt', ['-l', '.'], { cwd: dir });
        assert.equal(fmt.stdout, '', `gofmt would change:\n${fmt.stdout}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

for (const backend of BACKENDS) {
  describe(`Go SDK against the service (${backend.name})`, () => {
    let fixture: LanguageFixture;
    let dir: string;
    before(async () => {
      if (missing) return;
      dir = programDir();
      const build = await run('go', ['build', '-o', 'sdktest', '.'], { cwd: dir, env: goEnv(dir) });
      assert.equal(build.code, 0, `go build:\n${build.stdout}${build.stderr}`);
      fixture = await startLanguageFixture(backend);
    });
    after(async () => {
      await fixture?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('the test program passes every check', { skip: missing }, async () => {
      const result = await run(join(dir, 'sdktest'), [], { cwd: dir, env: fixture.env });
      assert.equal(result.code, 0, `the Go program failed:\n${result.stdout}\n${result.stderr}`);
      assert.deepEqual(passedChecks(result.stdout), [...CHECKS]);
      assert.equal(fixture.drop.idempotencyKeys.length, 2, 'the dropped POST was sent twice');
      assert.equal(fixture.drop.idempotencyKeys[0], fixture.drop.idempotencyKeys[1], 'with the same Idempotency-Key');
      assert.equal(fixture.rateLimit.requests.length, 3, 'one 429 returned, one 429 retried after Retry-After');
      assert.match(String(fixture.rateLimit.requests[0]?.['user-agent']), /^payments-sdk-go\/1\.0\.0$/);
    });
  });
}
