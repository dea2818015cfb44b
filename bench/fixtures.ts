// Bulk fixture loader: accounts with many payments, written straight through the store in large
// transactions (store.bulkInsertPayments), ids made with newId('pay', ms) at each payment's
// created time so that lists stay time-sorted. Usable alone:
//   npx tsx bench/fixtures.ts --payments 1000000 [--data-dir DIR]   (DATABASE_URL for PostgreSQL)
import { parseArgs } from 'node:util';
import { createAccount, type NewAccount } from '../src/domain/accounts/create-account.js';
import { systemClock } from '../src/lib/clock.js';
import { newId } from '../src/lib/ids.js';
import { openStore, type StoreLocation } from '../src/store/open-store.js';
import type { CustomerRecord, PaymentRecord, Store } from '../src/store/store.js';

export interface AccountPlan {
  /** Label used by the scenarios (`main`, `big`, `small`). */
  label: string;
  payments: number;
  customers?: number;
  /** How many payment ids to hand back (for retrieve scenarios). */
  sampleIds?: number;
}

export interface LoadedAccount {
  label: string;
  account: string;
  keys: NewAccount['keys'];
  customers: string[];
  payments: number;
  sampleIds: string[];
}

export interface FixtureReport {
  accounts: Record<string, LoadedAccount>;
  payments: number;
  seconds: number;
  paymentsPerSecond: number;
}

const ROWS_PER_TRANSACTION = 10_000;
const STEP_MS = 997; // one payment about every second, going back from now
const STATUSES = ['succeeded', 'succeeded', 'succeeded', 'succeeded', 'requires_payment_method', 'canceled', 'requires_capture'];
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY'];

/** A progress bar on stderr: redrawn in place on a terminal, a line every 10% otherwise. */
export class ProgressBar {
  private lastDecile = -1;
  private readonly started = performance.now();
  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number): void {
    const fraction = this.total === 0 ? 1 : done / this.total;
    const elapsed = (performance.now() - this.started) / 1000;
    const rate = elapsed > 0 ? Math.round(done / elapsed) : 0;
    const text = `${this.label} ${done.toLocaleString('en')}/${this.total.toLocaleString('en')}  ${elapsed.toFixed(1)} s  ${rate.toLocaleString('en')}/s`;
    if (this.out.isTTY) {
      const width = 30;
      const filled = Math.round(fraction * width);
      this.out.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${text}`);
      if (done >= this.total) this.out.write('\n');
      return;
    }
    const decile = Math.floor(fraction * 10);
    if (decile !== this.lastDecile) {
      this.lastDecile = decile;
      this.out.write(`${(fraction * 100).toFixed(0).padStart(3)}% ${text}\n`);
    }
  }
}

function customerRecord(accountId: string, nowMs: number, i: number): CustomerRecord {
  return {
    id: newId('cus', nowMs),
    accountId,
    livemode: false,
    email: `bench-${i}@example.com`,
    name: `Bench customer ${i}`,
    description: null,
    metadata: {},
    created: Math.floor(nowMs / 1000),
    deletedAt: null,
  };
}

function paymentRecord(accountId: string, customerId: string, ms: number, i: number): PaymentRecord {
  const status = STATUSES[i % STATUSES.length] as string;
  const amount = 100 + ((i * 7919) % 99_900);
  const succeeded = status === 'succeeded';
  return {
    id: newId('pay', ms),
    accountId,
    livemode: false,
    customerId,
    amount,
    currency: CURRENCIES[i % CURRENCIES.length] as string,
    description: `Order ${i}`,
    captureMethod: status === 'requires_capture' ? 'manual' : 'automatic',
    status,
    amountCapturable: status === 'requires_capture' ? amount : 0,
    amountReceived: succeeded ? amount : 0,
    amountRefunded: 0,
    paymentMethod: succeeded
      ? { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, funding: 'credit', fingerprint: 'bench0fingerprint' }
      : null,
    lastPaymentError: null,
    nextAction: null,
    cancellationReason: status === 'canceled' ? 'requested_by_customer' : null,
    canceledAt: status === 'canceled' ? Math.floor(ms / 1000) : null,
    metadata: { order: String(i) },
    created: Math.floor(ms / 1000),
  };
}

async function loadAccount(store: Store, plan: AccountPlan, progress: (n: number) => void): Promise<LoadedAccount> {
  const { account, keys } = await createAccount(store, systemClock, `Bench ${plan.label}`);
  const nowMs = systemClock.now();
  const customers = Array.from({ length: plan.customers ?? 100 }, (_, i) => customerRecord(account.id, nowMs, i));
  await store.transaction(async (tx) => {
    for (const c of customers) await tx.insertCustomer(c);
  });
  // Oldest first: ids are generated in time order, as the service would have made them.
  const firstMs = nowMs - 60_000 - plan.payments * STEP_MS;
  const sampleEvery = Math.max(1, Math.floor(plan.payments / Math.max(1, plan.sampleIds ?? 1)));
  const sampleIds: string[] = [];
  for (let start = 0; start < plan.payments; start += ROWS_PER_TRANSACTION) {
    const end = Math.min(plan.payments, start + ROWS_PER_TRANSACTION);
    const chunk: PaymentRecord[] = new Array(end - start);
    for (let i = start; i < end; i++) {
      const customer = customers[i % customers.length] as CustomerRecord;
      const record = paymentRecord(account.id, customer.id, firstMs + i * STEP_MS, i);
      chunk[i - start] = record;
      if (plan.sampleIds && i % sampleEvery === 0 && sampleIds.length < plan.sampleIds) sampleIds.push(record.id);
    }
    await store.transaction((tx) => tx.bulkInsertPayments(chunk));
    progress(end);
  }
  return { label: plan.label, account: account.id, keys, customers: customers.map((c) => c.id), payments: plan.payments, sampleIds };
}

/** Migrates the database at `location` and creates one account per plan, with its payments. */
export async function loadFixtures(location: StoreLocation, plans: AccountPlan[]): Promise<FixtureReport> {
  const opened = openStore(location);
  try {
    await opened.migrate();
    const total = plans.reduce((sum, p) => sum + p.payments, 0);
    const bar = new ProgressBar('payments', total);
    const started = performance.now();
    const accounts: Record<string, LoadedAccount> = {};
    let before = 0;
    for (const plan of plans) {
      const offset = before;
      accounts[plan.label] = await loadAccount(opened.store, plan, (n) => bar.update(offset + n));
      before += plan.payments;
    }
    if (total === 0) bar.update(0);
    const seconds = (performance.now() - started) / 1000;
    return { accounts, payments: total, seconds, paymentsPerSecond: Math.round(total / seconds) };
  } finally {
    await opened.store.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      payments: { type: 'string', default: '1000000' },
      'data-dir': { type: 'string', default: './data' },
    },
  });
  const payments = Number(values.payments);
  if (!Number.isInteger(payments) || payments < 0) throw new Error('--payments must be a whole number');
  const report = await loadFixtures({ databaseUrl: process.env.DATABASE_URL, dataDir: values['data-dir'] as string }, [
    { label: 'fixture', payments },
  ]);
  const loaded = report.accounts.fixture as LoadedAccount;
  process.stderr.write(
    `Loaded ${report.payments.toLocaleString('en')} payments in ${report.seconds.toFixed(1)} s (${report.paymentsPerSecond.toLocaleString('en')}/s).\n`,
  );
  // The account and its test secret key, for trying the lists by hand; stdout only, never a log.
  process.stdout.write(`${JSON.stringify({ account: loaded.account, secret_test: loaded.keys.secret_test })}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    process.stderr.write(`fixtures: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
