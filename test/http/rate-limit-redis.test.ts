import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { DEGRADED_STATUS } from '../../src/domain/rate-limit/rate-limiter.js';
import { BACKENDS } from '../helpers/backends.js';
import { type RedisProcess, redisAvailable, startRedis } from '../helpers/redis-process.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const backend = BACKENDS[0] as (typeof BACKENDS)[number];

describe(
  'rate limits shared through Redis, and the fallback when Redis goes away',
  { skip: !redisAvailable && 'redis-server is not installed' },
  () => {
    let redis: RedisProcess;
    let t: TestApp;
    let second: FastifyInstance;
    let logs = '';
    before(async () => {
      redis = await startRedis();
      const logStream = new Writable({
        write(chunk, _enc, done) {
          logs += chunk;
          done();
        },
      });
      t = await createTestApp(backend, { logStream, rateLimit: { redisUrl: redis.url } });
      // A second instance on the same database and Redis.
      second = await buildApp({
        store: t.db.store,
        clock: t.clock,
        logLevel: 'silent',
        keyCacheTtlMs: 0,
        rateLimit: { redisUrl: redis.url },
      });
      await t.db.store.updateAccount(t.account.account.id, { rateLimitPerSecond: 1, rateLimitBurst: 3 });
    });
    after(async () => {
      await second?.close();
      await t?.close();
      await redis?.kill();
    });

    const health = async (app: FastifyInstance) => (await app.inject({ method: 'GET', url: '/healthz' })).json().rate_limiter as string;
    const getFrom = (app: FastifyInstance) =>
      app.inject({ method: 'GET', url: '/v1/customers', headers: { authorization: `Bearer ${t.account.keys.secret_test}` } });

    test('two instances take from one bucket per account and mode, kept in Redis with a TTL', async () => {
      await eventually('redis ready', async () => ((await health(t.app)) === 'ok' ? true : undefined));
      await eventually('redis ready (second)', async () => ((await health(second)) === 'ok' ? true : undefined));
      assert.equal((await getFrom(t.app)).statusCode, 200);
      assert.equal((await getFrom(second)).statusCode, 200);
      assert.equal((await getFrom(t.app)).statusCode, 200);
      const refused = await getFrom(second);
      assert.equal(refused.statusCode, 429, 'the burst of 3 is shared by both instances');
      assert.equal(refused.headers['retry-after'], '1');
      const client = new Redis(redis.url);
      try {
        const ttl = await client.pttl(`payments:ratelimit:${t.account.account.id}:test`);
        assert.ok(ttl > 0 && ttl <= 4000, `ttl ${ttl}`);
      } finally {
        client.disconnect();
      }
    });

    test('Redis killed: requests are still served with per-instance limits, /healthz says so (200), one warning', async () => {
      const logsBefore = logs.length;
      await redis.kill();
      await eventually('fallback', async () => ((await health(t.app)) === DEGRADED_STATUS ? true : undefined));
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ok', database: 'ok', rate_limiter: DEGRADED_STATUS });
      // A fresh in-memory bucket of 3 in this instance, limits still apply.
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await t.call('GET', '/v1/customers')).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      await new Promise((r) => setTimeout(r, 300));
      const warnings = logs
        .slice(logsBefore)
        .split('\n')
        .filter((l) => l.includes('falling back to per-instance limits'));
      assert.equal(warnings.length, 1, logs);
      assert.match(warnings[0] as string, /"level":40/);
    });

    test('Redis back: the instance returns to shared limits on its own and logs it', async () => {
      await redis.restart();
      await eventually('recovery', async () => ((await health(t.app)) === 'ok' ? true : undefined));
      assert.ok(logs.includes('redis reachable again'), 'recovery logged');
      t.clock.advance(10_000);
      const res = await t.call('GET', '/v1/customers');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-remaining'], '2', 'a new bucket in the restarted Redis (the script was loaded again)');
      const client = new Redis(redis.url);
      try {
        assert.equal(await client.exists(`payments:ratelimit:${t.account.account.id}:test`), 1);
      } finally {
        client.disconnect();
      }
    });
  },
);

describe('start-up with REDIS_URL', { skip: !redisAvailable && 'redis-server is not installed' }, () => {
  test('the app is built once Redis answers (healthz ok at once); an unreachable Redis delays start at most 3 s, then falls back', async () => {
    const redis = await startRedis();
    const db = await backend.open();
    try {
      const up = await buildApp({ store: db.store, logLevel: 'silent', rateLimit: { redisUrl: redis.url } });
      assert.equal((await up.inject({ method: 'GET', url: '/healthz' })).json().rate_limiter, 'ok');
      await up.close();
      await redis.kill();
      const started = Date.now();
      const down = await buildApp({ store: db.store, logLevel: 'silent', rateLimit: { redisUrl: redis.url } });
      assert.ok(Date.now() - started < 5000);
      assert.equal((await down.inject({ method: 'GET', url: '/healthz' })).json().rate_limiter, DEGRADED_STATUS);
      await down.close();
    } finally {
      await redis.kill();
      await db.destroy();
    }
  });
});
