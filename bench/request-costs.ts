// CPU cost of one request in our own code, without sockets: Fastify's inject drives the real app
// (SQLite file in a temporary directory) and each scenario reports µs per request over seven
// timed batches. Steadier than a load test for judging a change to the request path:
//   npx tsx bench/request-costs.ts [requests per batch = 5000] [name filter]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { createAccount } from '../src/domain/accounts/create-account.js';
import { setAccountRateLimit } from '../src/domain/accounts/set-rate-limit.js';
import { systemClock } from '../src/lib/clock.js';
import { SQLITE_CHECKPOINT } from '../src/server.js';
import { openStore } from '../src/store/open-store.js';

const perBatch = Number(process.argv[2] ?? 5000);
const filter = process.argv[3];
const dir = mkdtempSync(join(tmpdir(), 'request-costs-'));
// The server's own SQLite settings: WAL checkpoints from a thread.
const opened = openStore({ dataDir: dir, sqliteBackgroundCheckpoint: SQLITE_CHECKPOINT });
await opened.migrate();
const { account, keys } = await createAccount(opened.store, systemClock, 'request-costs');
await setAccountRateLimit(opened.store, account.id, { perSecond: 1_000_000, burst: 1_000_000 });
const app = await buildApp({ store: opened.store, logLevel: 'warn' });
const auth = { authorization: `Bearer ${keys.secret_test}` };
const json = { ...auth, 'content-type': 'application/json' };
let n = 0;
const post = (url: string, payload: string, key = `k${++n}`) =>
  app.inject({ method: 'POST', url, headers: { ...json, 'idempotency-key': key }, payload });
const customer = (await post('/v1/customers', '{"name":"S"}')).json().id as string;
const body = JSON.stringify({ amount: 2000, currency: 'USD', customer, description: 'Bench order' });
const ids: string[] = [];
for (let i = 0; i < 1000; i++) ids.push((await post('/v1/payments', body)).json().id as string);
await post('/v1/payments', body, 'replayed');

type Scenario = { name: string; status: number; run: (i: number) => Promise<{ statusCode: number; body: string }> };
const scenarios: Scenario[] = [
  {
    name: 'retrieve a payment',
    status: 200,
    run: (i) => app.inject({ method: 'GET', url: `/v1/payments/${ids[i % ids.length]}`, headers: auth }),
  },
  { name: 'list 100 payments', status: 200, run: () => app.inject({ method: 'GET', url: '/v1/payments?limit=100', headers: auth }) },
  { name: 'idempotent replay', status: 200, run: () => post('/v1/payments', body, 'replayed') },
  { name: 'create a payment', status: 200, run: () => post('/v1/payments', body) },
  {
    name: 'refused (unknown key)',
    status: 401,
    run: () =>
      app.inject({ method: 'GET', url: '/v1/payments', headers: { authorization: `Bearer service_test_${'Unknown0Key0'.repeat(3)}` } }),
  },
];

/** Timed batches per scenario: the minimum is the steadiest figure on a shared machine. */
const BATCHES = 7;

/** Ten requests at a time, as the load test's ten connections: group commit gets to share COMMITs. */
async function batch(scenario: Scenario, count: number): Promise<number> {
  const start = process.hrtime.bigint();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const res = await scenario.run(next++);
      if (res.statusCode !== scenario.status) throw new Error(`${scenario.name}: ${res.statusCode} ${res.body}`);
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  return Number(process.hrtime.bigint() - start) / count / 1000;
}

for (const scenario of scenarios) {
  if (filter && !scenario.name.includes(filter)) continue;
  await batch(scenario, Math.min(perBatch, 2000)); // warm-up
  const times: number[] = [];
  for (let i = 0; i < BATCHES; i++) times.push(await batch(scenario, perBatch));
  times.sort((a, b) => a - b);
  const [min, median, max] = [times[0]!, times[BATCHES >> 1]!, times[BATCHES - 1]!];
  console.log(
    `${scenario.name.padEnd(24)} min ${min.toFixed(1).padStart(7)} µs  median ${median.toFixed(1).padStart(7)} µs  max ${max.toFixed(1).padStart(7)} µs`,
  );
}
await app.close();
await opened.store.close();
rmSync(dir, { recursive: true, force: true });
