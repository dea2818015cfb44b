import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildModel } from '../../packages/sdk-generator/src/build-model.js';
import type { GeneratedFile } from '../../packages/sdk-generator/src/emitter.js';
import { dotnetEmitter } from '../../packages/sdk-generator/src/emitters/dotnet/index.js';
import { laravelEmitter } from '../../packages/sdk-generator/src/emitters/laravel/index.js';
import { phpEmitter } from '../../packages/sdk-generator/src/emitters/php/index.js';
import type { OpenApiDocument } from '../../packages/sdk-generator/src/openapi.js';
import { hasCommand } from './helpers/sdk-program.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const model = buildModel(JSON.parse(readFileSync(join(root, 'test/sdk/fixtures/synthetic-openapi.json'), 'utf8')) as OpenApiDocument);

function writeTo(dir: string, files: GeneratedFile[]): void {
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.contents);
  }
}

describe('PHP, Laravel and .NET emitters: new endpoints need no generator change', () => {
  test('PHP: nested resources, new error types, and every file parses', (t) => {
    const files = phpEmitter.emit(model);
    const byPath = new Map(files.map((f) => [f.path, f.contents]));
    assert.match(byPath.get('src/Service/CheckoutService.php') ?? '', /public readonly CheckoutSessionsService \$sessions;/);
    assert.match(
      byPath.get('src/Service/ApiKeysService.php') ?? '',
      /public function roll\(string \$id, \?RequestOptions \$options = null\): ApiKey/,
    );
    assert.match(byPath.get('src/Exception/TeapotError.php') ?? '', /class TeapotError extends PaymentsError/);
    assert.match(byPath.get('README.md') ?? '', /\$client->checkout->sessions->create/);
    if (!hasCommand('php')) return t.skip('php not found: install php-cli (Debian) to lint the generated PHP');
    const dir = join(root, '.tmp', `sdk-php-synthetic-${process.pid}`);
    try {
      writeTo(dir, files);
      for (const f of files.filter((x) => x.path.endsWith('.php'))) execFileSync('php', ['-l', join(dir, f.path)], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Laravel: the facade has an accessor per top-level resource', () => {
    const facade = laravelEmitter.emit(model).find((f) => f.path === 'src/Facades/Payments.php')?.contents ?? '';
    assert.match(facade, /public static function checkout\(\): CheckoutService/);
    assert.match(facade, /public static function apiKeys\(\): ApiKeysService/);
  });

  test('.NET: the synthetic SDK compiles with Mono', async (t) => {
    const files = dotnetEmitter.emit(model);
    const byPath = new Map(files.map((f) => [f.path, f.contents]));
    assert.match(byPath.get('src/Services/CheckoutService.cs') ?? '', /public CheckoutSessionsService Sessions \{ get; \}/);
    assert.match(byPath.get('src/Errors.cs') ?? '', /public class TeapotError : PaymentsError/);
    if (!hasCommand('mcs')) return t.skip('mcs not found: install mono-devel (Debian) to compile the generated C#');
    const dir = join(root, '.tmp', `sdk-dotnet-synthetic-${process.pid}`);
    try {
      writeTo(dir, files);
      execFileSync('sh', [join(dir, 'build-mono.sh'), join(dir, 'out')], { stdio: 'pipe' });
    } catch (err) {
      assert.fail(`the synthetic .NET SDK does not compile:\n${(err as { stdout?: Buffer }).stdout?.toString() ?? err}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
