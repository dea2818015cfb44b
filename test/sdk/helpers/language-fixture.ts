import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildModel } from '../../../packages/sdk-generator/src/build-model.js';
import type { Emitter } from '../../../packages/sdk-generator/src/emitter.js';
import type { OpenApiDocument } from '../../../packages/sdk-generator/src/openapi.js';
import type { Backend } from '../../helpers/backends.js';
import { dropFirstResponseProxy, type Proxy, scriptedServer, type Stub } from '../js/helpers/proxies.js';
import { type SdkService, startService } from '../js/helpers/service.js';

/**
 * What every language's SDK test program gets: the real service, a restricted key, a proxy
 * that drops the first connection after the service answered, scripted servers for the
 * statuses the service cannot be made to send, and a signed webhook delivery. All through env.
 */
export interface LanguageFixture {
  env: Record<string, string>;
  service: SdkService;
  drop: Proxy;
  /** Answers 429 (Retry-After: 0), 429 (Retry-After: 1), then an account. */
  rateLimit: Stub;
  /** Always answers 500 api_error. */
  serverError: Stub;
  close(): Promise<void>;
}

/** The checks each test program prints as `ok <name>`, one line each. */
export const CHECKS = [
  'customer',
  'payment',
  'pagination',
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'idempotency_error',
  'card_error',
  'rate_limit_error',
  'api_error',
  'publishable_key_refused',
  'webhook',
  'dropped_connection_retried',
] as const;

const error = (type: string, code: string, status: number, headers: Record<string, string> = {}) => ({
  status,
  headers,
  body: { error: { type, code, message: `${code} happened.`, request_id: 'req_stub' } },
});

export async function startLanguageFixture(backend: Backend): Promise<LanguageFixture> {
  const service = await startService(backend);
  const restricted = await service.restrictedKey({ customers: 'read' });
  const drop = await dropFirstResponseProxy(service.url);
  const rateLimit = await scriptedServer([
    error('rate_limit_error', 'rate_limit_exceeded', 429, { 'retry-after': '0' }),
    error('rate_limit_error', 'rate_limit_exceeded', 429, { 'retry-after': '1' }),
    { status: 200, body: { id: 'acct_stub', object: 'account', name: 'Stub', default_version: '2026-09-01', created: 1 } },
  ]);
  const serverError = await scriptedServer([error('api_error', 'internal_error', 500)]);
  const secret = 'whsec_language_fixture_0123456789';
  const payload = JSON.stringify({
    id: 'evt_fixture',
    object: 'event',
    type: 'payment.succeeded',
    data: { object: { id: 'pay_fixture', object: 'payment' } },
    request: null,
    created: 1_700_000_000,
    livemode: false,
  });
  const t = Math.floor(Date.now() / 1000);
  const signature = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
  return {
    service,
    drop,
    rateLimit,
    serverError,
    env: {
      PAYMENTS_BASE_URL: service.url,
      PAYMENTS_SECRET_KEY: service.keys.secret_test,
      PAYMENTS_PUBLISHABLE_KEY: service.keys.publishable_test,
      PAYMENTS_RESTRICTED_KEY: restricted,
      /** Well-formed, but no such key: 401 api_key_invalid. */
      PAYMENTS_UNKNOWN_KEY: `service_test_${'0'.repeat(32)}`,
      PAYMENTS_DROP_URL: drop.url,
      PAYMENTS_RATE_LIMIT_URL: rateLimit.url,
      PAYMENTS_SERVER_ERROR_URL: serverError.url,
      WEBHOOK_SECRET: secret,
      WEBHOOK_PAYLOAD: payload,
      WEBHOOK_SIGNATURE: signature,
    },
    async close() {
      await Promise.all([drop.close(), rateLimit.close(), serverError.close()]);
      await service.close();
    },
  };
}

/** Whether a command runs; the reason to skip when it does not. */
export function missingCommand(command: string, args: string[] = ['--version']): string | undefined {
  const probe = spawnSync(command, args, { stdio: 'ignore' });
  return probe.error || probe.status !== 0
    ? `\`${command}\` is not installed or does not run: this language's SDK tests are skipped (.ci/run installs it)`
    : undefined;
}

export interface ProgramResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking the event loop (the service answers from this process). */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The checks a program reported as `ok <name>`. */
export function passedChecks(stdout: string): string[] {
  return stdout
    .split('\n')
    .map((l) => /^ok (\S+)/.exec(l.trim())?.[1])
    .filter((x): x is string => x !== undefined);
}

/**
 * Writes what an emitter makes of test/sdk/fixtures/synthetic-openapi.json (nested resources,
 * a property that is no identifier, an operation with body and query, an unknown error type)
 * into a temporary directory, and returns it: new endpoints must need no generator change.
 */
export function emitSynthetic(emitter: Emitter): string {
  const fixture = new URL('../fixtures/synthetic-openapi.json', import.meta.url);
  const model = buildModel(JSON.parse(readFileSync(fixture, 'utf8')) as OpenApiDocument);
  const dir = mkdtempSync(join(tmpdir(), `payments-synthetic-${emitter.language}-`));
  for (const file of emitter.emit(model)) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
  return dir;
}
