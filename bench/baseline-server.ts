// The baseline: the same HTTP framework with nothing else. `GET|POST /json/:bytes` answers a JSON
// body of exactly that many bytes: no auth, no database, no hooks. Prints `listening <url>`.
//   node --import tsx bench/baseline-server.ts [port]
import Fastify from 'fastify';

const bodies = new Map<number, string>();

/** A JSON object of exactly `bytes` bytes (at least 20), built once per size. */
export function jsonOfSize(bytes: number): string {
  let body = bodies.get(bytes);
  if (body === undefined) {
    const shell = '{"id":"bench","object":"baseline","pad":""}';
    body = `${shell.slice(0, -2)}${'x'.repeat(Math.max(0, bytes - shell.length))}"}`;
    bodies.set(bytes, body);
  }
  return body;
}

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
const handler = async (req: { params: unknown }, reply: { type(t: string): unknown }) => {
  const bytes = Math.min(1_000_000, Math.max(20, Number((req.params as { bytes: string }).bytes) || 20));
  reply.type('application/json; charset=utf-8');
  return jsonOfSize(bytes);
};
app.get('/json/:bytes', handler);
app.post('/json/:bytes', handler);

const port = Number(process.argv[2] ?? 0);
app.listen({ port, host: '127.0.0.1' }).then(
  (url) => process.stdout.write(`listening ${url}\n`),
  (err) => {
    process.stderr.write(`baseline: ${String(err)}\n`);
    process.exit(1);
  },
);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    app.close().then(() => process.exit(0));
  });
}
