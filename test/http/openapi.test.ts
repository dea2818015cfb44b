import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { openApiDocument } from '../../scripts/openapi-document.js';
import { ROUTE_ACCESS } from '../../src/http/route-access.js';

type Doc = {
  paths: Record<string, Record<string, { operationId?: string; parameters?: { $ref?: string }[]; 'x-permission'?: unknown }>>;
};
const committedText = readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8');
const committed = JSON.parse(committedText) as Doc;

describe('OpenAPI document', () => {
  test('the committed openapi/openapi.json is what the routes produce (run `npm run openapi`)', async () => {
    assert.deepEqual(committed, await openApiDocument());
  });

  test('passes the Redocly linter’s recommended rules with no error or warning', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: committedText, absoluteRef: 'openapi.json', config });
    assert.deepEqual(
      problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`),
      [],
    );
  });

  test('is OpenAPI 3.1 with bearer security and the shared headers', () => {
    const doc = committed as Doc & { openapi: string; components: { securitySchemes: Record<string, { scheme: string }> } };
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.components.securitySchemes.bearerAuth?.scheme, 'bearer');
    const create = doc.paths['/v1/payments']?.post;
    assert.ok(create?.parameters?.some((p) => p.$ref === '#/components/parameters/IdempotencyKey'));
    assert.ok(create?.parameters?.some((p) => p.$ref === '#/components/parameters/ServiceVersion'));
  });

  test('every route has an access rule, and every access rule a route; each operation carries it', () => {
    const documented = new Set<string>();
    for (const [path, methods] of Object.entries(committed.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const key = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
        documented.add(key);
        assert.deepEqual(op['x-permission'], ROUTE_ACCESS[key], key);
        assert.match(String(op.operationId), /^[a-z][a-zA-Z_]*(\.[a-z][a-zA-Z_]*)+$/, key);
      }
    }
    // Browser pages (e.g. /authenticate/:id) are HTML, not API: in the access table but not the document.
    const apiRoutes = Object.keys(ROUTE_ACCESS).filter((k) => k.includes(' /v1/') || k === 'GET /healthz');
    assert.deepEqual([...documented].sort(), apiRoutes.sort());
  });
});
