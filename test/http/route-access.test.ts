import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { openApiDocument } from '../../scripts/openapi-document.js';
import { ROUTE_ACCESS, type RouteAccess, routeKey } from '../../src/http/route-access.js';
import { PERMISSION_RESOURCES, type PermissionLevel, type PermissionResource } from '../../src/store/records.js';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

type Operation = { operationId?: string; 'x-permission'?: RouteAccess | null };
const committed = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

/** Every operation of the committed OpenAPI document, with the access it declares. */
const operations = Object.entries(committed.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    route: path.replace(/\{(\w+)\}/g, ':$1'),
    url: path.replace(/\{(\w+)\}/g, 'x_00000000'),
    access: op['x-permission'],
    name: `${method.toUpperCase()} ${path}`,
  })),
);

describe('route access table', () => {
  test('the committed OpenAPI document is current and declares x-permission on every operation, as ROUTE_ACCESS says', async () => {
    assert.deepEqual(await openApiDocument(), committed, 'run `npm run openapi`');
    for (const op of operations) {
      assert.ok(op.access, `${op.name} has no entry in ROUTE_ACCESS`);
      assert.deepEqual(op.access, ROUTE_ACCESS[routeKey(op.method, op.route)], op.name);
    }
    const documented = new Set(operations.map((op) => routeKey(op.method, op.route)));
    // Browser pages (/authenticate/:id) are HTML, not API: in the access table, not in the document.
    const apiRoutes = Object.keys(ROUTE_ACCESS).filter((k) => k.includes(' /v1/') || k === 'GET /healthz');
    for (const route of apiRoutes) assert.ok(documented.has(route), `${route} is in ROUTE_ACCESS but not documented`);
  });
});

for (const backend of BACKENDS) {
  describe(`every route enforces its x-permission: ${backend.name}`, () => {
    let t: TestApp;
    const restricted = new Map<string, string>();
    const keyFor = (resource: PermissionResource | 'none', level: PermissionLevel) => restricted.get(`${resource}:${level}`) as string;

    before(async () => {
      t = await createTestApp(backend);
      const grants: [PermissionResource | 'none', PermissionLevel, Record<string, PermissionLevel>][] = [['none', 'none', {}]];
      for (const r of PERMISSION_RESOURCES) for (const level of ['read', 'write'] as const) grants.push([r, level, { [r]: level }]);
      // One key with everything: resources other keys lack must not matter for the `account` routes either.
      grants.push(['none', 'write', Object.fromEntries(PERMISSION_RESOURCES.map((r) => [r, 'write']))]);
      for (const [resource, level, permissions] of grants) {
        const res = await t.call('POST', '/v1/api_keys', { body: { kind: 'restricted', permissions } });
        assert.equal(res.statusCode, 200, res.body);
        restricted.set(`${resource}:${level}`, res.json().secret);
      }
    });
    after(async () => t.close());

    const send = (op: (typeof operations)[number], key: string) =>
      t.call(op.method, op.url, { key, ...(op.method === 'POST' ? { body: {} } : {}) });
    const scopeRefused = (status: number, body: string) => status === 403 && JSON.parse(body).error.code === 'insufficient_scope';

    for (const op of operations) {
      const access = op.access;
      if (!access || access.auth === 'none') {
        test(`${op.name} needs no key`, async () => {
          const res = await t.call(op.method, op.url, { key: null });
          assert.ok(res.statusCode < 400, `${op.name}: ${res.statusCode}`);
        });
        continue;
      }
      test(`${op.name} needs ${access.resource}: ${access.level}`, async () => {
        const secret = await send(op, t.account.keys.secret_test);
        assert.ok(secret.statusCode !== 401 && secret.statusCode !== 403, `secret key: ${secret.statusCode} ${secret.body}`);

        const noKey = await t.call(op.method, op.url, { key: null });
        assert.equal(noKey.statusCode, 401, 'without a key');

        const publishable = await send(op, t.account.keys.publishable_test);
        if (access.publishable) assert.ok(!scopeRefused(publishable.statusCode, publishable.body), 'publishable allowed');
        else assert.ok(scopeRefused(publishable.statusCode, publishable.body), `publishable: ${publishable.statusCode}`);

        const none = await send(op, keyFor('none', 'none'));
        assert.ok(scopeRefused(none.statusCode, none.body), `restricted key without permissions: ${none.statusCode}`);

        if (access.resource === 'account') {
          const everything = await send(op, keyFor('none', 'write'));
          assert.ok(scopeRefused(everything.statusCode, everything.body), 'account routes are for secret keys only');
          return;
        }
        const granted = await send(op, keyFor(access.resource, access.level));
        assert.ok(!scopeRefused(granted.statusCode, granted.body), `restricted ${access.resource}:${access.level}: ${granted.body}`);
        if (access.level === 'read') {
          const writer = await send(op, keyFor(access.resource, 'write'));
          assert.ok(!scopeRefused(writer.statusCode, writer.body), 'write implies read');
        } else {
          const reader = await send(op, keyFor(access.resource, 'read'));
          assert.ok(scopeRefused(reader.statusCode, reader.body), `read is not enough to ${op.name}`);
        }
        const other = PERMISSION_RESOURCES.find((r) => r !== access.resource) as PermissionResource;
        const elsewhere = await send(op, keyFor(other, 'write'));
        assert.ok(scopeRefused(elsewhere.statusCode, elsewhere.body), `write on ${other} grants nothing here`);
      });
    }
  });
}
