import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createAccount, type NewAccount } from '../../src/domain/accounts/create-account.js';
import { setAccountRateLimit } from '../../src/domain/accounts/set-rate-limit.js';
import { verifyAuditChains } from '../../src/domain/audit/verify.js';
import { systemClock } from '../../src/lib/clock.js';
import { type OpenedStore, openStore } from '../../src/store/open-store.js';
import { postgresUrl } from '../helpers/backends.js';
import { card } from '../helpers/payments.js';
import { type NginxProcess, nginxAvailable, startNginx } from '../helpers/nginx-process.js';
import { type RedisProcess, redisAvailable, startRedis } from '../helpers/redis-process.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/** The bound docs/deploy.md states: a key revoked on one instance is refused by every other within KEY_CACHE_TTL_MS. */
const KEY_CACHE_TTL_MS = 2000;
/** The other bound: a crash loses at most the audit events of reads from the last AUDIT_FLUSH_MS. */
const AUDIT_FLUSH_MS = 200;

const skip = !postgresUrl
  ? 'needs PostgreSQL: set TEST_DATABASE_URL or DATABASE_URL=postgres://...'
  : !redisAvailable
    ? 'needs /usr/bin/redis-server'
    : false;
if (skip) process.stderr.write(`note: multi-instance test skipped: ${skip}\n`);
const nginxSkip = nginxAvailable
  ? false
  : 'nginx is not installed (apt-get install nginx, or NGINX_BIN=...): requests go to the instances directly only';
if (!skip && nginxSkip) process.stderr.write(`note: multi-instance test: ${nginxSkip}\n`);

/** The fields these tests read from response bodies. */
interface Body {
  id: string;
  status: string;
  secret: string;
  amount_refunded: number;
  error: { type: string; code: string };
}

interface Answer {
  status: number;
  headers: Headers;
  json: Body;
}

