// Sequential creates through inject, for counting what one create costs in system calls:
//   strace -f -c -o /tmp/creates.strace node --import tsx bench/create-syscalls.ts [creates=2000]
// 3,000 creates warm up first (their calls are counted too); prints the mean time per create.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { createAccount } from '../src/domain/accounts/create-account.js';
import { systemClock } from '../src/lib/clock.js';
import { openStore } from '../src/store/open-store.js';

const count = Number(process.argv[2] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'create-syscalls-'));
const opened = openStore({ dataDir: dir });
await opened.migrate();
const { keys } = await createAccount(opened.store, systemClock, 'syscalls');
const app = await buildApp({ store: opened.store, logLevel: 'warn' });
const headers = { authorization: `Bearer ${keys.secret_test}`, 'content-type': 'application/json' };
let n = 0;
const post = (url: string, payload: string) =>
  app.inject({ method: 'POST', url, headers: { ...headers, 'idempotency-key': `k${++n}` }, payload });
const customer = (await post('/v1/customers', '{"name":"S"}')).json().id as string;
const body = JSON.stringify({ amount: 2000, currency: 'USD', customer });
for (let i = 0; i < 3000; i++) await post('/v1/payments', body);
const start = process.hrtime.bigint();
for (let i = 0; i < count; i++) await post('/v1/payments', body);
console.log(`${count} sequential creates: ${(Number(process.hrtime.bigint() - start) / count / 1000).toFixed(0)} µs each`);
await app.close();
await opened.store.close();
rmSync(dir, { recursive: true, force: true });
