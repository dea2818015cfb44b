import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import { systemClock } from '../../src/lib/clock.js';
import { BACKENDS, type TestStore } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Sends raw bytes on a fresh socket; resolves with everything the server wrote and how long until it closed. */
function rawExchange(port: number, write: (socket: ReturnType<typeof connect>) => void): Promise<{ text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => write(socket));
    let text = '';
    socket.on('data', (d) => {
      text += d;
    });
    socket.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
  });
}

const backend = BACKENDS[0] as (typeof BACKENDS)[number];

describe('request limits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(backend, { maxInFlight: 1 });
  });
  after(() => t.close());

  test('beyond MAX_IN_FLIGHT requests at once: 503 api_error service_overloaded with Retry-After, then served again', async () => {
    const body = new PassThrough();
    // The first request stays in flight while its body has not all arrived.
    const first = t.app.inject({
      method: 'POST',
      url: '/v1/customers',
      headers: {
        authorization: `Bearer ${t.account.keys.secret_test}`,
        'content-type': 'application/json',
        'idempotency-key': `inflight-${Date.now()}`,
      },
      payload: body,
    });
    body.write('{"name":');
    await new Promise((r) => setTimeout(r, 20));
    const second = await t.call('GET', '/v1/customers');
    assert.equal(second.statusCode, 503);
    assert.equal(second.json().error.type, 'api_error');
    assert.equal(second.json().error.code, 'service_overloaded');
    assert.equal(second.headers['retry-after'], '1');
    assert.match(String(second.headers['request-id']), /^req_/);
    body.end('"Slow"}');
    assert.equal((await first).statusCode, 200);
    assert.equal((await t.call('GET', '/v1/customers')).statusCode, 200);
  });

  test('a URL longer than 8 KiB is 414 invalid_request_error', async () => {
    const res = await t.call('GET', `/v1/customers?email=${'a'.repeat(9000)}`);
    assert.equal(res.statusCode, 414);
    assert.equal(res.json().error.type, 'invalid_request_error');
    assert.equal(res.json().error.code, 'url_too_long');
  });

  test('a body over 64 KiB is 413 body_too_large', async () => {
    const res = await t.call('POST', '/v1/customers', { body: { description: 'x'.repeat(70 * 1024) } });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().error.code, 'body_too_large');
  });
});

describe('request limits on a listening server', () => {
  let db: TestStore;
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    db = await backend.open();
    app = await buildApp({
      store: db.store,
      logLevel: 'silent',
      timeouts: { headersMs: 500, requestMs: 1000 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  after(async () => {
    await app.close();
    await db.destroy();
  });

  test('headers over 16 KiB: 431 header_too_large in the contract’s shape with a Request-Id', async () => {
    const { text } = await rawExchange(port, (s) => s.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`));
    assert.match(text, /^HTTP\/1.1 431 /);
    assert.match(text, /\r\nRequest-Id: req_\w+\r\n/);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    assert.equal(body.error.type, 'invalid_request_error');
    assert.equal(body.error.code, 'header_too_large');
  });

  test('slowloris: a client sending its headers a byte at a time is answered 408 and cut off', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { text, ms } = await rawExchange(port, (s) => {
      const request = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ${'z'.repeat(200)}`;
      let i = 0;
      timer = setInterval(() => {
        if (s.destroyed || i >= request.length) return;
        s.write(request[i++] as string);
      }, 50);
    });
    clearInterval(timer);
    assert.match(text, /^HTTP\/1.1 408 /);
    assert.match(text, /"code":"request_timeout"/);
    assert.ok(ms < 3000, `closed after ${ms} ms (headers timeout 500 ms)`);
  });

  test('malformed HTTP: 400 request_malformed', async () => {
    const { text } = await rawExchange(port, (s) => s.write('NOT HTTP AT ALL\r\n\r\n'));
    assert.match(text, /^HTTP\/1.1 400 /);
    assert.match(text, /"code":"request_malformed"/);
  });
});

describe('closing with keep-alive requests in flight', () => {
  test('a response finished after close() began says Connection: close, so close() does not wait for the keep-alive timeout', async () => {
    const db = await backend.open();
    const app = await buildApp({ store: db.store, logLevel: 'silent', audit: { enabled: false } });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      const { keys } = await createAccount(db.store, systemClock, 'Closing');
      const agent = new Agent({ keepAlive: true });
      let release!: () => void;
      const answered = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const headers = {
          authorization: `Bearer ${keys.secret_test}`,
          'content-type': 'application/json',
          'idempotency-key': `closing-${Date.now()}`,
        };
        const req = httpRequest({ port, host: '127.0.0.1', path: '/v1/customers', method: 'POST', agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        });
        req.on('error', reject);
        // Half the body sent: the request is in flight when close() starts.
        req.write('{"name":');
        release = () => req.end('"Late"}');
      });
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      const closed = app.close();
      release();
      const res = await answered;
      await closed;
      assert.equal(res.status, 200);
      assert.equal(res.connection, 'close');
      assert.ok(Date.now() - started < 3000, `closed after ${Date.now() - started} ms`);
      agent.destroy();
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});
