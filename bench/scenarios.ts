// What the benchmark measures. Each scenario probes the running service once (checking the status,
// and that the endpoint exists at all) and then describes the requests the load generator repeats.
import { randomBytes } from 'node:crypto';
import type { LoadedAccount } from './fixtures.js';
import type { LoadRequest } from './load.js';

export interface Fixtures {
  main: LoadedAccount;
  large: LoadedAccount;
  small: LoadedAccount;
}

export type Prepared = { requests: LoadRequest[]; responseBytes: number[] } | { skipped: string };

export interface Scenario {
  name: string;
  title: string;
  /** What one request does, for docs/performance.md. */
  measures: string;
  /** The status every response should have; any other counts as an error. */
  expectedStatus: number;
  prepare(url: string, fixtures: Fixtures): Promise<Prepared>;
}

interface Probe {
  status: number;
  bytes: number;
  json: Record<string, unknown>;
  headers: Headers;
}

async function probe(url: string, request: LoadRequest, idempotencyKey?: string, body = request.body): Promise<Probe> {
  const headers: Record<string, string> = { ...request.headers };
  const key = idempotencyKey ?? (request.idempotencyKey === 'unique' ? `probe-${randomBytes(8).toString('hex')}` : request.idempotencyKey);
  if (key) headers['idempotency-key'] = key;
  const res = await fetch(`${url}${request.paths[0]}`, { method: request.method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: reported through the status
  }
  return { status: res.status, bytes: Buffer.byteLength(text), json, headers: res.headers };
}

function expectStatus(p: Probe, status: number, what: string): void {
  if (p.status !== status) {
    const error = (p.json.error as { code?: string } | undefined)?.code;
    throw new Error(`${what}: expected ${status}, got ${p.status}${error ? ` (${error})` : ''}`);
  }
}

const secretHeaders = (account: LoadedAccount, json: boolean): Record<string, string> => ({
  authorization: `Bearer ${account.keys.secret_test}`,
  ...(json ? { 'content-type': 'application/json' } : {}),
});

const paymentBody = (account: LoadedAccount) =>
  JSON.stringify({ amount: 2000, currency: 'USD', customer: account.customers[0], description: 'Bench order' });

const TEST_CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };

function listScenario(name: string, pick: (f: Fixtures) => LoadedAccount, size: string): Scenario {
  return {
    name,
    title: `list 100 of ${size}`,
    measures: `GET /v1/payments?limit=100 for an account holding ${size} payments (one index range scan).`,
    expectedStatus: 200,
    async prepare(url, fixtures) {
      const request: LoadRequest = { method: 'GET', paths: ['/v1/payments?limit=100'], headers: secretHeaders(pick(fixtures), false) };
      const p = await probe(url, request);
      expectStatus(p, 200, name);
      if ((p.json.data as unknown[]).length !== 100) throw new Error(`${name}: expected 100 payments`);
      return { requests: [request], responseBytes: [p.bytes] };
    },
  };
}

