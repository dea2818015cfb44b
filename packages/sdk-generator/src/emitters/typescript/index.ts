import { readdirSync, readFileSync } from 'node:fs';
import type { Emitter, GeneratedFile } from '../../emitter.js';
import type { ApiModel, Resource } from '../../model.js';
import { emitClient, emitIndex, emitVersion } from './client.js';
import { emitErrors } from './errors.js';
import { names } from './names.js';
import { emitPackageFiles, type PackageInfo } from './package-files.js';
import { emitReadme } from './readme.js';
import { emitResource, HEADER } from './resources.js';
import { emitTypes } from './types.js';

const PACKAGE: PackageInfo = {
  name: 'payments-sdk',
  version: '1.0.0',
  description: 'The JavaScript and TypeScript SDK for the payments service.',
};

const RUNTIME_DIR = new URL('./runtime/', import.meta.url);

/**
 * The JavaScript/TypeScript SDK (sdks/js). Generated from the model: resources, types, errors,
 * client, README, package files. Copied from runtime/: the hand-written core (request sender,
 * error base, pagination, webhooks), which is the same for every API.
 */
export const typescriptEmitter: Emitter = {
  language: 'typescript',
  outDir: 'sdks/js',
  ignore: ['dist', 'node_modules'],
  emit(model: ApiModel): GeneratedFile[] {
    const resources = (function flatten(rs: Resource[]): Resource[] {
      return rs.flatMap((r) => [r, ...flatten(r.children)]);
    })(model.resources);
    return [
      ...emitPackageFiles(PACKAGE),
      { path: 'README.md', contents: emitReadme(model, PACKAGE) },
      { path: 'src/index.ts', contents: emitIndex(model) },
      { path: 'src/client.ts', contents: emitClient(model) },
      { path: 'src/types.ts', contents: emitTypes(model) },
      { path: 'src/errors.ts', contents: emitErrors(model) },
      { path: 'src/version.ts', contents: emitVersion(model, PACKAGE.version) },
      ...resources.map((r) => ({ path: `src/${names.resourceFile(r.path)}.ts`, contents: emitResource(r) })),
      ...runtimeFiles(),
    ];
  },
};

function runtimeFiles(): GeneratedFile[] {
  return readdirSync(RUNTIME_DIR)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => ({ path: `src/runtime/${name}`, contents: `${HEADER}\n${readFileSync(new URL(name, RUNTIME_DIR), 'utf8')}` }));
}
