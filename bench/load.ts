// The load generator, always its own process (bench/run.ts spawns it): reads a LoadSpec as JSON on
// stdin, drives the server with autocannon, and writes a LoadResult as JSON on stdout.
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Paths used in turn, one per request. */
  paths: string[];
  headers: Record<string, string>;
  /** May contain `{{captured}}`: the `id` of the previous response of this connection that had `capture`. */
  body?: string;
  /** `unique`: a new Idempotency-Key for every request; any other string is sent as is. */
  idempotencyKey?: string;
  /** Remember this response's `id` for the next request's `{{captured}}`. */
  capture?: boolean;
}

export interface LoadSpec {
  url: string;
  connections: number;
  durationSeconds: number;
  requests: LoadRequest[];
  /**
   * Requests per second, evenly paced (one every 1/rate s, open loop, latency counted from the
   * planned send time). Absent: autocannon, as fast as the server answers. autocannon's own rate
   * option is not used: it sends each second's quota in one burst.
   */
  rate?: number;
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; average: number; max: number };
  statusCodes: Record<string, number>;
  /** Connection errors and timeouts (not HTTP statuses). */
  errors: number;
  timeouts: number;
  durationSeconds: number;
}

interface Context {
  captured?: string;
}

type Built = NonNullable<autocannon.Options['requests']>[number];

let templates = 0;

function buildRequest(template: LoadRequest, runTag: string): Built {
  // Each request of a sequence has its own keys: the token and the payment of one connection
  // must not share an Idempotency-Key (that is 400 idempotency_key_reused, counted as unexpected).
  const keyTag = `${runTag}-${templates++}`;
  let turn = 0;
  let sequence = 0;
  const needsSetup = template.paths.length > 1 || template.idempotencyKey === 'unique' || template.body?.includes('{{captured}}');
  const built: Built = {
    method: template.method,
    path: template.paths[0] as string,
    headers: {
      ...template.headers,
      ...(template.idempotencyKey && template.idempotencyKey !== 'unique' ? { 'idempotency-key': template.idempotencyKey } : {}),
    },
    ...(template.body !== undefined ? { body: template.body } : {}),
  };
  if (needsSetup) {
    built.setupRequest = (req: autocannon.Request, context: Context) => {
      const next: autocannon.Request = { ...req, headers: { ...req.headers } };
      if (template.paths.length > 1) next.path = template.paths[turn++ % template.paths.length] as string;
      if (template.idempotencyKey === 'unique') (next.headers as Record<string, string>)['idempotency-key'] = `${keyTag}-${sequence++}`;
      if (template.body?.includes('{{captured}}')) next.body = template.body.replace('{{captured}}', context.captured ?? 'none');
      return next;
    };
  }
  if (template.capture) {
    built.onResponse = (_status: number, body: string, context: Context) => {
      try {
        context.captured = (JSON.parse(body) as { id?: string }).id;
      } catch {
        context.captured = undefined;
      }
    };
  }
  return built;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);
}

/** Open-loop paced load over keep-alive connections (single-request scenarios only). */
export async function runPaced(spec: LoadSpec): Promise<LoadResult> {
  const template = spec.requests[0] as LoadRequest;
  const rate = spec.rate as number;
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const url = new URL(spec.url);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  let inFlight = 0;
  const runTag = `paced-${process.pid}-${Date.now().toString(36)}`;
  const send = (plannedAt: number) => {
    const i = sent++;
    const headers: Record<string, string> = { ...template.headers };
    if (template.idempotencyKey === 'unique') headers['idempotency-key'] = `${runTag}-${i}`;
    else if (template.idempotencyKey) headers['idempotency-key'] = template.idempotencyKey;
    inFlight++;
    const req = request(
      { agent, host: url.hostname, port: url.port, method: template.method, path: template.paths[i % template.paths.length], headers },
      (res) => {
        res.resume();
        res.on('end', () => {
          inFlight--;
          latencies.push(performance.now() - plannedAt);
          const code = String(res.statusCode);
          statusCodes[code] = (statusCodes[code] ?? 0) + 1;
        });
      },
    );
    req.on('error', () => {
      inFlight--;
      errors++;
    });
    req.end(template.body);
  };
  const started = performance.now();
  const end = started + spec.durationSeconds * 1000;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(Math.floor(((Math.min(now, end) - started) / 1000) * rate), Math.floor(spec.durationSeconds * rate));
      while (sent < due) send(started + (sent * 1000) / rate);
      if (now < end) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  while (inFlight > 0 && performance.now() < end + 10_000) await new Promise((r) => setTimeout(r, 10));
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    requests: sorted.length,
    requestsPerSecond: round(sorted.length / spec.durationSeconds),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(percentile(sorted, 99)),
      average: round(sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1)),
      max: round(sorted[sorted.length - 1] ?? 0),
    },
    statusCodes,
    errors,
    timeouts: inFlight,
    durationSeconds: spec.durationSeconds,
  };
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (spec.rate) return runPaced(spec);
  const runTag = `bench-${process.pid}-${Date.now().toString(36)}`;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.durationSeconds,
        requests: spec.requests.map((r) => buildRequest(r, runTag)),
      },
      (err, result) => {
        if (err) return reject(err);
        const statusCodes: Record<string, number> = {};
        for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count;
        resolve({
          requests: result.requests.total,
          requestsPerSecond: result.requests.average,
          latencyMs: {
            p50: result.latency.p50,
            p90: result.latency.p90,
            p99: result.latency.p99,
            average: result.latency.average,
            max: result.latency.max,
          },
          statusCodes,
          errors: result.errors,
          timeouts: result.timeouts,
          durationSeconds: result.duration,
        });
      },
    );
  });
}

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const spec = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LoadSpec;
  process.stdout.write(`${JSON.stringify(await runLoad(spec))}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    process.stderr.write(`load: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
