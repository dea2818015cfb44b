import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * payments-react-native is tested with the React Native test renderer: Jest with React Native's
 * own preset (test/packages/react-native/jest.config.json) renders the real components. This file
 * starts the real service on loopback for each backend, makes the payments and the checkout
 * session the hooks pay (secret key, as the app's server would), runs Jest as a child process with
 * their client secrets, reads its JSON report, and checks the service's side of each payment.
 */
const root = new URL('../..', import.meta.url).pathname;

interface JestReport {
  success: boolean;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { message: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

function runJest(env: Record<string, string>, outputFile: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        join(root, 'node_modules/jest/bin/jest.js'),
        '--config',
        join(root, 'test/packages/react-native/jest.config.json'),
        '--ci',
        '--json',
        `--outputFile=${outputFile}`,
      ],
      { cwd: root, env: { ...process.env, ...env, NODE_ENV: 'test' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

const EXPECTED = [
  'PaymentsProvider refuses a secret or a restricted key with a clear error',
  'PaymentsProvider hooks outside the provider say what is missing',
  'CardField labelled inputs; formats the number, detects the brand and reports complete',
  'CardField American Express: 4-6-5 grouping and a 4-digit security code',
  'CardField live validation: an invalid number shows an alert under the field and is announced',
  'CardField tokenize with an unfinished card: errors on every field, no request',
  'hooks against the real service useTokenize: 4242 becomes a token with brand and last 4 only',
  'hooks against the real service useConfirmPayment: pays the payment by its client secret with 4242',
  'hooks against the real service useConfirmPayment: a declined card comes back as the service error',
  'hooks against the real service useConfirmCheckoutSession: completes the checkout session',
];

for (const backend of BACKENDS) {
  describe(`payments-react-native under the React Native jest preset (${backend.name})`, () => {
    let t: TestApp;
    let api: string;

    before(async () => {
      t = await createTestApp(backend);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(() => t?.close());

    test('Jest + react-test-renderer: every spec passes, the hooks pay through the real service', { timeout: 120_000 }, async () => {
      const customer = (await t.call('POST', '/v1/customers', { body: { email: 'app@example.com' } })).json().id as string;
      const payment = async () => (await t.call('POST', '/v1/payments', { body: { amount: 1500, currency: 'USD', customer } })).json();
      const ok = await payment();
      const declined = await payment();
      const session = (
        await t.call('POST', '/v1/checkout/sessions', {
          body: { amount: 2500, currency: 'USD', customer, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' },
        })
      ).json();
      assert.ok(ok.client_secret && declined.client_secret && session.client_secret);

      const outputFile = join(root, '.tmp', `react-native-jest-${backend.name}-${process.pid}.json`);
      const { code, output } = await runJest(
        {
          PAYMENTS_RN_API: api,
          PAYMENTS_RN_PK: t.account.keys.publishable_test,
          PAYMENTS_RN_PAY_OK: ok.client_secret,
          PAYMENTS_RN_PAY_DECLINE: declined.client_secret,
          PAYMENTS_RN_CS: session.client_secret,
        },
        outputFile,
      );
      const report = JSON.parse(readFileSync(outputFile, 'utf8')) as JestReport;
      rmSync(outputFile, { force: true });
      const results = report.testResults.flatMap((f) => f.assertionResults);
      const failures = results
        .filter((r) => r.status !== 'passed')
        .map((r) => `${r.fullName}: ${r.status}\n${r.failureMessages.join('\n')}`);
      assert.deepEqual(failures, [], `jest failed (exit ${code}):\n${output}`);
      assert.equal(code, 0, output);
      assert.ok(report.success);
      assert.deepEqual(results.map((r) => r.fullName).sort(), [...EXPECTED].sort());

      // The service's side: the hooks really paid.
      assert.equal((await t.call('GET', `/v1/payments/${ok.id}`)).json().status, 'succeeded');
      const after = (await t.call('GET', `/v1/payments/${declined.id}`)).json();
      assert.equal(after.status, 'requires_payment_method');
      assert.equal(after.last_payment_error.code, 'card_declined');
      assert.equal((await t.call('GET', `/v1/checkout/sessions/${session.id}`)).json().status, 'complete');
    });
  });
}

test('payments-react-native imports the card rules and the API calls from payments-js instead of copying them', () => {
  const source = readFileSync(join(root, 'packages/react-native/src/index.tsx'), 'utf8');
  assert.match(source, /from '\.\.\/\.\.\/browser\/src\/api\.js'/);
  assert.match(source, /from '\.\.\/\.\.\/browser\/src\/card\.js'/);
  for (const copied of [/function luhnValid/, /function detectBrand/, /['`]\/v1\//, /Authorization/]) assert.doesNotMatch(source, copied);
});
