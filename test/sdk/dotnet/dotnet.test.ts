import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BACKENDS } from '../../helpers/backends.js';
import { assertProgramPassed, hasCommand, type ProgramFixtures, runProgram, startFixtures } from '../helpers/sdk-program.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const program = fileURLToPath(new URL('./Program.cs', import.meta.url));
const needed = ['mcs', 'mono', 'perl'].filter((c) => !hasCommand(c));
const missing = needed.length ? `${needed.join(', ')} not found: install mono-devel (Debian) to run the .NET SDK tests` : undefined;

describe('.NET SDK against the service', () => {
  if (missing) {
    test.skip(missing);
    return;
  }
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payments-dotnet-'));
    const build = await runProgram('sh', [join(root, 'sdks/dotnet/build-mono.sh'), dir], { env: {} });
    if (build.code !== 0) throw new Error(`build-mono.sh failed:\n${build.stdout}\n${build.stderr}`);
    const compile = await runProgram(
      'mcs',
      [
        '-nologo',
        `-r:${join(dir, 'Payments.dll')}`,
        '-r:System.Net.Http.dll',
        '-r:System.Core.dll',
        `-out:${join(dir, 'program.exe')}`,
        program,
      ],
      { env: {} },
    );
    if (compile.code !== 0) throw new Error(`the test program does not compile:\n${compile.stdout}\n${compile.stderr}`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      let fixtures: ProgramFixtures;
      before(async () => {
        fixtures = await startFixtures(backend);
      });
      after(() => fixtures.close());

      test('the C# test program passes every check', async () => {
        const result = await runProgram('mono', [join(dir, 'program.exe')], { env: fixtures.env, cwd: dir });
        assertProgramPassed(result, fixtures, /^payments-sdk-dotnet\/1\.0\.0$/);
      });
    });
  }
});