async function call(base: string, method: string, path: string, o: { key: string; body?: unknown; idem?: string }): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${o.key}` };
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = o.idem ?? `mi-${randomBytes(8).toString('hex')}`;
  }
  const res = await fetch(`${base}${path}`, { method, headers, ...(method === 'POST' ? { body: JSON.stringify(o.body ?? {}) } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: (text ? JSON.parse(text) : {}) as Body };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('three instances on one PostgreSQL and one Redis, behind nginx', { skip, timeout: 180_000 }, () => {
  const dbName = `payments_multi_${randomBytes(4).toString('hex')}`;
  let dbUrl: string;
  let redis: RedisProcess;
  const servers: ServerProcess[] = [];
  let nginx: NginxProcess | undefined;
  let opened: OpenedStore;
  let account: NewAccount;
  /** Every way in: the three instances directly, and nginx when it is installed. */
  let targets: string[];

  before(async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(postgresUrl as string);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
    redis = await startRedis();
    const env = {
      DATABASE_URL: dbUrl,
      REDIS_URL: redis.url,
      KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS),
      WEBHOOK_POLL_MS: '100',
      AUDIT_FLUSH_MS: String(AUDIT_FLUSH_MS),
      TRUST_PROXY: '127.0.0.1',
      // Shared by every instance (docs/deploy.md): a card tokenised on one is charged on another.
      CARD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CARD_FINGERPRINT_KEY: randomBytes(32).toString('base64'),
    };
    // The first migrates the fresh database and creates the sandbox; the other two start together.
    servers.push(await startServerProcess(env));
    servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
    if (nginxAvailable) nginx = await startNginx(servers.map((s) => `127.0.0.1:${s.port}`));
    targets = [...servers.map((s) => s.url), ...(nginx ? [nginx.url] : [])];
    opened = openStore({ databaseUrl: dbUrl, dataDir: tmpdir() });
    account = await createAccount(opened.store, systemClock, 'Multi-instance');
  });

  after(async () => {
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await opened?.store.close();
    await redis?.kill();
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  const key = () => account.keys.secret_test;
  const at = (i: number) => targets[i % targets.length] as string;

  test('every instance is healthy and shares its rate limits through Redis', async () => {
    for (const base of targets) {
      const health = await (await fetch(`${base}/healthz`)).json();
      assert.deepEqual(health, { status: 'ok', database: 'ok', rate_limiter: 'ok' }, base);
    }
  });

  test('through nginx: the committed deploy/nginx.conf balances over the three instances', { skip: nginxSkip }, async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await call(nginx?.url as string, 'GET', '/v1/customers', { key: key() });
      assert.equal(res.status, 200);
      ids.add(String(res.headers.get('request-id')));
    }
    assert.equal(ids.size, 6);
    // Each instance logs the requests it served: nginx spread the six over more than one.
    await new Promise((r) => setTimeout(r, 200));
    const serving = servers.filter((s) => [...ids].some((id) => s.output().includes(id)));
    assert.ok(serving.length >= 2, `served by ${serving.length} instance(s)`);
    const big = await fetch(`${nginx?.url}/v1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key()}`, 'content-type': 'application/json', 'idempotency-key': 'too-big' },
      body: JSON.stringify({ description: 'x'.repeat(70 * 1024) }),
    });
    assert.equal(big.status, 413, 'nginx refuses bodies over 64 KiB before an instance sees them');
  });

  test('the same Idempotency-Key sent concurrently to every instance executes once', async () => {
    const idem = `same-${randomBytes(6).toString('hex')}`;
    const name = `Once ${idem}`;
    const answers = await Promise.all(
      Array.from({ length: targets.length * 3 }, (_, i) => call(at(i), 'POST', '/v1/customers', { key: key(), idem, body: { name } })),
    );
    for (const a of answers) assert.ok(a.status === 200 || a.status === 409, `${a.status} ${JSON.stringify(a.json)}`);
    const created = answers.filter((a) => a.status === 200);
    assert.ok(created.length >= 1);
    assert.equal(new Set(created.map((a) => a.json.id)).size, 1, 'one customer id in every success');
    for (const a of answers.filter((x) => x.status === 409)) assert.equal(a.json.error.code, 'idempotency_key_in_use');
    const replay = await call(at(1), 'POST', '/v1/customers', { key: key(), idem, body: { name } });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.json.id, created[0]?.json.id);
    const rows = await opened.database.get<{ n: number }>('SELECT COUNT(*) AS n FROM customers WHERE account_id = ? AND name = ?', [
      account.account.id,
      name,
    ]);
    assert.equal(Number(rows?.n), 1);
  });

  test('concurrent refunds through every instance never exceed the captured amount', async () => {
    const customer = (await call(at(0), 'POST', '/v1/customers', { key: key(), body: { name: 'Refunds' } })).json.id;
    const token = (await call(at(1), 'POST', '/v1/tokens', { key: account.keys.publishable_test, body: { card: card() } })).json.id;
    const payment = await call(at(2), 'POST', '/v1/payments', {
      key: key(),
      body: { amount: 1000, currency: 'USD', customer, payment_method: token, confirm: true },
    });
    assert.equal(payment.json.status, 'succeeded', JSON.stringify(payment.json));
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(at(i), 'POST', '/v1/refunds', { key: key(), body: { payment: payment.json.id, amount: 300 } }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    for (const a of answers.filter((x) => x.status !== 200)) {
      assert.equal(a.status, 400, JSON.stringify(a.json));
      assert.ok(['amount_too_large', 'charge_already_refunded'].includes(a.json.error.code), a.json.error.code);
    }
    assert.equal(ok.length, 3, 'three refunds of 300 fit in 1000');
    const after = await call(at(0), 'GET', `/v1/payments/${payment.json.id}`, { key: key() });
    assert.equal(after.json.amount_refunded, 900);
  });

  test('the rate limit holds for the account as a whole, not per instance', async () => {
    const limited = await createAccount(opened.store, systemClock, 'Limited');
    await setAccountRateLimit(opened.store, limited.account.id, { perSecond: 1, burst: 30 });
    const started = Date.now();
    const answers: Answer[] = [];
    // 90 requests, spread evenly: per-instance buckets would let all 90 through.
    for (let batch = 0; batch < 6; batch++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 15 }, (_, i) => call(at(batch * 15 + i), 'GET', '/v1/customers', { key: limited.keys.secret_test })),
        )),
      );
    }
    const seconds = (Date.now() - started) / 1000;
    const ok = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 429);
    assert.equal(ok + refused.length, 90);
    assert.ok(ok >= 30 && ok <= 30 + Math.ceil(seconds) + 1, `${ok} allowed in ${seconds.toFixed(2)} s with a burst of 30 at 1/s`);
    for (const r of refused) {
      assert.equal(r.json.error.type, 'rate_limit_error');
      assert.ok(Number(r.headers.get('retry-after')) >= 1);
    }
  });

  test(`a key revoked on one instance is refused by the others within KEY_CACHE_TTL_MS (${KEY_CACHE_TTL_MS} ms)`, async (t) => {
    const created = await call(at(0), 'POST', '/v1/api_keys', { key: key(), body: { kind: 'secret', name: 'short-lived' } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const temp = created.json.secret;
    // Every instance caches the key.
    for (const base of targets) assert.equal((await call(base, 'GET', '/v1/customers', { key: temp })).status, 200);
    const revoked = await call(servers[0]?.url as string, 'POST', `/v1/api_keys/${created.json.id}/revoke`, { key: key() });
    assert.equal(revoked.status, 200);
    const revokedAt = Date.now();
    assert.equal((await call(servers[0]?.url as string, 'GET', '/v1/customers', { key: temp })).status, 401, 'at once where revoked');
    const delays = await Promise.all(
      targets.slice(1).map((base) =>
        waitFor(
          `revocation seen by ${base}`,
          async () => {
            const res = await call(base, 'GET', '/v1/customers', { key: temp });
            if (res.status === 200) return undefined;
            assert.equal(res.json.error.code, 'api_key_revoked');
            return Date.now() - revokedAt;
          },
          KEY_CACHE_TTL_MS + 3000,
        ),
      ),
    );
    const worst = Math.max(...delays);
    t.diagnostic(`revocation seen by every other instance after ${delays.join(', ')} ms (bound ${KEY_CACHE_TTL_MS} ms)`);
    assert.ok(worst <= KEY_CACHE_TTL_MS + 250, `worst ${worst} ms`);
  });

  test('each webhook attempt goes out once, though every instance runs the delivery worker', async () => {
    const receiver: WebhookReceiver = await startWebhookReceiver(systemClock);
    try {
      const endpoint = await call(at(0), 'POST', '/v1/webhook_endpoints', {
        key: key(),
        body: { url: receiver.url, enabled_events: ['customer.created'] },
      });
      assert.equal(endpoint.status, 200, JSON.stringify(endpoint.json));
      receiver.secret = endpoint.json.secret;
      const ids = (
        await Promise.all(
          Array.from({ length: 30 }, (_, i) => call(at(i), 'POST', '/v1/customers', { key: key(), body: { name: `Hook ${i}` } })),
        )
      ).map((a) => a.json.id);
      await waitFor(
        'every event delivered',
        async () => (ids.every((id) => receiver.hits.some((h) => h.event.data.object.id === id)) ? true : undefined),
        20_000,
      );
      // Several more polls of all three workers: nothing goes out again.
      await new Promise((r) => setTimeout(r, 1000));
      const perEvent = new Map<string, number>();
      for (const h of receiver.hits) perEvent.set(h.event.id, (perEvent.get(h.event.id) ?? 0) + 1);
      assert.equal(receiver.hits.length, 30);
      assert.deepEqual([...new Set(perEvent.values())], [1], 'each event once');
      assert.ok(receiver.hits.every((h) => h.signatureValid));
      const attempts = await opened.database.get<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_attempts WHERE endpoint_id = ?', [
        endpoint.json.id,
      ]);
      assert.equal(Number(attempts?.n), 30, 'one recorded attempt per hit');
    } finally {
      await receiver.close();
    }
  });

  test('the audit hash chain written by three instances at once verifies', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => call(at(i), 'GET', '/v1/payments', { key: key() })));
    // Reads are group-committed every AUDIT_FLUSH_MS (200 ms).
    await new Promise((r) => setTimeout(r, 600));
    const reports = await verifyAuditChains(opened.store, account.account.id);
    assert.equal(reports.length, 1);
    assert.ok(reports[0]?.ok, JSON.stringify(reports[0]));
    assert.ok((reports[0] as { checked: number }).checked > 150, JSON.stringify(reports[0]));
  });

  test(`a crash (SIGKILL) loses no audit event older than AUDIT_FLUSH_MS (${AUDIT_FLUSH_MS} ms); the others keep serving`, async () => {
    const victim = servers[2] as ServerProcess;
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(victim.url, 'GET', '/v1/customers', { key: key() })));
    const requestIds = answers.map((a) => String(a.headers.get('request-id')));
    await new Promise((r) => setTimeout(r, AUDIT_FLUSH_MS + 300));
    await victim.stop('SIGKILL');
    let found = 0;
    for (const id of requestIds) {
      const row = await opened.database.get<{ n: number }>('SELECT COUNT(*) AS n FROM audit_events WHERE request LIKE ?', [`%${id}%`]);
      found += Number(row?.n);
    }
    assert.equal(found, requestIds.length, 'every read older than the flush interval was committed before the crash');
    assert.equal((await call(at(0), 'GET', '/v1/customers', { key: key() })).status, 200);
    const reports = await verifyAuditChains(opened.store, account.account.id);
    assert.ok(reports[0]?.ok, JSON.stringify(reports[0]));
  });
});
