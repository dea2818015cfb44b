import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import type { Backend } from '../../helpers/backends.js';
import { delayingProxy, dropFirstResponseProxy, type Proxy, scriptedServer, type Stub } from '../js/helpers/proxies.js';
import { type SdkService, startService } from '../js/helpers/service.js';

/**
 * What a language's SDK test program needs: the real service, the proxies and stubs that make
 * failures happen, and a signed webhook, all handed over in environment variables.
 * Every language's program runs the same checks and prints `ok <check>` for each.
 */
export const CHECKS = [
  'customer created',
  'payment confirmed',
  'pagination',
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'idempotency_error',
  'card_error',
  'rate_limit_error',
  'api_error',
  'retry-after honoured',
  'timeout',
  'webhook verified',
  'webhook tampered refused',
  'dropped connection retried',
] as const;

export const WEBHOOK_SECRET = 'whsec_sdk_program_0123456789';

export interface ProgramFixtures {
  service: SdkService;
  env: Record<string, string>;
  /** Drops the first connection after the service answered. */
  dropProxy: Proxy;
  /** Answers 429 with Retry-After: 1, then a customer: records the headers sent. */
  retryAfterStub: Stub;
  close(): Promise<void>;
}

export async function startFixtures(backend: Backend): Promise<ProgramFixtures> {
  const service = await startService(backend);
  const restricted = await service.restrictedKey({ customers: 'read' });
  const dropProxy = await dropFirstResponseProxy(service.url);
  const slowProxy = await delayingProxy(service.url, 2_000);
  const rateLimited = await scriptedServer([
    {
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'Too many requests.', request_id: 'req_stub429' } },
    },
  ]);
  const serverError = await scriptedServer([
    {
      status: 500,
      body: { error: { type: 'api_error', code: 'internal_error', message: 'Something went wrong.', request_id: 'req_stub500' } },
    },
  ]);
  const customer = {
    id: 'cus_stub',
    object: 'customer',
    email: null,
    name: 'Stub',
    description: null,
    metadata: {},
    created: 1_700_000_000,
    livemode: false,
  };
  const retryAfterStub = await scriptedServer([
    {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { type: 'rate_limit_error', code: 'rate_limited', message: 'Slow down.' } },
    },
    { status: 200, body: customer },
  ]);
  const payload = JSON.stringify({
    id: 'evt_program',
    object: 'event',
    type: 'payment.succeeded',
    data: { object: { id: 'pay_program', object: 'payment' } },
    request: null,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
  });
  const t = Math.floor(Date.now() / 1000);
  const signature = `t=${t},v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${payload}`).digest('hex')}`;
  const env = {
    PAYMENTS_BASE_URL: service.url,
    PAYMENTS_SECRET_KEY: service.keys.secret_test,
    PAYMENTS_RESTRICTED_KEY: restricted,
    PAYMENTS_API_VERSION: '2025-06-01',
    DROP_PROXY_URL: dropProxy.url,
    SLOW_PROXY_URL: slowProxy.url,
    RATE_LIMITED_URL: rateLimited.url,
    SERVER_ERROR_URL: serverError.url,
    RETRY_AFTER_URL: retryAfterStub.url,
    WEBHOOK_SECRET,
    WEBHOOK_PAYLOAD: payload,
    WEBHOOK_SIGNATURE: signature,
  };
  return {
    service,
    env,
    dropProxy,
    retryAfterStub,
    async close() {
      await Promise.all([dropProxy, slowProxy, rateLimited, serverError, retryAfterStub].map((p) => p.close()));
      await service.close();
    },
  };
}

/** Whether a command is on PATH. */
export function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

import type { ProgramResult } from './language-fixture.js';

// One child-process runner serves every language's test program.
export { type ProgramResult, run as runProgram } from './language-fixture.js';

/** The assertions every language shares: exit 0, every check reported, and what the proxies and stubs saw. */
export function assertProgramPassed(
  result: ProgramResult,
  fixtures: ProgramFixtures,
  userAgent: RegExp,
  checks: readonly string[] = CHECKS,
): void {
  const output = `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
  assert.equal(result.code, 0, `the program failed\n${output}`);
  for (const check of checks) assert.ok(result.stdout.split('\n').includes(`ok ${check}`), `missing "ok ${check}"\n${output}`);

  const keys = fixtures.dropProxy.idempotencyKeys;
  assert.equal(keys.length, 2, `the dropped POST was sent twice\n${output}`);
  assert.equal(keys[0], keys[1], 'the retry after the dropped connection reused the Idempotency-Key');

  const seen = fixtures.retryAfterStub.requests;
  assert.equal(seen.length, 2, 'the 429 was retried once');
  assert.equal(seen[0]?.['idempotency-key'], seen[1]?.['idempotency-key'], 'the retry after 429 reused the Idempotency-Key');
  assert.equal(seen[0]?.['service-version'], fixtures.env.PAYMENTS_API_VERSION, 'apiVersion is sent as Service-Version');
  assert.match(String(seen[0]?.['user-agent']), userAgent);
  assert.match(String(seen[0]?.authorization), /^Bearer service_test_/);
}
