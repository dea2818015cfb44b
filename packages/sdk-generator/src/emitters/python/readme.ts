import { GENERATED_NOTICE } from '../../emitter.js';
import type { ApiModel, Operation, Property, TypeRef } from '../../model.js';
import { snakeCase, words } from '../../naming.js';
import { flattenResources, paramProperties } from '../shared/objects.js';
import { pyName, pyString } from './types.js';

const errorClass = (type: string) =>
  words(type)
    .map((w) => (w === 'api' ? 'API' : w[0]?.toUpperCase() + w.slice(1)))
    .join('');

/** A call of the operation with plausible arguments, for docstrings and the README. */
export function pythonExample(op: Operation): string {
  const accessor = `client.${op.resourcePath.map(snakeCase).join('.')}.${pyName(snakeCase(op.name))}`;
  const args = op.pathParams.map((p) => exampleValue(p.type, p.name, p.description));
  if (op.pagination) {
    args.push('limit=10');
    const item = singular(op.resourcePath.at(-1) ?? 'item');
    return `for ${item} in ${accessor}(${args.join(', ')}).auto_paging_iter():\n    print(${item}["id"])`;
  }
  const properties = paramProperties(op);
  const chosen: Property[] = properties.filter((p) => p.required);
  if (chosen.length === 0 && properties.length > 0)
    chosen.push(properties.find((p) => p.name !== 'metadata') ?? (properties[0] as Property));
  args.push(...chosen.map((p) => `${pyName(p.name)}=${exampleValue(p.type, p.name, p.description)}`));
  const variable = op.name === 'list' ? snakeCase(op.resourcePath.at(-1) ?? 'result') : singular(op.resourcePath.at(-1) ?? 'result');
  return `${variable} = ${accessor}(${args.join(', ')})`;
}

function singular(name: string): string {
  const snake = snakeCase(name);
  return snake.endsWith('ies') ? `${snake.slice(0, -3)}y` : snake.endsWith('s') ? snake.slice(0, -1) : snake;
}

function exampleValue(type: TypeRef, name: string, description = ''): string {
  switch (type.kind) {
    case 'string': {
      if (type.enum?.length) return pyString(type.enum[0] as string);
      const prefix = /beginning `(\w+_)`/.exec(description)?.[1];
      if (prefix) return pyString(`${prefix}123`);
      if (name === 'currency') return '"USD"';
      if (name === 'email') return '"jenny@example.com"';
      if (name.endsWith('url')) return '"https://example.com/return"';
      return pyString(name === 'name' ? 'Jenny Rosen' : `Example ${name.replace(/_/g, ' ')}`);
    }
    case 'integer':
    case 'number':
      return name.includes('amount') ? '2000' : name.startsWith('exp_year') ? '2030' : '1';
    case 'boolean':
      return 'True';
    case 'literal':
      return typeof type.value === 'string' ? pyString(type.value) : String(type.value);
    case 'array':
      return `[${exampleValue(type.items, name)}]`;
    case 'union': {
      const first = type.variants.find((v) => v.kind !== 'null') ?? type.variants[0];
      return first ? exampleValue(first, name, description) : 'None';
    }
    case 'object':
      if (type.properties.length === 0) return name === 'metadata' ? '{"order_id": "6735"}' : '{}';
      return `{${type.properties
        .filter((p) => p.required)
        .map((p) => `${pyString(p.name)}: ${exampleValue(p.type, p.name, p.description)}`)
        .join(', ')}}`;
    default:
      return 'None';
  }
}

