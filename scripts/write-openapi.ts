// Writes openapi/openapi.json from the routes (npm run openapi). test/http/openapi.test.ts fails
// when the committed copy differs from what the routes produce.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from './openapi-document.js';

const path = new URL('../openapi/openapi.json', import.meta.url);
writeFileSync(path, `${JSON.stringify(await openApiDocument(), null, 2)}\n`);
console.log(`wrote ${path.pathname}`);
