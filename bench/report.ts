// The results of a run: the machine, each scenario against the baseline, and the issue's targets.
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import type { LoadResult } from './load.js';

export interface Machine {
  cores: number;
  cpuModel: string;
  node: string;
  memoryGb: number;
  loadAverageAtStart: number[];
}

export function machine(): Machine {
  let cpuModel = cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpuModel;
  } catch {
    // not Linux: os.cpus() it is
  }
  return {
    cores: cpus().length,
    cpuModel,
    node: process.version,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export interface Measured {
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number };
  requests: number;
  statusCodes: Record<string, number>;
  /** Responses with another status than expected, connection errors and timeouts. */
  unexpected: number;
}

export interface ScenarioResult {
  name: string;
  title: string;
  measures: string;
  expectedStatus: number;
  skipped?: string;
  service?: Measured;
  baseline?: Measured;
  /** Service requests/s over baseline requests/s. */
  ratio?: number;
  /** Highest RSS of the service sampled during this scenario's runs (MiB). */
  peakRssMb?: number;
  /** CPU time the service used during its runs, over their wall time (100% = one core busy). */
  serviceCpuPercent?: number;
  /** The service's CPU time per request answered (all its threads): steadier than req/s across runs and machines. */
  serviceCpuUsPerRequest?: number;
  /** create_payment only: a run evenly paced at half the measured peak rate. */
  halfLoad?: {
    rate: number;
    seconds: number;
    latencyMs: { p50: number; p90: number; p99: number };
    unexpected: number;
    /** The baseline driven at the same pace: the floor the load generator and the machine set. */
    baselineLatencyMs?: { p50: number; p90: number; p99: number };
  };
  rounds: { baseline: LoadResult; service: LoadResult }[];
}

export interface Target {
  what: string;
  value: string;
  limit: string;
  met: boolean | null;
}

