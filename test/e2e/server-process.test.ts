import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';

async function api(server: ServerProcess, method: string, path: string, body?: unknown, key = server.keys?.secret) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json', 'idempotency-key': `e2e-${Math.random()}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe('the service as a real process', () => {
  test('first start creates a sandbox and prints its test keys; the API works; logs keep secrets', async () => {
    const server = await startServerProcess();
    try {
      assert.ok(server.keys, `keys printed on first start:\n${server.output()}`);
      const health = await fetch(`${server.url}/healthz`);
      const healthBody = (await health.json()) as { status: string; database: string; rate_limiter: string };
      assert.equal(healthBody.status, 'ok');
      assert.equal(healthBody.database, 'ok');
      assert.match(healthBody.rate_limiter, /^ok/);

      const customer = await api(server, 'POST', '/v1/customers', { email: 'e2e@example.com' });
      assert.equal(customer.status, 200);
      const payment = await api(server, 'POST', '/v1/payments', { amount: 4200, currency: 'EUR', customer: customer.body.id });
      assert.equal(payment.status, 200);
      assert.equal(payment.body.status, 'requires_payment_method');
      const list = await api(server, 'GET', '/v1/payments');
      assert.equal((list.body.data as unknown[]).length, 1);
      const inQuery = await fetch(`${server.url}/v1/payments?key=${server.keys.secret}`);
      assert.equal(inQuery.status, 401);
      const basic = await fetch(`${server.url}/v1/payments`, { headers: { authorization: `Basic ${btoa(`${server.keys.secret}:`)}` } });
      assert.equal(basic.status, 401);

      // Log lines are written asynchronously: wait until the last request's line is out.
      for (let i = 0; i < 50 && !server.output().includes('"status":401'); i++) await new Promise((r) => setTimeout(r, 100));
      // The sandbox banner prints the keys once, by design; everything else is log output.
      const out = server.output();
      const bannerEnd = out.indexOf('\n', out.indexOf('Try: curl'));
      const logs = out.slice(0, out.indexOf('Created a sandbox account')) + out.slice(bannerEnd);
      assert.ok(logs.includes('"path":"/v1/payments"'), 'requests are logged');
      assert.ok(!logs.includes(server.keys.secret), 'the secret key never appears in the logs');
      assert.ok(!logs.includes(btoa(`${server.keys.secret}:`)), 'nor the Authorization header');
      assert.ok(!/authorization/i.test(logs), 'no Authorization header is logged');

      const db = readFileSync(join(server.dataDir, 'payments.db')).toString('latin1');
      assert.ok(!db.includes(server.keys.secret), 'the database keeps only hashes of keys');
      assert.ok(!db.includes(server.keys.publishable));
    } finally {
      await server.stop();
    }
  });

  test('SIGTERM finishes in-flight requests, loses no write, exits 0; a restart keeps the data', async () => {
    const server = await startServerProcess();
    const key = server.keys?.secret as string;
    let signalledAt = Number.POSITIVE_INFINITY;
    let firstAnswer!: () => void;
    const answeredOnce = new Promise<void>((resolve) => {
      firstAnswer = resolve;
    });
    const outcomes = Array.from({ length: 150 }, (_, i) =>
      api(server, 'POST', '/v1/customers', { name: `c${i}` }).then(
        (r) => {
          firstAnswer();
          return { outcome: String(r.status), at: performance.now() };
        },
        (err: Error & { cause?: { code?: string } }) => ({ outcome: err.cause?.code ?? err.message, at: performance.now() }),
      ),
    );
    await answeredOnce; // the others are in flight now
    signalledAt = performance.now();
    const code = await server.stop('SIGTERM');
    const results = await Promise.all(outcomes);
    assert.equal(code, 0, server.output());
    const answered = results.filter((r) => r.outcome === '200');
    assert.ok(
      answered.some((r) => r.at > signalledAt),
      'requests in flight when the signal arrived were still answered',
    );
    // A request the server had not started (refused, or reset while idle) is the only other outcome.
    for (const r of results) {
      assert.ok(['200', '503', 'ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(r.outcome), `unexpected outcome ${r.outcome}`);
    }

    const again = await startServerProcess({}, server.dataDir);
    try {
      assert.equal(again.keys, undefined, 'no new sandbox on a second start');
      let stored = 0;
      let cursor = '';
      for (;;) {
        const page = await api(again, 'GET', `/v1/customers?limit=100${cursor}`, undefined, key);
        const data = page.body.data as { id: string }[];
        stored += data.length;
        if (!page.body.has_more) break;
        cursor = `&starting_after=${data.at(-1)?.id}`;
      }
      assert.equal(stored, answered.length, 'every answered write is stored, nothing else');
    } finally {
      await again.stop();
    }
  });

  test('HTTPS with a certificate: a real TLS connection; a live key is accepted over it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payments-tls-'));
    const cert = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const server = await startServerProcess({ TLS_CERT_FILE: cert, TLS_KEY_FILE: keyFile });
    try {
      assert.match(server.url, /^https:/);
      const get = (path: string, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; body: string; protocol: string }>((resolve, reject) => {
          const req = httpsRequest(`${server.url}${path}`, { ca: readFileSync(cert), headers }, (res) => {
            const protocol = (res.socket as import('node:tls').TLSSocket).getProtocol() ?? '';
            let body = '';
            res.on('data', (d) => {
              body += d;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, protocol }));
          });
          req.on('error', reject);
          req.end();
        });
      const health = await get('/healthz');
      assert.equal(health.status, 200);
      assert.match(health.protocol, /^TLSv1\.[23]$/);
      const listed = await get('/v1/customers', { authorization: `Bearer ${server.keys?.secret}` });
      assert.equal(listed.status, 200);
      const plain = await new Promise<string>((resolve) => {
        const req = httpRequest(`http://127.0.0.1:${server.port}/healthz`, (res) => resolve(`answered ${res.statusCode}`));
        req.setTimeout(3000, () => req.destroy(new Error('timeout')));
        req.on('error', (err) => resolve(`refused: ${err.message}`));
        req.end();
      });
      assert.match(plain, /^refused/, 'plain HTTP is not served on the TLS port');
    } finally {
      await server.stop();
    }
  });
});
