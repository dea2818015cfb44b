<?php

// The Laravel package against the real service: boots a minimal Illuminate application from the
// system's Laravel (Debian php-laravel-framework), registers the service provider, and calls the
// service through the container and the facade. Prints `ok <check>` per check; any failure exits 1.

declare(strict_types=1);

require getenv('LARAVEL_AUTOLOAD') ?: '/usr/share/php/Illuminate/autoload.php';
require __DIR__ . '/../../../sdks/php/autoload.php';
require __DIR__ . '/../../../sdks/laravel/autoload.php';

use Illuminate\Config\Repository;
use Illuminate\Foundation\Application;
use Illuminate\Http\Request;
use Illuminate\Support\Facades\Facade;
use Payments\Exception\CardError;
use Payments\Exception\InvalidRequestError;
use Payments\Laravel\Facades\Payments;
use Payments\Laravel\Http\Middleware\VerifyWebhookSignature;
use Payments\Laravel\PaymentsServiceProvider;
use Payments\Model\Customer;
use Payments\Model\Event;
use Payments\Model\Payment;
use Payments\PaymentsClient;
use Symfony\Component\HttpFoundation\Response;

function env_value(string $name): string
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

function boot(array $payments): Application
{
    $app = new Application(sys_get_temp_dir());
    $app->instance('config', new Repository(['payments' => $payments]));
    Facade::clearResolvedInstances();
    Facade::setFacadeApplication($app);
    $app->register(PaymentsServiceProvider::class);
    $app->boot();
    return $app;
}

$base = env_value('PAYMENTS_BASE_URL');
$app = boot(['secret_key' => env_value('PAYMENTS_SECRET_KEY'), 'base_url' => $base, 'webhook_secret' => env_value('WEBHOOK_SECRET')]);

