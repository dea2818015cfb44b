<?php

// The PHP SDK against the real service (test/sdk/php/php.test.ts starts it and passes URLs and keys
// in the environment). Prints `ok <check>` per check; any failure exits 1.

declare(strict_types=1);

require getenv('PAYMENTS_SDK_AUTOLOAD') ?: __DIR__ . '/../../../sdks/php/autoload.php';

use Payments\Exception\APIError;
use Payments\Exception\AuthenticationError;
use Payments\Exception\CardError;
use Payments\Exception\ConnectionError;
use Payments\Exception\IdempotencyError;
use Payments\Exception\InvalidRequestError;
use Payments\Exception\PaymentsError;
use Payments\Exception\PermissionError;
use Payments\Exception\RateLimitError;
use Payments\Exception\SignatureVerificationError;
use Payments\Model\Customer;
use Payments\Model\Event;
use Payments\Model\Payment;
use Payments\PaymentsClient;
use Payments\RequestOptions;
use Payments\Webhook;

function env(string $name): string
{
    $value = getenv($name);
    if ($value === false || $value === '') {
        throw new RuntimeException("missing environment variable {$name}");
    }
    return $value;
}

function check(bool $condition, string $what): void
{
    if (!$condition) {
        throw new RuntimeException($what);
    }
}

/**
 * @template E of Throwable
 * @param class-string<E> $class
 * @return E
 */
function expectError(string $class, callable $call): Throwable
{
    try {
        $call();
    } catch (Throwable $e) {
        check($e instanceof $class, sprintf('expected %s, got %s: %s', $class, $e::class, $e->getMessage()));
        return $e;
    }
    throw new RuntimeException("expected {$class}, nothing was thrown");
}

function card(PaymentsClient $client, string $number): string
{
    $token = $client->tokens->create(['card' => ['number' => $number, 'exp_month' => 12, 'exp_year' => 2030, 'cvc' => '123']]);
    return $token->id;
}

$base = env('PAYMENTS_BASE_URL');
$secret = env('PAYMENTS_SECRET_KEY');
$client = new PaymentsClient($secret, baseUrl: $base);