export interface BenchResult {
  date: string;
  command: string;
  backend: 'sqlite' | 'postgres';
  quick: boolean;
  connections: number;
  durationSeconds: number;
  rounds: number;
  machine: Machine;
  loadAverageAtEnd: number[];
  fixtures: { payments: number; seconds: number; paymentsPerSecond: number; accounts: Record<string, number> };
  scenarios: ScenarioResult[];
  /** VmHWM of the service process at the end of the run (MiB). */
  servicePeakRssMb: number;
  targets: Target[];
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export function measured(results: LoadResult[], expectedStatus: number): Measured {
  const mean = (f: (r: LoadResult) => number) => round(results.reduce((s, r) => s + f(r), 0) / results.length);
  const statusCodes: Record<string, number> = {};
  let unexpected = 0;
  for (const r of results) {
    for (const [code, count] of Object.entries(r.statusCodes)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
      if (Number(code) !== expectedStatus) unexpected += count;
    }
    unexpected += r.errors + r.timeouts;
  }
  return {
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    latencyMs: { p50: mean((r) => r.latencyMs.p50), p90: mean((r) => r.latencyMs.p90), p99: mean((r) => r.latencyMs.p99) },
    requests: results.reduce((s, r) => s + r.requests, 0),
    statusCodes,
    unexpected,
  };
}

export function targets(scenarios: ScenarioResult[], peakRssMb: number): Target[] {
  const by = (name: string) => scenarios.find((s) => s.name === name && !s.skipped);
  const out: Target[] = [];
  const ratio = (name: string, min: number, what: string) => {
    const s = by(name);
    out.push({
      what,
      value: s?.ratio === undefined ? 'n/a' : `${round(s.ratio * 100, 0)}%`,
      limit: `≥ ${min * 100}%`,
      met: s?.ratio === undefined ? null : s.ratio >= min,
    });
  };
  ratio('create_payment', 0.4, 'create payment: share of baseline requests/s');
  const half = by('create_payment')?.halfLoad;
  out.push({
    what: 'create payment: p99 at half of peak load',
    value: half
      ? `${half.latencyMs.p99} ms${half.baselineLatencyMs ? ` (baseline at the same pace: ${half.baselineLatencyMs.p99} ms)` : ''}`
      : 'n/a',
    limit: '≤ 10 ms',
    met: half ? half.latencyMs.p99 <= 10 : null,
  });
  ratio('retrieve_payment', 0.6, 'retrieve payment: share of baseline requests/s');
  const large = by('list_100_of_large')?.service?.latencyMs.p99;
  const small = by('list_100_of_small')?.service?.latencyMs.p99;
  out.push({
    what: 'list 100: p99 of the large account over p99 of the small one',
    value: large !== undefined && small ? `${round(large / small)}× (${large} / ${small} ms)` : 'n/a',
    limit: '≤ 1.3×',
    met: large !== undefined && small ? large <= 1.3 * small : null,
  });
  ratio('idempotent_replay', 0.6, 'idempotent replay: share of baseline requests/s');
  out.push({ what: 'service peak RSS', value: `${round(peakRssMb, 0)} MiB`, limit: '≤ 250 MB', met: peakRssMb * 1.048576 <= 250 });
  return out;
}

export function markdown(r: BenchResult): string {
  const m = r.machine;
  const lines = [
    `# Benchmark results (${r.backend}${r.quick ? ', quick' : ''})`,
    '',
    `- Date: ${r.date}`,
    `- Command: \`${r.command}\``,
    `- Machine: ${m.cores} cores, ${m.cpuModel}, ${m.memoryGb} GiB RAM, Node ${m.node}; load average ${m.loadAverageAtStart.join(' / ')} at start, ${r.loadAverageAtEnd.join(' / ')} at end`,
    `- Load: autocannon in its own process, ${r.connections} connections, ${r.durationSeconds} s per run, ${r.rounds} round(s) alternating baseline and service, each measured run right after an unmeasured one against the same server`,
    `- Fixtures: ${r.fixtures.payments.toLocaleString('en')} payments loaded in ${r.fixtures.seconds.toFixed(1)} s (${r.fixtures.paymentsPerSecond.toLocaleString('en')}/s)`,
    '',
    '| scenario | service req/s | baseline req/s | ratio | p50 ms | p90 ms | p99 ms | unexpected | peak RSS MiB | service CPU | CPU µs/request |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of r.scenarios) {
    if (s.skipped || !s.service || !s.baseline) {
      lines.push(`| ${s.title} | skipped: ${s.skipped ?? 'no result'} | | | | | | | | | |`);
      continue;
    }
    const l = s.service.latencyMs;
    lines.push(
      `| ${s.title} | ${Math.round(s.service.requestsPerSecond)} | ${Math.round(s.baseline.requestsPerSecond)} | ${round((s.ratio ?? 0) * 100, 0)}% | ${l.p50} | ${l.p90} | ${l.p99} | ${s.service.unexpected} | ${round(s.peakRssMb ?? 0, 0)} | ${s.serviceCpuPercent ?? ''}% | ${s.serviceCpuUsPerRequest ?? ''} |`,
    );
    if (s.halfLoad) {
      const h = s.halfLoad;
      lines.push(
        `| ${s.title}, at ${h.rate} req/s (half of peak, evenly paced, ${h.seconds} s) | | | | ${h.latencyMs.p50} | ${h.latencyMs.p90} | ${h.latencyMs.p99} | ${h.unexpected} | | | |`,
      );
      const b = h.baselineLatencyMs;
      if (b) lines.push(`| baseline at the same pace (the generator's own floor) | | | | ${b.p50} | ${b.p90} | ${b.p99} | | | | |`);
    }
  }
  lines.push(
    '',
    `Service peak RSS over the whole run (VmHWM): ${round(r.servicePeakRssMb, 0)} MiB.`,
    '',
    '| target | measured | limit | met |',
    '|---|---|---|---|',
  );
  for (const t of r.targets) lines.push(`| ${t.what} | ${t.value} | ${t.limit} | ${t.met === null ? 'n/a' : t.met ? 'yes' : 'no'} |`);
  lines.push(
    '',
    '"unexpected" counts responses with another status than the scenario expects (200, or 401 for the refused request), connection errors and timeouts.',
    '',
  );
  return lines.join('\n');
}
