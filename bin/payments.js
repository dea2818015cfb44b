#!/usr/bin/env node
// The `payments` command. Runs the compiled CLI (npm ci and npm start build it into dist/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
if (!existsSync(compiled)) {
  process.stderr.write('payments: not built yet; run `npm run build` first.\n');
  process.exit(1);
}
const { runCliProcess } = await import(compiled);
runCliProcess();