export function scenarios(largeSize: number, smallSize: number): Scenario[] {
  const fmt = (n: number) => n.toLocaleString('en');
  return [
    {
      name: 'create_payment',
      title: 'create a payment',
      measures: 'POST /v1/payments with a new Idempotency-Key each time: key claim, insert, event, stored response, one commit.',
      expectedStatus: 200,
      async prepare(url, { main }) {
        const request: LoadRequest = {
          method: 'POST',
          paths: ['/v1/payments'],
          headers: secretHeaders(main, true),
          body: paymentBody(main),
          idempotencyKey: 'unique',
        };
        const p = await probe(url, request);
        expectStatus(p, 200, 'create_payment');
        return { requests: [request], responseBytes: [p.bytes] };
      },
    },
    {
      name: 'retrieve_payment',
      title: 'retrieve a payment',
      measures: 'GET /v1/payments/:id, cycling over 1,000 existing payments.',
      expectedStatus: 200,
      async prepare(url, { main }) {
        const request: LoadRequest = {
          method: 'GET',
          paths: main.sampleIds.map((id) => `/v1/payments/${id}`),
          headers: secretHeaders(main, false),
        };
        const p = await probe(url, request);
        expectStatus(p, 200, 'retrieve_payment');
        return { requests: [request], responseBytes: [p.bytes] };
      },
    },
    listScenario('list_100_of_large', (f) => f.large, fmt(largeSize)),
    listScenario('list_100_of_small', (f) => f.small, fmt(smallSize)),
    {
      name: 'create_and_confirm',
      title: 'create and confirm with a test token',
      measures: 'POST /v1/tokens (publishable key, card 4242…) then POST /v1/payments with that token and confirm: true; both counted.',
      expectedStatus: 200,
      async prepare(url, { main }) {
        const tokenRequest: LoadRequest = {
          method: 'POST',
          paths: ['/v1/tokens'],
          headers: { authorization: `Bearer ${main.keys.publishable_test}`, 'content-type': 'application/json' },
          body: JSON.stringify({ card: TEST_CARD }),
          idempotencyKey: 'unique',
          capture: true,
        };
        const token = await probe(url, tokenRequest);
        if (token.status === 404) return { skipped: 'endpoint not available (POST /v1/tokens)' };
        expectStatus(token, 200, 'create_and_confirm: token');
        const confirmRequest: LoadRequest = {
          method: 'POST',
          paths: ['/v1/payments'],
          headers: secretHeaders(main, true),
          body: JSON.stringify({
            amount: 2000,
            currency: 'USD',
            customer: main.customers[0],
            payment_method: '{{captured}}',
            confirm: true,
          }),
          idempotencyKey: 'unique',
        };
        const confirmed = await probe(url, confirmRequest, undefined, confirmRequest.body?.replace('{{captured}}', String(token.json.id)));
        if (confirmed.status === 400 && (confirmed.json.error as { code?: string })?.code === 'parameter_unknown') {
          return { skipped: 'endpoint not available (payment_method/confirm on POST /v1/payments)' };
        }
        expectStatus(confirmed, 200, 'create_and_confirm: payment');
        if (confirmed.json.status !== 'succeeded') throw new Error(`create_and_confirm: payment is ${String(confirmed.json.status)}`);
        return { requests: [tokenRequest, confirmRequest], responseBytes: [token.bytes, confirmed.bytes] };
      },
    },
    {
      name: 'idempotent_replay',
      title: 'idempotent replay',
      measures: 'POST /v1/payments repeating one Idempotency-Key and body: answered from the stored response.',
      expectedStatus: 200,
      async prepare(url, { main }) {
        const request: LoadRequest = {
          method: 'POST',
          paths: ['/v1/payments'],
          headers: secretHeaders(main, true),
          body: paymentBody(main),
          idempotencyKey: `bench-replay-${randomBytes(8).toString('hex')}`,
        };
        expectStatus(await probe(url, request), 200, 'idempotent_replay: first');
        const replay = await probe(url, request);
        expectStatus(replay, 200, 'idempotent_replay: replay');
        if (replay.headers.get('idempotent-replayed') !== 'true') throw new Error('idempotent_replay: not replayed');
        return { requests: [request], responseBytes: [replay.bytes] };
      },
    },
    {
      name: 'refused_bad_key',
      title: 'refused request (bad key)',
      measures: 'GET /v1/payments with a well-formed but unknown secret key: 401 api_key_invalid.',
      expectedStatus: 401,
      async prepare(url) {
        const request: LoadRequest = {
          method: 'GET',
          paths: ['/v1/payments'],
          headers: { authorization: `Bearer service_test_${'Bench0Unknown0Key'.repeat(2)}` },
        };
        const p = await probe(url, request);
        expectStatus(p, 401, 'refused_bad_key');
        return { requests: [request], responseBytes: [p.bytes] };
      },
    },
  ];
}
