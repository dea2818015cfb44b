import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BACKENDS } from '../../helpers/backends.js';
import { type SdkService, startService } from './helpers/service.js';

// The SDK as a user gets it: packed (which builds ESM + CJS + .d.ts), installed into a new
// project outside the repository, then imported, required, type-checked and run from its README.
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const sdkDir = join(root, 'sdks/js');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const readme = readFileSync(join(sdkDir, 'README.md'), 'utf8');

/** The fenced blocks of a language in a markdown section (`## Title` up to the next `## `). */
function codeBlocks(markdown: string, language: string, section?: string): string[] {
  let text = markdown;
  if (section) {
    const start = markdown.indexOf(`\n## ${section}\n`);
    assert.ok(start >= 0, `README has a "${section}" section`);
    const end = markdown.indexOf('\n## ', start + 1);
    text = markdown.slice(start, end < 0 ? undefined : end);
  }
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1] as string);
}

const TYPING_OK = `import { type Customer, InvalidRequestError, type ListObject, type Payment, PaymentsClient, type PaymentsCreateParams } from 'payments-sdk';

const client = new PaymentsClient('service_test_x', { apiVersion: '2026-09-01', timeout: 10_000, maxNetworkRetries: 1, baseUrl: 'http://127.0.0.1:4242' });
const params: PaymentsCreateParams = { amount: 2000, currency: 'USD', customer: 'cus_1', capture_method: 'manual' };
export async function main(): Promise<void> {
  const payment: Payment = await client.payments.create(params, { idempotencyKey: 'k' });
  const status: 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'requires_capture' | 'succeeded' | 'canceled' = payment.status;
  const card: string | undefined = payment.payment_method?.last4;
  const page: ListObject<Customer> = await client.customers.list({ limit: 3 });
  for await (const customer of client.customers.list()) {
    const email: string | null = customer.email;
    void email;
  }
  const all: Payment[] = await client.payments.list({ created: { gte: 1 } }).autoPagingToArray({ limit: 20 });
  const deleted: true = (await client.customers.delete('cus_1')).deleted;
  try {
    await client.account.update({ name: 'n' });
  } catch (err) {
    if (err instanceof InvalidRequestError) console.log(err.param, err.code, err.statusCode, err.requestId);
  }
  console.log(status, card, page.has_more, all.length, deleted);

  // @ts-expect-error customer is required
  await client.payments.create({ amount: 2000, currency: 'USD' });
  // @ts-expect-error amount is a number
  await client.payments.create({ amount: '2000', currency: 'USD', customer: 'cus_1' });
  // @ts-expect-error no such parameter
  await client.payments.create({ amount: 2000, currency: 'USD', customer: 'cus_1', amout: 1 });
  // @ts-expect-error not a status
  await client.payments.list({ status: 'done' });
  // @ts-expect-error not an option
  new PaymentsClient('service_test_x', { timout: 5 });
  // @ts-expect-error retrieve needs an id
  await client.payments.retrieve();
  // @ts-expect-error no such field on a payment
  payment.amount_due;
  // @ts-expect-error no such method
  await client.payments.explode('pay_1');
}
`;

const TYPING_WRONG = `import { PaymentsClient } from 'payments-sdk';
const client = new PaymentsClient('service_test_x');
export const p = client.payments.create({ amount: '2000', currency: 'USD', customer: 'cus_1' });
`;

const TYPING_CJS = `import sdk = require('payments-sdk');
const client = new sdk.PaymentsClient('service_test_x');
export const list: Promise<sdk.ListObject<sdk.Payment>> = client.payments.list().then((page) => page);
`;