$checks = [
    'customer created' => function () use ($client, &$customer): void {
        $customer = $client->customers->create(['email' => 'jenny@example.com', 'name' => 'Jenny Rosen', 'metadata' => ['order' => '6735']]);
        check($customer instanceof Customer && str_starts_with($customer->id, 'cus_'), 'customer id');
        check($customer->metadata['order'] === '6735' && $customer['name'] === 'Jenny Rosen', 'customer fields');
        check($client->customers->retrieve($customer->id)->email === 'jenny@example.com', 'retrieve');
    },
    'payment confirmed' => function () use ($client, &$customer): void {
        $payment = $client->payments->create([
            'amount' => 2000,
            'currency' => 'USD',
            'customer' => $customer->id,
            'payment_method' => card($client, '4242424242424242'),
            'confirm' => true,
        ]);
        check($payment instanceof Payment && $payment->status === 'succeeded', "status {$payment->status}");
        check($payment->payment_method?->last4 === '4242', 'card summary is an object');
        $manual = $client->payments->create(['amount' => 500, 'currency' => 'USD', 'customer' => $customer->id, 'capture_method' => 'manual']);
        $manual = $client->payments->confirm($manual->id, ['payment_method' => card($client, '4242424242424242')]);
        check($manual->status === 'requires_capture', "manual status {$manual->status}");
        check($client->payments->capture($manual->id, ['amount_to_capture' => 300])->amount_received === 300, 'partial capture');
    },
    'pagination' => function () use ($client, &$customer): void {
        $ids = [];
        for ($i = 0; $i < 3; $i++) {
            $ids[] = $client->payments->create(['amount' => 100 + $i, 'currency' => 'EUR', 'customer' => $customer->id])->id;
        }
        $page = $client->payments->list(['customer' => $customer->id, 'limit' => 2]);
        check(count($page) === 2 && $page->has_more === true, 'first page has 2 and more');
        $all = array_map(static fn (Payment $p): string => $p->id, iterator_to_array($page->autoPagingIterator(), false));
        check(count($all) === 5 && array_slice($all, 0, 3) === array_reverse($ids), 'newest first across pages: ' . implode(',', $all));
        check(count($page->autoPagingToArray(3)) === 3, 'autoPagingToArray');
    },
    'invalid_request_error' => function () use ($client, &$customer): void {
        $e = expectError(InvalidRequestError::class, fn () => $client->payments->create(['amount' => 2000, 'currency' => 'usd', 'customer' => $customer->id]));
        check($e->param === 'currency' && $e->statusCode === 400 && str_starts_with((string) $e->requestId, 'req_'), "param {$e->param}");
        $missing = expectError(InvalidRequestError::class, fn () => $client->payments->retrieve('pay_doesnotexist'));
        check($missing->statusCode === 404 && $missing->errorCode === 'resource_missing', 'resource_missing');
    },
    'authentication_error' => function () use ($base): void {
        $bad = new PaymentsClient('service_test_' . str_repeat('x', 40), baseUrl: $base);
        $e = expectError(AuthenticationError::class, fn () => $bad->customers->list());
        check($e->statusCode === 401 && $e->errorCode === 'api_key_invalid', "code {$e->errorCode}");
    },
    'permission_error' => function () use ($base): void {
        $restricted = new PaymentsClient(env('PAYMENTS_RESTRICTED_KEY'), baseUrl: $base);
        $restricted->customers->list(['limit' => 1]);
        $e = expectError(PermissionError::class, fn () => $restricted->payments->list());
        check($e->statusCode === 403 && $e->errorCode === 'insufficient_scope', "code {$e->errorCode}");
    },
    'idempotency_error' => function () use ($client): void {
        $key = 'php-program-' . bin2hex(random_bytes(8));
        $client->customers->create(['name' => 'First'], new RequestOptions(idempotencyKey: $key));
        $e = expectError(IdempotencyError::class, fn () => $client->customers->create(['name' => 'Second'], new RequestOptions(idempotencyKey: $key)));
        check($e->errorCode === 'idempotency_key_reused', "code {$e->errorCode}");
    },
    'card_error' => function () use ($client, &$customer): void {
        $token = card($client, '4000000000000002');
        $e = expectError(CardError::class, fn () => $client->payments->create(['amount' => 2000, 'currency' => 'USD', 'customer' => $customer->id, 'payment_method' => $token, 'confirm' => true]));
        check($e->statusCode === 402 && $e->errorCode === 'card_declined' && $e->declineCode === 'generic_decline', "code {$e->errorCode}/{$e->declineCode}");
    },
    'rate_limit_error' => function () use ($secret): void {
        $stub = new PaymentsClient($secret, baseUrl: env('RATE_LIMITED_URL'), maxNetworkRetries: 0);
        $e = expectError(RateLimitError::class, fn () => $stub->customers->list());
        check($e->statusCode === 429 && $e->requestId === 'req_stub429', 'rate limit fields');
    },
    'api_error' => function () use ($secret): void {
        $stub = new PaymentsClient($secret, baseUrl: env('SERVER_ERROR_URL'), maxNetworkRetries: 0);
        $e = expectError(APIError::class, fn () => $stub->customers->list());
        check($e instanceof PaymentsError && $e->statusCode === 500, 'api error status');
    },
    'retry-after honoured' => function () use ($secret): void {
        $stub = new PaymentsClient($secret, apiVersion: env('PAYMENTS_API_VERSION'), baseUrl: env('RETRY_AFTER_URL'));
        $started = microtime(true);
        $customer = $stub->customers->create(['name' => 'Stub']);
        $elapsed = microtime(true) - $started;
        check($customer->id === 'cus_stub', 'the retry succeeded');
        check($elapsed >= 0.95, sprintf('waited %.2f s for Retry-After: 1', $elapsed));
    },
    'timeout' => function () use ($secret): void {
        $slow = new PaymentsClient($secret, baseUrl: env('SLOW_PROXY_URL'), timeout: 200, maxNetworkRetries: 0);
        $started = microtime(true);
        $e = expectError(ConnectionError::class, fn () => $slow->customers->list());
        check($e->errorCode === 'timeout' && $e->statusCode === null, "code {$e->errorCode}");
        check(microtime(true) - $started < 1.5, 'gave up at the timeout');
    },
    'webhook verified' => function (): void {
        $event = Webhook::constructEvent(env('WEBHOOK_PAYLOAD'), env('WEBHOOK_SIGNATURE'), env('WEBHOOK_SECRET'));
        check($event instanceof Event && $event->id === 'evt_program' && $event->type === 'payment.succeeded', 'event');
        check($event->data['object']['id'] === 'pay_program', 'event data');
    },
    'webhook tampered refused' => function (): void {
        $payload = env('WEBHOOK_PAYLOAD');
        expectError(SignatureVerificationError::class, fn () => Webhook::constructEvent($payload . ' ', env('WEBHOOK_SIGNATURE'), env('WEBHOOK_SECRET')));
        expectError(SignatureVerificationError::class, fn () => Webhook::constructEvent($payload, env('WEBHOOK_SIGNATURE'), 'whsec_wrong'));
        expectError(SignatureVerificationError::class, fn () => Webhook::constructEvent($payload, null, env('WEBHOOK_SECRET')));
        $old = Webhook::generateTestHeader($payload, env('WEBHOOK_SECRET'), time() - 600);
        expectError(SignatureVerificationError::class, fn () => Webhook::constructEvent($payload, $old, env('WEBHOOK_SECRET')));
    },
    'dropped connection retried' => function () use ($client, $secret, &$customer): void {
        $proxied = new PaymentsClient($secret, baseUrl: env('DROP_PROXY_URL'), maxNetworkRetries: 2);
        $payment = $proxied->payments->create(['amount' => 1500, 'currency' => 'EUR', 'customer' => $customer->id, 'description' => 'dropped once']);
        $same = array_filter(
            iterator_to_array($client->payments->list(['customer' => $customer->id, 'limit' => 100])->autoPagingIterator(), false),
            static fn (Payment $p): bool => $p->description === 'dropped once',
        );
        check(count($same) === 1 && array_values($same)[0]->id === $payment->id, 'exactly one payment was created');
    },
];

$failed = false;
foreach ($checks as $name => $run) {
    try {
        $run();
        echo "ok {$name}\n";
    } catch (Throwable $e) {
        $failed = true;
        echo "not ok {$name}: ", $e::class, ': ', $e->getMessage(), "\n";
    }
}
exit($failed ? 1 : 0);
