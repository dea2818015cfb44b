import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BACKENDS } from '../../helpers/backends.js';
import { assertProgramPassed, hasCommand, type ProgramFixtures, runProgram, startFixtures } from '../helpers/sdk-program.js';

const program = fileURLToPath(new URL('./program.php', import.meta.url));
const missing = !hasCommand('php')
  ? 'php not found: install php-cli and php-curl (Debian) to run the PHP SDK tests'
  : spawnSync('php', ['-r', 'exit(extension_loaded("curl") ? 0 : 1);']).status !== 0
    ? 'php has no curl extension: install php-curl (Debian) to run the PHP SDK tests'
    : undefined;

for (const backend of BACKENDS) {
  describe(`PHP SDK against the service (${backend.name})`, () => {
    if (missing) {
      test.skip(missing);
      return;
    }
    let fixtures: ProgramFixtures;
    before(async () => {
      fixtures = await startFixtures(backend);
    });
    after(() => fixtures.close());

    test('the PHP test program passes every check', async () => {
      const result = await runProgram('php', [program], { env: fixtures.env });
      assertProgramPassed(result, fixtures, /^payments-sdk-php\/1\.0\.0 PHP\/8\./);
    });
  });
}
