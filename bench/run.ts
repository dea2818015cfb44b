// `npm run bench [-- --quick] [--only a,b] [--cpu-prof] [--duration S] [--connections N] [--rounds N]`
// Builds the service, loads fixtures into a fresh database (SQLite in a temporary DATA_DIR, or a
// fresh PostgreSQL database when DATABASE_URL is set), starts the service and the baseline as
// their own processes, and drives both with autocannon from a third, alternating runs.
// Writes bench/results/<backend>[-quick].json and .md.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { type FixtureReport, loadFixtures } from './fixtures.js';
import type { LoadRequest, LoadResult, LoadSpec } from './load.js';
import { memoryOf, ROOT, type Running, runLoadProcess, sampleProcess, startBaseline, startService } from './processes.js';
import { type BenchResult, machine, markdown, measured, type ScenarioResult, targets } from './report.js';
import { type Fixtures, scenarios } from './scenarios.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    duration: { type: 'string' },
    connections: { type: 'string' },
    rounds: { type: 'string' },
    'large-payments': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

const quick = values.quick as boolean;
const durationSeconds = Number(values.duration ?? (quick ? 3 : 10));
const connections = Number(values.connections ?? 10);
const rounds = Number(values.rounds ?? (quick ? 1 : 2));
const largePayments = Number(values['large-payments'] ?? (quick ? 100_000 : 1_000_000));
const smallPayments = 10_000;
const warmupSeconds = quick ? 1 : 3;
/**
 * Every measured run follows an unmeasured one of this length against the same server: while the
 * other server is measured, V8's memory reducer shrinks the idle one's young generation (to 1 MiB)
 * and compacts its heap, and the first seconds of load after that are spent growing it back, with
 * a scavenge every few milliseconds. Measured runs are of the steady state.
 */
