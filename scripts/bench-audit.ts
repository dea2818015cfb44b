// What the audit log costs: the same requests against two apps, audit on and audit off, in one
// run, rounds interleaved so that machine load hits both alike. Uses inject (no sockets).
// Usage: npx tsx scripts/bench-audit.ts [requests-per-round=400] [rounds=5] [concurrency=16]
//        BENCH_DATABASE_URL=postgres://... to run on PostgreSQL (a fresh schema each).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { createAccount } from '../src/domain/accounts/create-account.js';
import { systemClock } from '../src/lib/clock.js';
import { openStore } from '../src/store/open-store.js';

const [perRound = 400, rounds = 5, concurrency = 16] = process.argv.slice(2).map(Number);
const pgUrl = process.env.BENCH_DATABASE_URL;

async function open(audit: boolean) {
  let cleanup: () => Promise<void>;
  let opened: ReturnType<typeof openStore>;
  if (pgUrl) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    opened = openStore({ databaseUrl: pgUrl, dataDir: tmpdir(), schema });
    cleanup = async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'bench-audit-'));
    opened = openStore({ dataDir: dir });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  await opened.migrate();
  const { keys } = await createAccount(opened.store, systemClock, 'bench');
  const app = await buildApp({ store: opened.store, logLevel: 'silent', audit: { enabled: audit } });
  const headers = { authorization: `Bearer ${keys.secret_test}` };
  let n = 0;
  const read = () => app.inject({ method: 'GET', url: '/v1/customers?limit=10', headers });
  const write = () =>
    app.inject({
      method: 'POST',
      url: '/v1/customers',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `b-${audit}-${++n}` },
      payload: '{"name":"Bench"}',
    });
  return {
    read,
    write,
    close: async () => {
      await app.close();
      await opened.store.close();
      await cleanup();
    },
  };
}

async function measure(fn: () => Promise<{ statusCode: number }>, count: number, parallel: number): Promise<number> {
  const start = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next++ < count) {
        const res = await fn();
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      }
    }),
  );
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const apps = { on: await open(true), off: await open(false) };
const results: Record<string, number[]> = {};
const workloads = [
  ['reads, sequential', 'read', 1],
  [`reads, ${concurrency} concurrent`, 'read', concurrency],
  ['writes, sequential', 'write', 1],
  [`writes, ${concurrency} concurrent`, 'write', concurrency],
] as const;
for (const mode of ['on', 'off'] as const) for (const [, kind] of workloads) await measure(apps[mode][kind], 50, 4); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const mode of r % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
    for (const [name, kind, parallel] of workloads) {
      const rate = await measure(apps[mode][kind], perRound, parallel);
      (results[`${name}|${mode}`] ??= []).push(rate);
    }
  }
}
await apps.on.close();
await apps.off.close();

console.log(`backend: ${pgUrl ? 'postgres' : 'sqlite'}; ${rounds} rounds × ${perRound} requests; median req/s`);
console.log('workload                      audit off   audit on   overhead');
for (const [name] of workloads) {
  const off = median(results[`${name}|off`] ?? []);
  const on = median(results[`${name}|on`] ?? []);
  console.log(
    `${name.padEnd(28)} ${off.toFixed(0).padStart(10)} ${on.toFixed(0).padStart(10)} ${(((off - on) / off) * 100).toFixed(1).padStart(9)}%`,
  );
}
