<?php

declare(strict_types=1);

namespace Payments;

/**
 * Per-call overrides of the client's options.
 *
 * ```php
 * $client->customers->create(['name' => 'Jenny'], new RequestOptions(idempotencyKey: 'order-6735'));
 * ```
 */
final readonly class RequestOptions
{
    /**
     * @param string|null $idempotencyKey Reuse your own key to make a call safe to repeat across processes;
     *                                    by default one is generated per call.
     */
    public function __construct(
        public ?string $idempotencyKey = null,
        public ?string $apiVersion = null,
        public ?int $timeout = null,
        public ?int $maxNetworkRetries = null,
    ) {
    }
}
