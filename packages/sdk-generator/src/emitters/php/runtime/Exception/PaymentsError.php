<?php

declare(strict_types=1);

namespace Payments\Exception;

/**
 * The base of every error the SDK throws. Catching a subclass tells what to do: fix the request
 * (InvalidRequestError), retry later (RateLimitError), and so on.
 *
 * The contract's `error.code` is `$errorCode`: PHP's own `Exception::$code` is an integer.
 */
class PaymentsError extends \RuntimeException
{
    /**
     * @param string $type The contract's `error.type`, e.g. `invalid_request_error`.
     * @param string|null $errorCode The contract's `error.code`, e.g. `parameter_missing`.
     * @param string|null $param The offending input, dotted for nested ones (`card.number`).
     * @param string|null $declineCode Why a card was declined (card errors only).
     * @param int|null $statusCode The HTTP status; null when no response arrived.
     * @param string|null $requestId The `Request-Id` that finds the request in the service's logs.
     * @param array<string, string> $headers The response headers, lower-case names.
     * @param array<string, mixed> $raw The `error` member of the response body.
     */
    final public function __construct(
        string $message,
        public readonly string $type,
        public readonly ?string $errorCode = null,
        public readonly ?string $param = null,
        public readonly ?string $declineCode = null,
        public readonly ?int $statusCode = null,
        public readonly ?string $requestId = null,
        public readonly array $headers = [],
        public readonly array $raw = [],
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, 0, $previous);
    }
}
