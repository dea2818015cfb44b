import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildModel } from './build-model.js';
import type { Emitter, GeneratedFile } from './emitter.js';
import { goEmitter } from './emitters/go/index.js';
import { javaEmitter } from './emitters/java/index.js';
import { pythonEmitter } from './emitters/python/index.js';
import { dotnetEmitter } from './emitters/dotnet/index.js';
import { laravelEmitter } from './emitters/laravel/index.js';
import { phpEmitter } from './emitters/php/index.js';
import { typescriptEmitter } from './emitters/typescript/index.js';
import type { OpenApiDocument } from './openapi.js';

/** Every SDK the repository ships. The next language is one more entry here. */
export const EMITTERS: Emitter[] = [typescriptEmitter, pythonEmitter, goEmitter, javaEmitter, phpEmitter, laravelEmitter, dotnetEmitter];

export const DOCUMENT_PATH = 'openapi/openapi.json';

export function readDocument(root: string): OpenApiDocument {
  return JSON.parse(readFileSync(join(root, DOCUMENT_PATH), 'utf8')) as OpenApiDocument;
}

/** What the generator produces for a document: every emitter's files. */
export function generate(doc: OpenApiDocument, emitters: Emitter[] = EMITTERS): GeneratedFile[] {
  const model = buildModel(doc);
  return emitters.flatMap((emitter) =>
    emitter.emit(model).map((file) => ({ path: join(emitter.outDir, file.path), contents: file.contents })),
  );
}

export interface Drift {
  /** Generated files whose committed copy is missing or different. */
  changed: string[];
  /** Files in an emitter's directory that the generator no longer produces. */
  stale: string[];
}

/** Compares the generator's output with the files on disk. */
export function findDrift(root: string, files: GeneratedFile[], emitters: Emitter[] = EMITTERS): Drift {
  const expected = new Map(files.map((f) => [f.path, f.contents]));
  const changed = files
    .filter((f) => {
      const path = join(root, f.path);
      return !existsSync(path) || readFileSync(path, 'utf8') !== f.contents;
    })
    .map((f) => f.path);
  const stale = emitters.flatMap((e) => listFiles(root, e.outDir, e.ignore)).filter((path) => !expected.has(path));
  return { changed, stale };
}

/** Writes the files and removes stale ones. */
export function writeGenerated(root: string, files: GeneratedFile[], emitters: Emitter[] = EMITTERS): Drift {
  const drift = findDrift(root, files, emitters);
  for (const path of drift.changed) {
    const file = files.find((f) => f.path === path) as GeneratedFile;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), file.contents);
  }
  for (const path of drift.stale) rmSync(join(root, path));
  return drift;
}

function listFiles(root: string, dir: string, ignore: string[]): string[] {
  const base = join(root, dir);
  if (!existsSync(base)) return [];
  const walk = (abs: string): string[] =>
    readdirSync(abs).flatMap((name) => {
      const path = join(abs, name);
      const rel = relative(base, path);
      if (ignore.some((i) => rel === i || rel.startsWith(`${i}/`))) return [];
      return statSync(path).isDirectory() ? walk(path) : [join(dir, rel)];
    });
  return walk(base);
}
