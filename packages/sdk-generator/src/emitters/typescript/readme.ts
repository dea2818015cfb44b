import { GENERATED_NOTICE } from '../../emitter.js';
import type { ApiModel, Resource } from '../../model.js';
import { exampleCall } from './examples.js';
import { names } from './names.js';
import type { PackageInfo } from './package-files.js';

const C = names.client;

/** README.md: install, quick start, options, errors, pagination, webhooks, and a typed example per resource. */
export function emitReadme(model: ApiModel, info: PackageInfo): string {
  const flatten = (rs: Resource[]): Resource[] => rs.flatMap((r) => [r, ...flatten(r.children)]);
  const resources = flatten(model.resources).filter((r) => r.operations.length > 0);
  const errorRows = model.errorTypes.map(
    (t) =>
      `| \`${names.errorClass(t.type)}\` | \`${t.type}\` | ${t.statuses.join(', ') || '—'} | ${t.codes.map((c) => `\`${c.code}\``).join(', ')} |`,
  );
  const resourceSections = resources.map((r) => {
    const lines = [
      `### ${r.path.join('.')}`,
      '',
      r.operations
        .map(
          (op) =>
            `- \`${names.accessor(op)}.${names.method(op)}\` — ${op.summary ?? op.id} (\`${op.httpMethod.toUpperCase()} ${op.path}\`)`,
        )
        .join('\n'),
      '',
      '```ts',
      `import { ${C} } from '${info.name}';`,
      '',
      `const client = new ${C}(process.env.PAYMENTS_SECRET_KEY!);`,
      '',
      (() => {
        const used = new Set<string>();
        return r.operations.map((op) => exampleCall(op, used)).join('\n');
      })(),
      '```',
    ];
    return lines.join('\n');
  });

  return `<!-- ${GENERATED_NOTICE} -->
# ${info.name}

${info.description}

- Version ${info.version}, for API releases ${model.versions.join(', ')} (types describe ${model.latestVersion}).
- Node.js 20 or newer; no runtime dependencies (it uses the global \`fetch\`).
- TypeScript types for every parameter and response, ESM \`import\` and CommonJS \`require\`.
- Server-side: it takes a secret (\`service_live_...\`, \`service_test_...\`) or restricted (\`rk_...\`) key and
  refuses publishable keys (\`pk_...\`), which belong in browsers.

## Install

\`\`\`sh
npm install ${info.name}
\`\`\`

From a checkout of the service repository: \`cd sdks/js && npm install && npm pack\` (builds \`dist/\`), then
\`npm install /path/to/${info.name}-${info.version}.tgz\` in your project.

## Quick start

Start the service (\`npm start\` prints sandbox keys), put the secret test key in an environment variable, and
run this as \`quickstart.mjs\`:

\`\`\`js
import { ${C} } from '${info.name}';

const client = new ${C}(process.env.PAYMENTS_SECRET_KEY, {
  baseUrl: process.env.PAYMENTS_BASE_URL ?? 'http://127.0.0.1:4242',
});

const customer = await client.customers.create({ email: 'jenny@example.com', name: 'Jenny Rosen' });
const payment = await client.payments.create({ amount: 2000, currency: 'USD', customer: customer.id });
console.log(payment.id, payment.status);

for await (const p of client.payments.list({ limit: 10 })) {
  console.log(p.id, p.amount, p.currency);
}
\`\`\`

In TypeScript it is the same code with \`process.env.PAYMENTS_SECRET_KEY!\` (the constructor takes a \`string\`);
every call is typed (\`payment\` is a \`Payment\`). CommonJS:

\`\`\`js
const { ${C} } = require('${info.name}');
const client = new ${C}(process.env.PAYMENTS_SECRET_KEY);
\`\`\`

## Options

\`new ${C}(apiKey, options)\`:

| option | default | meaning |
|---|---|---|
| \`apiVersion\` | the account's default version | Pins the API version (\`YYYY-MM-DD\`), sent as \`Service-Version\`. One of ${model.versions.map((v) => `\`${v}\``).join(', ')}. |
| \`timeout\` | \`30000\` | Milliseconds each attempt may take before it is abandoned (then retried, or a \`ConnectionError\` with \`code: 'timeout'\`). |
| \`maxNetworkRetries\` | \`2\` | Retries after a connection error, timeout, \`409\`, \`429\` or \`5xx\`. \`0\` turns retries off. |
| \`baseUrl\` | \`http://127.0.0.1:4242\` | Where your service listens, without \`/v1\`. |

Every method takes a last, optional argument with per-call \`idempotencyKey\`, \`apiVersion\`, \`timeout\` and
\`maxNetworkRetries\`:

\`\`\`ts
import { ${C} } from '${info.name}';

const client = new ${C}(process.env.PAYMENTS_SECRET_KEY!, { timeout: 10_000, maxNetworkRetries: 3 });
const payment = await client.payments.create(
  { amount: 2000, currency: 'USD', customer: 'cus_123' },
  { idempotencyKey: 'order-6735', timeout: 60_000 },
);
console.log(payment.id);
\`\`\`

### Retries and idempotency

Every POST carries an \`Idempotency-Key\`: yours, or a random one the SDK generates **once per call** and
sends again on each retry, so a payment is created once however many attempts reach the service. Retries
wait with exponential backoff (0.5 s doubling, at most 5 s) and jitter, or as long as \`Retry-After\` says
(up to 60 s).

## Errors

Every error is a \`PaymentsError\` with \`type\`, \`code\`, \`message\`, \`param\`, \`statusCode\`, \`requestId\`
and \`headers\`; the class tells what to do:

| class | \`error.type\` | HTTP | codes |
|---|---|---|---|
${errorRows.join('\n')}
| \`ConnectionError\` | — | — | \`timeout\`, \`connection_failed\`: no reply (after the retries) |
| \`SignatureVerificationError\` | — | — | a webhook signature that does not match or is too old |
| \`ConfigurationError\` | — | — | \`api_key_missing\`, \`publishable_key_not_allowed\`: thrown by the constructor |

\`\`\`ts
import { ${C}, InvalidRequestError, RateLimitError } from '${info.name}';

const client = new ${C}(process.env.PAYMENTS_SECRET_KEY!);
try {
  await client.payments.create({ amount: 2000, currency: 'usd', customer: 'cus_123' });
} catch (err) {
  if (err instanceof InvalidRequestError) console.error(\`fix \${err.param}: \${err.message}\`);
  else if (err instanceof RateLimitError) console.error('slow down and retry later');
  else throw err;
}
\`\`\`

## Pagination

List methods return a \`ListPromise\`: \`await\` it for one page (\`{ object: 'list', data, has_more, url }\`), or
iterate it to walk every page (\`starting_after\` the last id; with \`ending_before\` it walks towards newer
objects):

\`\`\`ts
import { ${C} } from '${info.name}';

const client = new ${C}(process.env.PAYMENTS_SECRET_KEY!);
const page = await client.payments.list({ limit: 10, status: 'succeeded' });
console.log(page.data.length, page.has_more);

for await (const payment of client.payments.list({ limit: 100 })) {
  console.log(payment.id);
}
const first500 = await client.payments.list({ limit: 100 }).autoPagingToArray({ limit: 500 });
console.log(first500.length);
\`\`\`

## Webhooks

Deliveries carry \`Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">\`, keyed with the endpoint's
\`whsec_...\` secret. \`constructEvent(payload, header, secret, tolerance = 300)\` checks the signature against the
**raw** body and that \`t\` is at most \`tolerance\` seconds away, then returns the event; otherwise it throws
\`SignatureVerificationError\`. It needs no API key (\`${C}.webhooks\`).

\`\`\`ts
import { createServer } from 'node:http';
import { ${C}, SignatureVerificationError } from '${info.name}';

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    try {
      const event = ${C}.webhooks.constructEvent(Buffer.concat(chunks), req.headers['service-signature'], process.env.WEBHOOK_SECRET!);
      console.log(event.type, event.id);
      res.writeHead(200).end();
    } catch (err) {
      res.writeHead(err instanceof SignatureVerificationError ? 400 : 500).end();
    }
  });
}).listen(3000);
\`\`\`

\`${C}.webhooks.generateTestHeaderString({ payload, secret })\` builds a valid header for your own tests.

## API versions

Types describe the newest release (${model.latestVersion}). With an older \`apiVersion\` the service answers in
that release's shape (see \`GET /v1/versions\`), which may leave out or rename fields.

## Resources

${resourceSections.join('\n\n')}
`;
}
