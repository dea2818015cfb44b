import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emitter, GeneratedFile } from '../../emitter.js';
import type { ApiModel } from '../../model.js';
import { HEADER } from '../php/code.js';
import { PHP_PACKAGE } from '../php/index.js';
import { emitFacade, emitLaravelReadme, LARAVEL_PACKAGE } from './facade.js';

const RUNTIME_DIR = fileURLToPath(new URL('./runtime/', import.meta.url));

/**
 * The Laravel package (sdks/laravel) around the PHP SDK: service provider with the container
 * binding, config file, webhook middleware (copied from runtime/), and a facade with one accessor
 * per top-level resource (generated, so new resources appear on it).
 */
export const laravelEmitter: Emitter = {
  language: 'laravel',
  outDir: 'sdks/laravel',
  ignore: ['vendor', 'composer.lock'],
  emit(model: ApiModel): GeneratedFile[] {
    return [
      { path: 'composer.json', contents: composerJson() },
      { path: 'autoload.php', contents: autoload() },
      { path: 'README.md', contents: emitLaravelReadme(model) },
      { path: 'src/Facades/Payments.php', contents: emitFacade(model) },
      ...runtimeFiles(),
    ];
  },
};

function composerJson(): string {
  const doc = {
    name: LARAVEL_PACKAGE.name,
    description: LARAVEL_PACKAGE.description,
    type: 'library',
    license: 'MIT',
    version: LARAVEL_PACKAGE.version,
    keywords: ['payments', 'laravel', 'sdk'],
    require: {
      php: '>=8.2',
      [PHP_PACKAGE.name]: `^${PHP_PACKAGE.version}`,
      'illuminate/support': '^8.83 || ^9.0 || ^10.0 || ^11.0',
      'illuminate/http': '^8.83 || ^9.0 || ^10.0 || ^11.0',
    },
    autoload: { 'psr-4': { 'Payments\\Laravel\\': 'src/' } },
    extra: {
      laravel: {
        providers: ['Payments\\Laravel\\PaymentsServiceProvider'],
        aliases: { Payments: 'Payments\\Laravel\\Facades\\Payments' },
      },
    },
  };
  return `${JSON.stringify(doc, null, 4)}\n`;
}

function autoload(): string {
  return `${HEADER}

declare(strict_types=1);

// With Composer, its autoloader reads composer.json instead. Without it, require the PHP SDK's
// autoload.php and this file, after Laravel's own autoloader.
spl_autoload_register(static function (string $class): void {
    $prefix = 'Payments\\\\Laravel\\\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    $path = __DIR__ . '/src/' . str_replace('\\\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($path)) {
        require $path;
    }
});
`;
}

function runtimeFiles(): GeneratedFile[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((name) =>
        statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : name.endsWith('.php') ? [join(dir, name)] : [],
      );
  return walk(RUNTIME_DIR).map((abs) => {
    const text = readFileSync(abs, 'utf8');
    if (!text.startsWith('<?php\n')) throw new Error(`${abs} must start with "<?php"`);
    return { path: relative(RUNTIME_DIR, abs), contents: `${HEADER}${text.slice('<?php'.length)}` };
  });
}
