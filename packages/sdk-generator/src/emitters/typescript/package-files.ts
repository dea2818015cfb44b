import { GENERATED_NOTICE } from '../../emitter.js';
import { HEADER } from './resources.js';

export interface PackageInfo {
  name: string;
  version: string;
  description: string;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** package.json, tsconfigs and the build script: ESM + CommonJS + .d.ts from one source with tsc. */
export function emitPackageFiles(info: PackageInfo): { path: string; contents: string }[] {
  const compilerOptions = {
    target: 'ES2022',
    lib: ['ES2022'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    declaration: true,
    sourceMap: false,
    rootDir: 'src',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
  };
  return [
    {
      path: 'package.json',
      contents: json({
        name: info.name,
        version: info.version,
        description: info.description,
        license: 'MIT',
        type: 'module',
        engines: { node: '>=20' },
        main: './dist/cjs/index.js',
        types: './dist/cjs/index.d.ts',
        exports: {
          '.': {
            import: { types: './dist/esm/index.d.ts', default: './dist/esm/index.js' },
            require: { types: './dist/cjs/index.d.ts', default: './dist/cjs/index.js' },
          },
          './package.json': './package.json',
        },
        files: ['dist', 'README.md'],
        sideEffects: false,
        scripts: {
          build: 'tsc -p tsconfig.esm.json && tsc -p tsconfig.cjs.json && node scripts/finish-build.js',
          prepare: 'npm run build',
          typecheck: 'tsc -p tsconfig.json --noEmit',
        },
        devDependencies: { '@types/node': '^20.19.0', typescript: '^5.9.0' },
      }),
    },
    { path: 'tsconfig.json', contents: json({ compilerOptions: { ...compilerOptions, noEmit: true }, include: ['src'] }) },
    { path: 'tsconfig.esm.json', contents: json({ extends: './tsconfig.json', compilerOptions: { noEmit: false, outDir: 'dist/esm' } }) },
    {
      path: 'tsconfig.cjs.json',
      contents: json({
        extends: './tsconfig.json',
        compilerOptions: { noEmit: false, outDir: 'dist/cjs', module: 'CommonJS', moduleResolution: 'Node10' },
      }),
    },
    {
      path: 'scripts/finish-build.js',
      contents: `${HEADER}
// Marks each output folder with its module format, so Node loads dist/esm as ESM and dist/cjs as CommonJS.
import { writeFileSync } from 'node:fs';

writeFileSync(new URL('../dist/esm/package.json', import.meta.url), '{ "type": "module" }\\n');
writeFileSync(new URL('../dist/cjs/package.json', import.meta.url), '{ "type": "commonjs" }\\n');
`,
    },
    { path: '.gitignore', contents: `# ${GENERATED_NOTICE}\ndist/\nnode_modules/\n*.tgz\n` },
  ];
}