/** README.md: install, quick start, options, errors, pagination, webhooks, every method. */
export function emitPythonReadme(model: ApiModel, version: string): string {
  const resources = flattenResources(model.resources).filter((r) => r.operations.length > 0);
  const errorRows = model.errorTypes.map(
    (t) =>
      `| \`${errorClass(t.type)}\` | \`${t.type}\` | ${t.statuses.join(', ') || '—'} | ${t.codes.map((c) => `\`${c.code}\``).join(', ')} |`,
  );
  const methods = resources.map(
    (r) =>
      `### ${r.path.map(snakeCase).join('.')}\n\n${r.operations
        .map(
          (op) =>
            `- \`client.${op.resourcePath.map(snakeCase).join('.')}.${pyName(snakeCase(op.name))}\` — ${op.summary ?? op.id} (\`${op.httpMethod.toUpperCase()} ${op.path}\`)`,
        )
        .join('\n')}\n\n\`\`\`python\n${r.operations.map(pythonExample).join('\n')}\n\`\`\``,
  );
  return `<!-- ${GENERATED_NOTICE} -->
# payments-sdk for Python

The Python SDK for the payments service: \`import payments\`.

- Version ${version}, for API releases ${model.versions.join(', ')} (types describe ${model.latestVersion}).
- Python 3.8 or newer; **standard library only** (\`urllib\`), no dependencies.
- Type hints throughout: objects are \`TypedDict\`s (plain \`dict\`s at run time), parameters are keyword
  arguments in snake_case, lists are \`ListObject\`s you can page through with an iterator.
- Server-side: it takes a secret (\`service_live_...\`, \`service_test_...\`) or restricted (\`rk_...\`) key and
  refuses publishable keys (\`pk_...\`), which belong in browsers.

## Install

From a checkout of the service repository:

\`\`\`sh
pip install ./sdks/python
\`\`\`

or, without installing, put \`sdks/python\` on \`PYTHONPATH\`.

## Quick start

Start the service (\`npm start\` prints sandbox keys), put the secret test key in an environment variable, and run:

\`\`\`python
import os

import payments

client = payments.Client(
    os.environ["PAYMENTS_SECRET_KEY"],
    base_url=os.environ.get("PAYMENTS_BASE_URL", "http://127.0.0.1:4242"),
)

customer = client.customers.create(email="jenny@example.com", name="Jenny Rosen")
payment = client.payments.create(amount=2000, currency="USD", customer=customer["id"])
print(payment["id"], payment["status"])

for p in client.payments.list(limit=10).auto_paging_iter():
    print(p["id"], p["amount"], p["currency"])
\`\`\`

## Options

\`payments.Client(api_key, *, api_version=None, timeout=30.0, max_network_retries=2, base_url="http://127.0.0.1:4242")\`:

| option | default | meaning |
|---|---|---|
| \`api_version\` | the account's default version | Pins the API version (\`YYYY-MM-DD\`), sent as \`Service-Version\`. One of ${model.versions.map((v) => `\`${v}\``).join(', ')}. |
| \`timeout\` | \`30.0\` | Seconds each attempt may take before it is abandoned (then retried, or a \`ConnectionError\` with \`code == "timeout"\`). |
| \`max_network_retries\` | \`2\` | Retries after a connection error, timeout, \`409\`, \`429\` or \`5xx\`. \`0\` turns retries off. |
| \`base_url\` | \`http://127.0.0.1:4242\` | Where your service listens, without \`/v1\`. |

Every method also takes \`request_options\` with per-call \`idempotency_key\`, \`api_version\`, \`timeout\` and
\`max_network_retries\`:

\`\`\`python
payment = client.payments.create(
    amount=2000,
    currency="USD",
    customer="cus_123",
    request_options={"idempotency_key": "order-6735", "timeout": 60.0},
)
\`\`\`

Optional parameters default to \`payments.NOT_GIVEN\` and are then left out of the request; passing \`None\` sends
\`null\` where the API accepts it (for example to clear a customer's \`description\`).

### Retries and idempotency

Every POST carries an \`Idempotency-Key\`: yours, or a random one the SDK generates **once per call** and sends
again on each retry, so a payment is created once however many attempts reach the service. Retries wait with
exponential backoff (0.5 s doubling, at most 5 s) and jitter, or as long as \`Retry-After\` says (up to 60 s).

## Errors

Every error is a \`payments.PaymentsError\` with \`type\`, \`code\`, \`message\`, \`param\`, \`decline_code\`,
\`status_code\`, \`request_id\` and \`headers\`; the class tells what to do:

| class | \`error.type\` | HTTP | codes |
|---|---|---|---|
${errorRows.join('\n')}
| \`ConnectionError\` | — | — | \`timeout\`, \`connection_failed\`: no reply (after the retries) |
| \`SignatureVerificationError\` | — | — | a webhook signature that does not match or is too old |
| \`ConfigurationError\` | — | — | \`api_key_missing\`, \`publishable_key_not_allowed\`: raised by \`Client()\` |

\`\`\`python
try:
    client.payments.create(amount=2000, currency="usd", customer="cus_123")
except payments.InvalidRequestError as err:
    print(f"fix {err.param}: {err.message}")
except payments.RateLimitError:
    print("slow down and retry later")
\`\`\`

\`payments.ConnectionError\` is the SDK's own class (a \`PaymentsError\`), not the built-in one.

## Pagination

List methods return a \`ListObject\`: one page with \`data\`, \`has_more\` and \`url\` (iterating it yields that page's
items). \`auto_paging_iter()\` is an iterator over every item across pages (\`starting_after\` the last id; with
\`ending_before\` it walks towards newer objects):

\`\`\`python
page = client.payments.list(limit=10, status="succeeded")
print(len(page.data), page.has_more)

for payment in client.payments.list(limit=100).auto_paging_iter():
    print(payment["id"])
\`\`\`

## Webhooks

Deliveries carry \`Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">\`, keyed with the endpoint's
\`whsec_...\` secret. \`payments.Webhook.construct_event(payload, sig_header, secret, tolerance=300)\` checks the
signature against the **raw** body (\`str\` or \`bytes\`) and that \`t\` is at most \`tolerance\` seconds away, then
returns the event; otherwise it raises \`payments.SignatureVerificationError\`. It needs no API key.

\`\`\`python
from http.server import BaseHTTPRequestHandler, HTTPServer


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        try:
            event = payments.Webhook.construct_event(body, self.headers["Service-Signature"], os.environ["WEBHOOK_SECRET"])
        except payments.SignatureVerificationError:
            self.send_response(400)
        else:
            print(event["type"], event["id"])
            self.send_response(200)
        self.end_headers()


HTTPServer(("127.0.0.1", 3000), Handler).serve_forever()
\`\`\`

\`payments.Webhook.generate_test_header(payload, secret)\` builds a valid header for your own tests.

## API versions

Types describe the newest release (${model.latestVersion}). With an older \`api_version\` the service answers in that
release's shape (see \`GET /v1/versions\`), which may leave out or rename fields.

## Methods

${methods.join('\n\n')}
`;
}
