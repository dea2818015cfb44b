<?php

declare(strict_types=1);

namespace Payments\Laravel;

use Illuminate\Contracts\Container\Container;
use Illuminate\Support\ServiceProvider;
use Payments\PaymentsClient;

/**
 * Binds one PaymentsClient per application, built from `config/payments.php`. Resolve it by
 * type-hinting `PaymentsClient`, with `app('payments')`, or through the `Payments` facade.
 */
final class PaymentsServiceProvider extends ServiceProvider
{
    public function register(): void
    {
        $this->mergeConfigFrom(__DIR__ . '/../config/payments.php', 'payments');

        $this->app->singleton(PaymentsClient::class, static function (Container $app): PaymentsClient {
            /** @var array<string, mixed> $config */
            $config = $app->make('config')->get('payments', []);
            return new PaymentsClient(
                (string) ($config['secret_key'] ?? ''),
                apiVersion: ($config['api_version'] ?? null) ?: null,
                timeout: (int) ($config['timeout'] ?? 30000),
                maxNetworkRetries: (int) ($config['max_network_retries'] ?? 2),
                baseUrl: ($config['base_url'] ?? null) ?: null,
            );
        });
        $this->app->alias(PaymentsClient::class, 'payments');
    }

    public function boot(): void
    {
        if ($this->app->runningInConsole()) {
            $this->publishes([__DIR__ . '/../config/payments.php' => $this->app->configPath('payments.php')], 'payments-config');
        }
    }
}
