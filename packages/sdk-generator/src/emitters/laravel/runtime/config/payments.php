<?php

declare(strict_types=1);

// Publish with `php artisan vendor:publish --tag=payments-config`. Keys come from the environment,
// never from this file.

return [
    // A secret (service_...) or restricted (rk_...) key. Publishable keys (pk_...) are refused.
    'secret_key' => env('PAYMENTS_SECRET_KEY'),

    // Pins the API release (YYYY-MM-DD), sent as Service-Version; null: the account's default.
    'api_version' => env('PAYMENTS_API_VERSION'),

    // Where the service listens, without /v1.
    'base_url' => env('PAYMENTS_BASE_URL', 'http://127.0.0.1:4242'),

    // Milliseconds each attempt may take.
    'timeout' => (int) env('PAYMENTS_TIMEOUT', 30000),

    // Retries of connection errors, 409, 429 and 5xx, with backoff and the same Idempotency-Key.
    'max_network_retries' => (int) env('PAYMENTS_MAX_NETWORK_RETRIES', 2),

    // The webhook endpoint's signing secret (whsec_...), for the VerifyWebhookSignature middleware.
    'webhook_secret' => env('PAYMENTS_WEBHOOK_SECRET'),

    // Deliveries signed longer ago than this (seconds) are refused.
    'webhook_tolerance' => (int) env('PAYMENTS_WEBHOOK_TOLERANCE', 300),
];