const primeSeconds = quick ? 1 : 2;
/** The paced half-load run: its p99 rests on a few GC and checkpoint pauses, so it runs longer than the rest. */
const halfLoadSeconds = quick ? durationSeconds : Math.max(30, durationSeconds);
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Database {
  env: NodeJS.ProcessEnv;
  location: { databaseUrl?: string | undefined; dataDir: string };
  backend: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

async function freshDatabase(): Promise<Database> {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-bench-'));
  const url = process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    return {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      location: { dataDir },
      backend: 'sqlite',
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `payments_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const benchUrl = new URL(url);
  benchUrl.pathname = `/${name}`;
  return {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: benchUrl.toString() },
    location: { databaseUrl: benchUrl.toString(), dataDir },
    backend: 'postgres',
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function baselineRequests(requests: LoadRequest[], bytes: number[]): LoadRequest[] {
  return requests.map((r, i) => ({ ...r, paths: [`/json/${bytes[i]}`] }));
}

async function drive(target: Running, requests: LoadRequest[], seconds: number, rate?: number): Promise<LoadResult> {
  const spec: LoadSpec = { url: target.url, connections, durationSeconds: seconds, requests, ...(rate ? { rate } : {}) };
  return runLoadProcess(spec);
}

async function runScenarios(service: Running, baseline: Running, fixtures: Fixtures): Promise<ScenarioResult[]> {
  const only = values.only ? new Set((values.only as string).split(',')) : undefined;
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios(largePayments, smallPayments)) {
    if (only && !only.has(scenario.name)) continue;
    const result: ScenarioResult = {
      name: scenario.name,
      title: scenario.title,
      measures: scenario.measures,
      expectedStatus: scenario.expectedStatus,
      rounds: [],
    };
    results.push(result);
    const prepared = await scenario.prepare(service.url, fixtures);
    if ('skipped' in prepared) {
      result.skipped = prepared.skipped;
      log(`${scenario.name}: skipped: ${prepared.skipped}`);
      continue;
    }
    const baseRequests = baselineRequests(prepared.requests, prepared.responseBytes);
    log(`${scenario.name}: warming up`);
    await drive(baseline, baseRequests, warmupSeconds);
    await drive(service, prepared.requests, warmupSeconds);
    let peakRss = 0;
    let cpuSeconds = 0;
    for (let round = 0; round < rounds; round++) {
      await drive(baseline, baseRequests, primeSeconds);
      const base = await drive(baseline, baseRequests, durationSeconds);
      await drive(service, prepared.requests, primeSeconds);
      const stopSampling = sampleProcess(service.child.pid as number);
      const svc = await drive(service, prepared.requests, durationSeconds);
      const sampled = stopSampling();
      peakRss = Math.max(peakRss, sampled.peakRssMb);
      cpuSeconds += sampled.cpuSeconds;
      result.rounds.push({ baseline: base, service: svc });
      log(
        `${scenario.name} round ${round + 1}: service ${Math.round(svc.requestsPerSecond)} req/s p99 ${svc.latencyMs.p99} ms (CPU ${Math.round((sampled.cpuSeconds / svc.durationSeconds) * 100)}%), baseline ${Math.round(base.requestsPerSecond)} req/s`,
      );
    }
    result.service = measured(
      result.rounds.map((r) => r.service),
      scenario.expectedStatus,
    );
    result.baseline = measured(
      result.rounds.map((r) => r.baseline),
      200,
    );
    result.ratio = result.service.requestsPerSecond / result.baseline.requestsPerSecond;
    result.peakRssMb = Math.round(peakRss);
    result.serviceCpuPercent = Math.round((cpuSeconds / (rounds * durationSeconds)) * 100);
    result.serviceCpuUsPerRequest = Math.round((cpuSeconds * 1e6) / Math.max(1, result.service.requests));
    if (scenario.name === 'create_payment') {
      const rate = Math.max(1, Math.round(result.service.requestsPerSecond / 2));
      // The baseline at the same pace first: what the load generator and the machine add on their own.
      await drive(baseline, baseRequests, primeSeconds, rate);
      const floor = measured([await drive(baseline, baseRequests, halfLoadSeconds, rate)], 200);
      await drive(service, prepared.requests, primeSeconds, rate);
      const half = measured([await drive(service, prepared.requests, halfLoadSeconds, rate)], scenario.expectedStatus);
      result.halfLoad = {
        rate,
        seconds: halfLoadSeconds,
        latencyMs: half.latencyMs,
        unexpected: half.unexpected,
        baselineLatencyMs: floor.latencyMs,
      };
      log(`${scenario.name} at ${rate} req/s: p99 ${half.latencyMs.p99} ms (baseline at the same pace: ${floor.latencyMs.p99} ms)`);
    }
  }
  return results;
}

/** Far above anything one machine can send, so no scenario ever meets a 429. */
const BENCH_RATE_LIMIT = 1_000_000;

async function main(): Promise<void> {
  const started = machine();
  log(`machine: ${started.cores} cores, ${started.cpuModel}, Node ${started.node}, load ${started.loadAverageAtStart.join(' ')}`);
  if (!values['no-build']) {
    log('building the service (npm run build)');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  }
  const db = await freshDatabase();
  let service: Running | undefined;
  let baseline: Running | undefined;
  const cpuProfDir = values['cpu-prof'] ? join(ROOT, 'bench', 'profiles') : undefined;
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });
  try {
    log(`loading fixtures into ${db.backend}: ${largePayments.toLocaleString('en')} + ${smallPayments.toLocaleString('en')} payments`);
    const report: FixtureReport = await loadFixtures(db.location, [
      { label: 'main', payments: 1_000, customers: 10, sampleIds: 1_000 },
      { label: 'small', payments: smallPayments },
      { label: 'large', payments: largePayments },
    ]);
    log(`fixtures: ${report.payments.toLocaleString('en')} payments in ${report.seconds.toFixed(1)} s`);
    const fixtures = report.accounts as unknown as Fixtures;
    // The benchmark measures the service, not its rate limiter: the operator raises the limit
    // of the bench's own accounts, exactly as for a real high-volume account.
    for (const loaded of Object.values(report.accounts)) {
      execFileSync(
        process.execPath,
        [
          'bin/payments.js',
          'accounts',
          'set-limit',
          loaded.account,
          '--rate',
          String(BENCH_RATE_LIMIT),
          '--burst',
          String(BENCH_RATE_LIMIT),
        ],
        { cwd: ROOT, env: db.env, stdio: ['ignore', 'ignore', 'inherit'] },
      );
    }
    log(`rate limit of the bench accounts raised to ${BENCH_RATE_LIMIT.toLocaleString('en')}/s (payments accounts set-limit)`);
    service = await startService({ env: db.env, cpuProfDir });
    baseline = await startBaseline();
    log(`service ${service.url} (pid ${service.child.pid}), baseline ${baseline.url}`);
    const results = await runScenarios(service, baseline, fixtures);
    const servicePeakRssMb = memoryOf(service.child.pid as number)?.peakMb ?? 0;
    const result: BenchResult = {
      date: new Date().toISOString(),
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, ''),
      backend: db.backend,
      quick,
      connections,
      durationSeconds,
      rounds,
      machine: started,
      loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100),
      fixtures: {
        payments: report.payments,
        seconds: Math.round(report.seconds * 10) / 10,
        paymentsPerSecond: report.paymentsPerSecond,
        accounts: Object.fromEntries(Object.values(report.accounts).map((a) => [a.label, a.payments])),
      },
      scenarios: results,
      servicePeakRssMb: Math.round(servicePeakRssMb),
      targets: targets(results, servicePeakRssMb),
    };
    const name = (values.out as string | undefined) ?? `${db.backend}${quick ? '-quick' : ''}`;
    const dir = join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    const md = markdown(result);
    writeFileSync(join(dir, `${name}.md`), md);
    process.stdout.write(md);
    log(`wrote bench/results/${name}.json and .md`);
  } finally {
    await service?.stop();
    await baseline?.stop();
    await db.drop();
    if (cpuProfDir) log(`CPU profiles of the service: ${cpuProfDir}`);
  }
}

main().catch((err) => {
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
