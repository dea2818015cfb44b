#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner (through tsx), prints the spec report,
// and ends with one line `N passed, N failed` that CI reads.
// Usage: npm test [-- path-fragment ...]   (only test files whose path contains a fragment)
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = find(join(root, 'test'))
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('No test files match.');
  process.exit(1);
}

mkdirSync(join(root, '.tmp'), { recursive: true });
const tap = join(root, '.tmp', 'test-report.tap');
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...files,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
child.on('exit', (code, signal) => {
  const report = readFileSync(tap, 'utf8');
  const count = (name) => Number(report.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  console.log(`${count('pass')} passed, ${count('fail')} failed${count('skipped') ? `, ${count('skipped')} skipped` : ''}`);
  process.exit(code ?? (signal ? 1 : 0));
});
