import { GENERATED_NOTICE } from '../../emitter.js';
import type { ApiModel } from '../../model.js';
import { HEADER } from '../php/code.js';
import { PHP_PACKAGE } from '../php/index.js';
import { flattenResources, names } from '../php/names.js';
import type { PackageInfo } from '../php/readme.js';

export const LARAVEL_PACKAGE: PackageInfo = {
  name: 'payments/payments-laravel',
  version: '1.0.0',
  description: 'Laravel integration for the payments service: service provider, config, facade and webhook middleware around the PHP SDK.',
};

/** src/Facades/Payments.php: `Payments::payments()->create(...)`, one static accessor per top-level resource. */
export function emitFacade(model: ApiModel): string {
  const roots = model.resources;
  const uses = [
    'Illuminate\\Support\\Facades\\Facade',
    'Payments\\PaymentsClient',
    ...roots.map((r) => `Payments\\Service\\${names.service(r.path)}`),
  ].sort();
  const accessors = roots.map(
    (r) => `    /** \`${r.path.join('.')}\`: ${r.operations.map((o) => names.method(o)).join(', ')}. */
    public static function ${names.property(r.name)}(): ${names.service(r.path)}
    {
        return self::client()->${names.property(r.name)};
    }`,
  );
  return `${HEADER}

declare(strict_types=1);

namespace Payments\\Laravel\\Facades;

${uses.map((u) => `use ${u};`).join('\n')}

/**
 * The application's PaymentsClient (bound by PaymentsServiceProvider).
 *
 * \`\`\`php
 * $payment = Payments::payments()->create(['amount' => 2000, 'currency' => 'USD', 'customer' => $customerId]);
 * \`\`\`
 */
final class Payments extends Facade
{
    public static function client(): PaymentsClient
    {
        /** @var PaymentsClient */
        return self::getFacadeRoot();
    }

${accessors.join('\n\n')}

    protected static function getFacadeAccessor(): string
    {
        return PaymentsClient::class;
    }
}
`;
}

export function emitLaravelReadme(model: ApiModel): string {
  const resources = flattenResources(model.resources).filter((r) => r.path.length === 1);
  return `<!-- ${GENERATED_NOTICE} -->
# ${LARAVEL_PACKAGE.name}

${LARAVEL_PACKAGE.description}

- Version ${LARAVEL_PACKAGE.version}; Laravel 8.83 or newer, PHP 8.2 or newer. Uses \`${PHP_PACKAGE.name}\` (sdks/php) for every call.
- Package discovery registers \`Payments\\\\Laravel\\\\PaymentsServiceProvider\` and the \`Payments\` facade alias.
- One \`Payments\\\\PaymentsClient\` singleton per application: type-hint it, \`app('payments')\`, or \`Payments::...\`.

## Install

Both packages come from a checkout of the service repository (they are not on Packagist). In your app's \`composer.json\`:

\`\`\`json
{
  "repositories": [
    { "type": "path", "url": "/path/to/payments-service/sdks/php" },
    { "type": "path", "url": "/path/to/payments-service/sdks/laravel" }
  ],
  "require": { "${LARAVEL_PACKAGE.name}": "^${LARAVEL_PACKAGE.version}" }
}
\`\`\`

Then \`composer update\`, and put the key in \`.env\`:

\`\`\`sh
PAYMENTS_SECRET_KEY=service_test_...
PAYMENTS_BASE_URL=http://127.0.0.1:4242
PAYMENTS_WEBHOOK_SECRET=whsec_...
\`\`\`

To change more than the environment offers: \`php artisan vendor:publish --tag=payments-config\` writes
\`config/payments.php\` (\`secret_key\`, \`api_version\`, \`base_url\`, \`timeout\` (ms, default 30000),
\`max_network_retries\` (default 2), \`webhook_secret\`, \`webhook_tolerance\`).

## Quick start

\`\`\`php
use Payments\\Laravel\\Facades\\Payments;
use Payments\\Exception\\CardError;

Route::post('/checkout', function (Illuminate\\Http\\Request $request) {
    $customer = Payments::customers()->create(['email' => $request->input('email')]);
    try {
        $payment = Payments::payments()->create([
            'amount' => 2000,
            'currency' => 'USD',
            'customer' => $customer->id,
            'payment_method' => $request->input('token'), // tok_... from the browser library
            'confirm' => true,
        ]);
    } catch (CardError $e) {
        return response()->json(['declined' => $e->declineCode], 402);
    }
    return ['payment' => $payment->id, 'status' => $payment->status];
});
\`\`\`

Or inject the client:

\`\`\`php
use Payments\\PaymentsClient;

final class RefundController
{
    public function __invoke(PaymentsClient $payments, string $id)
    {
        return $payments->refunds->create(['payment' => $id])->toArray();
    }
}
\`\`\`

Facade accessors: ${resources.map((r) => `\`Payments::${names.property(r.name)}()\``).join(', ')}, and \`Payments::client()\`.
Errors, pagination, options and every method are in the PHP SDK's README (sdks/php/README.md).

## Webhooks

\`\`\`php
use Payments\\Laravel\\Http\\Middleware\\VerifyWebhookSignature;

Route::post('/webhooks/payments', function (Illuminate\\Http\\Request $request) {
    $event = $request->attributes->get(VerifyWebhookSignature::EVENT_ATTRIBUTE);
    logger()->info('payments event', ['type' => $event->type, 'id' => $event->id]);
    return response()->noContent();
})->middleware(VerifyWebhookSignature::class);
\`\`\`

Exclude the route from CSRF protection (\`VerifyCsrfToken::$except\`). A delivery whose \`Service-Signature\`
does not match \`PAYMENTS_WEBHOOK_SECRET\`, or is older than the tolerance, gets \`400\` and never reaches the route.
`;
}