$checks = [
    'container binding' => function () use ($app): void {
        $client = $app->make(PaymentsClient::class);
        check($client instanceof PaymentsClient, 'resolves a PaymentsClient');
        check($app->make('payments') === $client && $app->make(PaymentsClient::class) === $client, 'one singleton, aliased as payments');
        check($app['config']->get('payments.timeout') === 30000 && $app['config']->get('payments.max_network_retries') === 2, 'package defaults merged');
        check($app['config']->get('payments.secret_key') === env_value('PAYMENTS_SECRET_KEY'), 'the app config wins over the defaults');
    },
    'facade' => function () use ($app): void {
        check(Payments::client() === $app->make(PaymentsClient::class), 'the facade root is the bound client');
        check(Payments::getFacadeRoot() === $app->make('payments'), 'getFacadeRoot');
    },
    'customer created' => function () use (&$customer): void {
        $customer = Payments::customers()->create(['email' => 'taylor@example.com', 'name' => 'Taylor Otwell']);
        check($customer instanceof Customer && str_starts_with($customer->id, 'cus_'), 'customer');
    },
    'payment confirmed' => function () use ($app, &$customer): void {
        $client = $app->make(PaymentsClient::class);
        $token = $client->tokens->create(['card' => ['number' => '4242424242424242', 'exp_month' => 12, 'exp_year' => 2030, 'cvc' => '123']]);
        $payment = Payments::payments()->create(['amount' => 2000, 'currency' => 'USD', 'customer' => $customer->id, 'payment_method' => $token->id, 'confirm' => true]);
        check($payment instanceof Payment && $payment->status === 'succeeded', "status {$payment->status}");
    },
    'pagination' => function () use (&$customer): void {
        for ($i = 0; $i < 2; $i++) {
            Payments::payments()->create(['amount' => 100 + $i, 'currency' => 'EUR', 'customer' => $customer->id]);
        }
        $page = Payments::payments()->list(['customer' => $customer->id, 'limit' => 1]);
        check(count($page) === 1 && $page->has_more, 'first page');
        check(count(iterator_to_array($page->autoPagingIterator(), false)) === 3, 'three across pages');
    },
    'invalid_request_error' => function () use (&$customer): void {
        try {
            Payments::payments()->create(['amount' => 0, 'currency' => 'USD', 'customer' => $customer->id]);
        } catch (InvalidRequestError $e) {
            check($e->param === 'amount', "param {$e->param}");
            return;
        }
        throw new RuntimeException('no InvalidRequestError');
    },
    'card_error' => function () use ($app, &$customer): void {
        $token = $app->make(PaymentsClient::class)->tokens->create(['card' => ['number' => '4000000000000002', 'exp_month' => 12, 'exp_year' => 2030, 'cvc' => '123']]);
        try {
            Payments::payments()->create(['amount' => 2000, 'currency' => 'USD', 'customer' => $customer->id, 'payment_method' => $token->id, 'confirm' => true]);
        } catch (CardError $e) {
            check($e->declineCode === 'generic_decline', "decline {$e->declineCode}");
            return;
        }
        throw new RuntimeException('no CardError');
    },
    'retry-after honoured' => function (): void {
        boot([
            'secret_key' => env_value('PAYMENTS_SECRET_KEY'),
            'base_url' => env_value('RETRY_AFTER_URL'),
            'api_version' => env_value('PAYMENTS_API_VERSION'),
        ]);
        $started = microtime(true);
        $customer = Payments::customers()->create(['name' => 'Stub']);
        check($customer->id === 'cus_stub' && microtime(true) - $started >= 0.95, 'retried after Retry-After');
    },
    'dropped connection retried' => function () use ($app, &$customer): void {
        boot(['secret_key' => env_value('PAYMENTS_SECRET_KEY'), 'base_url' => env_value('DROP_PROXY_URL'), 'max_network_retries' => 1]);
        $payment = Payments::payments()->create(['amount' => 1500, 'currency' => 'EUR', 'customer' => $customer->id, 'description' => 'dropped once']);
        $all = iterator_to_array($app->make(PaymentsClient::class)->payments->list(['customer' => $customer->id])->autoPagingIterator(), false);
        $dropped = array_values(array_filter($all, static fn (Payment $p): bool => $p->description === 'dropped once'));
        check(count($dropped) === 1 && $dropped[0]->id === $payment->id, 'exactly one payment');
    },
    'webhook verified' => function () use ($app): void {
        $request = Request::create('/webhooks/payments', 'POST', [], [], [], ['HTTP_SERVICE_SIGNATURE' => env_value('WEBHOOK_SIGNATURE'), 'CONTENT_TYPE' => 'application/json'], env_value('WEBHOOK_PAYLOAD'));
        $middleware = $app->make(VerifyWebhookSignature::class);
        $response = $middleware->handle($request, static function (Request $r): Response {
            $event = $r->attributes->get(VerifyWebhookSignature::EVENT_ATTRIBUTE);
            check($event instanceof Event && $event->id === 'evt_program', 'the route sees the event');
            return new Response('', 204);
        });
        check($response->getStatusCode() === 204, 'passed through');
    },
    'webhook tampered refused' => function () use ($app): void {
        $request = Request::create('/webhooks/payments', 'POST', [], [], [], ['HTTP_SERVICE_SIGNATURE' => env_value('WEBHOOK_SIGNATURE')], env_value('WEBHOOK_PAYLOAD') . ' ');
        $response = $app->make(VerifyWebhookSignature::class)->handle($request, static fn (): Response => throw new RuntimeException('reached the route'));
        check($response->getStatusCode() === 400, "status {$response->getStatusCode()}");
    },
];

$failed = false;
foreach ($checks as $name => $run) {
    try {
        $run();
        echo "ok {$name}\n";
    } catch (Throwable $e) {
        $failed = true;
        echo "not ok {$name}: ", $e::class, ': ', $e->getMessage(), ' at ', $e->getFile(), ':', $e->getLine(), "\n";
    }
}
exit($failed ? 1 : 0);
