// Writes what is generated from the code's single sources (npm run openapi):
//   openapi/openapi.json  from the routes' schemas and the access table
//   docs/errors.md        from the error registry
// Tests fail when a committed copy differs from what the code produces.
import { writeFileSync } from 'node:fs';
import { errorDocs } from './error-docs.js';
import { openApiDocument } from './openapi-document.js';

for (const [file, content] of [
  ['../openapi/openapi.json', `${JSON.stringify(await openApiDocument(), null, 2)}\n`],
  ['../docs/errors.md', errorDocs()],
] as const) {
  const path = new URL(file, import.meta.url);
  writeFileSync(path, content);
  console.log(`wrote ${path.pathname}`);
}