describe('payments-sdk as an installed package', () => {
  let project: string;
  let service: SdkService;
  before(async () => {
    project = mkdtempSync(join(tmpdir(), 'payments-sdk-project-'));
    const packed = await run('npm', ['pack', '--silent', '--pack-destination', project], { cwd: sdkDir });
    const tarball = packed.stdout.trim().split('\n').at(-1) as string;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'new-project', private: true, type: 'module' }));
    await run('npm', ['install', join(project, tarball), '--no-audit', '--no-fund', '--offline', '--silent'], { cwd: project });
    service = await startService(BACKENDS[0]!);
  });
  after(async () => {
    await service?.close();
    rmSync(project, { recursive: true, force: true });
  });

  test('ESM import and CommonJS require load their own builds', async () => {
    const esm = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import Default, { PaymentsClient, RateLimitError, PaymentsError } from 'payments-sdk'; console.log(JSON.stringify({ same: Default === PaymentsClient, url: import.meta.resolve('payments-sdk'), errors: new RateLimitError('m', { type: 'rate_limit_error' }) instanceof PaymentsError, version: PaymentsClient.VERSION }));",
      ],
      { cwd: project },
    );
    const e = JSON.parse(esm.stdout);
    assert.deepEqual({ ...e, url: undefined }, { same: true, url: undefined, errors: true, version: '1.0.0' });
    assert.match(e.url, /node_modules\/payments-sdk\/dist\/esm\/index\.js$/);

    const cjs = await run(
      process.execPath,
      [
        '-e',
        "const { PaymentsClient, InvalidRequestError, PaymentsError } = require('payments-sdk'); console.log(JSON.stringify({ path: require.resolve('payments-sdk'), errors: new InvalidRequestError('m', { type: 'invalid_request_error' }) instanceof PaymentsError, version: PaymentsClient.VERSION, client: typeof new PaymentsClient('service_test_x').payments.create }));",
      ],
      { cwd: project },
    );
    const c = JSON.parse(cjs.stdout);
    assert.match(c.path, /node_modules\/payments-sdk\/dist\/cjs\/index\.js$/);
    assert.deepEqual({ ...c, path: undefined }, { path: undefined, errors: true, version: '1.0.0', client: 'function' });
  });

  test('the package has no runtime dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules/payments-sdk/package.json'), 'utf8'));
    assert.equal(pkg.version, '1.0.0');
    assert.equal(pkg.dependencies, undefined);
  });

  test('the README quick start runs against the service', async () => {
    const [quickstart] = codeBlocks(readme, 'js', 'Quick start');
    assert.ok(quickstart);
    writeFileSync(join(project, 'quickstart.mjs'), quickstart);
    const { stdout } = await run(process.execPath, ['quickstart.mjs'], {
      cwd: project,
      env: { ...process.env, PAYMENTS_SECRET_KEY: service.keys.secret_test, PAYMENTS_BASE_URL: service.url },
    });
    const lines = stdout.trim().split('\n');
    assert.match(lines[0] ?? '', /^pay_\S+ requires_payment_method$/);
    assert.match(lines[1] ?? '', /^pay_\S+ 2000 USD$/);
  });

  test('types: the README examples and correct calls compile; wrong calls do not', async () => {
    const files: string[] = [];
    codeBlocks(readme, 'ts').forEach((block, i) => {
      writeFileSync(join(project, `readme-${i}.ts`), `${block}\nexport {};\n`);
      files.push(`readme-${i}.ts`);
    });
    assert.ok(files.length >= 6, 'a typed example per resource and more');
    writeFileSync(join(project, 'typing.ts'), TYPING_OK);
    writeFileSync(join(project, 'typing-cjs.cts'), TYPING_CJS);
    const options = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        types: ['node'],
        typeRoots: [join(root, 'node_modules/@types')],
      },
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ ...options, files: [...files, 'typing.ts', 'typing-cjs.cts'] }));
    await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).catch((err: { stdout: string }) =>
      assert.fail(`tsc failed:\n${err.stdout}`),
    );

    writeFileSync(join(project, 'wrong.ts'), TYPING_WRONG);
    writeFileSync(join(project, 'tsconfig.wrong.json'), JSON.stringify({ ...options, files: ['wrong.ts'] }));
    const wrong = await run(process.execPath, [tsc, '-p', 'tsconfig.wrong.json'], { cwd: project }).then(
      () => assert.fail('a wrong call compiled'),
      (err: { stdout: string }) => err.stdout,
    );
    assert.match(wrong, /wrong\.ts\(3,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
  });
});
