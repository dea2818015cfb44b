import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emitter, GeneratedFile } from '../../emitter.js';
import type { ApiModel } from '../../model.js';
import { emitAutoload, emitClient, emitErrors, emitModel, emitObjectTypes, emitService, emitVersion, HEADER } from './code.js';
import { flattenResources, modelSchemas, names } from './names.js';
import { emitReadme, type PackageInfo } from './readme.js';

export const PHP_PACKAGE: PackageInfo = {
  name: 'payments/payments-php',
  version: '1.0.0',
  description: 'The PHP SDK for the payments service.',
};

const RUNTIME_DIR = fileURLToPath(new URL('./runtime/', import.meta.url));

/**
 * The PHP SDK (sdks/php): PSR-4 classes under `Payments\`. Generated from the model: services,
 * models, errors, client, README, composer.json. Copied from runtime/: the hand-written core
 * (request sender over ext-curl, objects, pagination, webhooks, error base).
 */
export const phpEmitter: Emitter = {
  language: 'php',
  outDir: 'sdks/php',
  ignore: ['vendor', 'composer.lock'],
  emit(model: ApiModel): GeneratedFile[] {
    return [
      { path: 'composer.json', contents: composerJson() },
      { path: 'autoload.php', contents: emitAutoload() },
      { path: 'README.md', contents: emitReadme(model, PHP_PACKAGE) },
      { path: `src/${names.client}.php`, contents: emitClient(model) },
      { path: 'src/Version.php', contents: emitVersion(model, PHP_PACKAGE.version) },
      { path: 'src/ObjectTypes.php', contents: emitObjectTypes(model) },
      ...emitErrors(model),
      ...modelSchemas(model).map((s) => ({ path: `src/Model/${names.model(s.name)}.php`, contents: emitModel(s, model) })),
      ...flattenResources(model.resources).map((r) => ({
        path: `src/Service/${names.service(r.path)}.php`,
        contents: emitService(r, model),
      })),
      ...runtimeFiles(),
    ];
  },
};

function composerJson(): string {
  const doc = {
    name: PHP_PACKAGE.name,
    description: PHP_PACKAGE.description,
    type: 'library',
    license: 'MIT',
    version: PHP_PACKAGE.version,
    keywords: ['payments', 'sdk', 'api'],
    require: { php: '>=8.2', 'ext-curl': '*', 'ext-json': '*' },
    autoload: { 'psr-4': { 'Payments\\': 'src/' } },
  };
  return `${JSON.stringify(doc, null, 4)}\n`;
}

/** runtime/**.php → src/**.php, the open tag's line carrying the notice. */
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
    return { path: `src/${relative(RUNTIME_DIR, abs)}`, contents: `${HEADER}${text.slice('<?php'.length)}` };
  });
}
