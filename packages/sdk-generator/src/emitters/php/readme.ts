import { GENERATED_NOTICE } from '../../emitter.js';
import type { ApiModel } from '../../model.js';
import { hasParams, paramsRequired } from './code.js';
import { flattenResources, names } from './names.js';

export interface PackageInfo {
  name: string;
  version: string;
  description: string;
}

/** README.md: install, quick start, options, errors, pagination, webhooks, and every method. */
export function emitReadme(model: ApiModel, info: PackageInfo): string {
  const C = names.client;
  const resources = flattenResources(model.resources).filter((r) => r.operations.length > 0);
  const errorRows = model.errorTypes.map(
    (t) =>
      `| \`${names.errorClass(t.type)}\` | \`${t.type}\` | ${t.statuses.join(', ') || '—'} | ${t.codes.map((c) => `\`${c.code}\``).join(', ')} |`,
  );
  const methodRows = resources.flatMap((r) =>
    r.operations.map((op) => {
      const args = [
        ...op.pathParams.map((p) => names.variable(p.name)),
        ...(hasParams(op) ? [paramsRequired(op) ? '$params' : '[$params]'] : []),
      ];
      return `| \`${names.accessor(op)}->${names.method(op)}(${args.join(', ')})\` | \`${op.httpMethod.toUpperCase()} ${op.path}\` | ${op.summary ?? op.id} |`;
    }),
  );
  return `<!-- ${GENERATED_NOTICE} -->
# ${info.name}

${info.description}

- Version ${info.version}, for API releases ${model.versions.join(', ')} (documented fields describe ${model.latestVersion}).
- PHP 8.2 or newer with ext-curl and ext-json; no other dependencies.
- PSR-4 namespace \`Payments\\\\\`, typed signatures, array shapes for every parameter and
  \`@property-read\` fields on every object for IDEs, PHPStan and Psalm.
- Server-side: it takes a secret (\`service_live_...\`, \`service_test_...\`) or restricted (\`rk_...\`) key and
  refuses publishable keys (\`pk_...\`), which belong in browsers.

## Install

With Composer, from a checkout of the service repository (the package is not on Packagist):

\`\`\`json
{
  "repositories": [{ "type": "path", "url": "/path/to/payments-service/sdks/php" }],
  "require": { "${info.name}": "^${info.version}" }
}
\`\`\`

Without Composer, copy \`sdks/php\` into your project and \`require 'path/to/sdks/php/autoload.php';\`.

## Quick start

Start the service (\`npm start\` prints sandbox keys), put the secret test key in an environment variable, and
run this with \`php quickstart.php\`:

\`\`\`php
<?php

require __DIR__ . '/vendor/autoload.php'; // or 'path/to/sdks/php/autoload.php'

use Payments\\${C};

$client = new ${C}(getenv('PAYMENTS_SECRET_KEY'), baseUrl: getenv('PAYMENTS_BASE_URL') ?: 'http://127.0.0.1:4242');

$customer = $client->customers->create(['email' => 'jenny@example.com', 'name' => 'Jenny Rosen']);
$payment = $client->payments->create(['amount' => 2000, 'currency' => 'USD', 'customer' => $customer->id]);
echo $payment->id, ' ', $payment->status, "\\n";

foreach ($client->payments->list(['limit' => 10])->autoPagingIterator() as $p) {
    echo $p->id, ' ', $p->amount, ' ', $p->currency, "\\n";
}
\`\`\`

## Options

\`\`\`php
$client = new ${C}(
    getenv('PAYMENTS_SECRET_KEY'),
    apiVersion: '${model.latestVersion}',   // sent as Service-Version; default: the account's version
    timeout: 30000,                 // ms per attempt (default 30000)
    maxNetworkRetries: 2,           // default 2
    baseUrl: 'https://payments.example.com',
);
\`\`\`

Per call, pass \`new \\Payments\\RequestOptions(idempotencyKey: ..., apiVersion: ..., timeout: ..., maxNetworkRetries: ...)\`
as the last argument.

- Every POST carries an \`Idempotency-Key\` (a random UUID unless you pass one); retries of that call reuse it,
  so the service runs the write at most once.
- Connection failures, timeouts, \`409\` (same key still running), \`429\` and \`5xx\` are retried with
  exponential backoff and jitter; a \`Retry-After\` header is honoured.
- Objects are read-only \`Payments\\PaymentsObject\`s: \`$payment->amount\`, \`$payment['amount']\`, \`$payment->toArray()\`.

## Errors

Every error extends \`Payments\\Exception\\PaymentsError\` (a \`RuntimeException\`) with \`type\`, \`errorCode\` (the
service's \`error.code\`; PHP's \`getCode()\` stays an integer), \`param\`, \`declineCode\`, \`statusCode\`, \`requestId\`
and \`getMessage()\`.

| class | \`error.type\` | HTTP | codes |
|---|---|---|---|
${errorRows.join('\n')}
| \`ConnectionError\` | — | — | \`connection_failed\`, \`timeout\` |

\`\`\`php
use Payments\\Exception\\CardError;
use Payments\\Exception\\InvalidRequestError;

try {
    $client->payments->create(['amount' => 2000, 'currency' => 'usd', 'customer' => $customer->id]);
} catch (InvalidRequestError $e) {
    echo "Fix {$e->param}: {$e->getMessage()} ({$e->requestId})\\n";
} catch (CardError $e) {
    echo "Declined: {$e->declineCode}\\n";
}
\`\`\`

## Pagination

A list method returns a \`Payments\\Collection\` page (\`data\`, \`has_more\`, \`url\`); \`autoPagingIterator()\` walks every
item across pages, \`autoPagingToArray(100)\` collects some.

## Webhooks

\`\`\`php
use Payments\\Webhook;
use Payments\\Exception\\SignatureVerificationError;

try {
    $event = Webhook::constructEvent(file_get_contents('php://input'), $_SERVER['HTTP_SERVICE_SIGNATURE'] ?? null, getenv('WEBHOOK_SECRET'));
} catch (SignatureVerificationError $e) {
    http_response_code(400);
    exit;
}
echo $event->type, ' ', $event->data['object']['id'], "\\n";
\`\`\`

Signatures older than 300 seconds are refused (pass a tolerance to change it).

## Methods

| method | endpoint | |
|---|---|---|
${methodRows.join('\n')}

Response fields describe API release ${model.latestVersion}; with an older \`apiVersion\` some may be missing or renamed.
`;
}
