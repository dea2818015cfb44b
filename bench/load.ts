// The load generator, always its own process (bench/run.ts spawns it): reads a LoadSpec as JSON on
// stdin, drives the server with autocannon, and writes a LoadResult as JSON on stdout.
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
  /** Requests per second over all connections; 0 or absent: as fast as the server answers. */
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

function buildRequest(template: LoadRequest, runTag: string): Built {
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
      if (template.idempotencyKey === 'unique') (next.headers as Record<string, string>)['idempotency-key'] = `${runTag}-${sequence++}`;
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

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const runTag = `bench-${process.pid}-${Date.now().toString(36)}`;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.durationSeconds,
        requests: spec.requests.map((r) => buildRequest(r, runTag)),
        ...(spec.rate ? { overallRate: spec.rate } : {}),
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
