// npm run generate: regenerates every SDK from openapi/openapi.json.
// npm run generate -- --check: writes nothing, exits 1 when a committed SDK differs.
import { fileURLToPath } from 'node:url';
import { findDrift, generate, readDocument, writeGenerated } from './generate.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const check = process.argv.includes('--check');
const files = generate(readDocument(root));

if (check) {
  const drift = findDrift(root, files);
  const problems = [...drift.changed.map((p) => `differs: ${p}`), ...drift.stale.map((p) => `not generated: ${p}`)];
  if (problems.length > 0) {
    console.error(`${problems.join('\n')}\nRun \`npm run generate\`.`);
    process.exit(1);
  }
  console.log(`${files.length} generated files match.`);
} else {
  const drift = writeGenerated(root, files);
  console.log(`${files.length} files generated: ${drift.changed.length} written, ${drift.stale.length} removed.`);
}
