import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BACKENDS } from '../../helpers/backends.js';
import { assertProgramPassed, hasCommand, type ProgramFixtures, runProgram, startFixtures } from '../helpers/sdk-program.js';

const program = fileURLToPath(new URL('./program.php', import.meta.url));
const LARAVEL_AUTOLOAD = process.env.LARAVEL_AUTOLOAD ?? '/usr/share/php/Illuminate/autoload.php';
const CHECKS = [
  'container binding',
  'facade',
  'customer created',
  'payment confirmed',
  'pagination',
  'invalid_request_error',
  'card_error',
  'retry-after honoured',
  'dropped connection retried',
  'webhook verified',
  'webhook tampered refused',
];
const missing = !hasCommand('php')
  ? 'php not found: install php-cli, php-curl and php-laravel-framework (Debian) to run the Laravel package tests'
  : !existsSync(LARAVEL_AUTOLOAD)
    ? `Laravel not found at ${LARAVEL_AUTOLOAD}: install php-laravel-framework (Debian) or set LARAVEL_AUTOLOAD`
    : undefined;

for (const backend of BACKENDS) {
  describe(`Laravel package against the service (${backend.name})`, () => {
    if (missing) {
      test.skip(missing);
      return;
    }
    let fixtures: ProgramFixtures;
    before(async () => {
      fixtures = await startFixtures(backend);
    });
    after(() => fixtures.close());

    test('the Laravel test program resolves the client through the container and the facade and passes every check', async () => {
      const result = await runProgram('php', [program], { env: { ...fixtures.env, LARAVEL_AUTOLOAD } });
      assertProgramPassed(result, fixtures, /^payments-sdk-php\/1\.0\.0 /, CHECKS);
    });
  });
}
