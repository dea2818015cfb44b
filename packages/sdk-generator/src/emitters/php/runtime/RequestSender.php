<?php

declare(strict_types=1);

namespace Payments;

use Payments\Exception\ConfigurationError;
use Payments\Exception\ConnectionError;
use Payments\Exception\ErrorFactory;
use Payments\Exception\PaymentsError;

/**
 * Sends one API call with ext-curl: builds the request, retries it when that is safe and useful,
 * and turns the reply into decoded JSON or a typed error.
 *
 * @internal Used by the services; call the client's resources instead.
 */
final class RequestSender
{
    public const DEFAULT_BASE_URL = 'http://127.0.0.1:4242';
    public const DEFAULT_TIMEOUT_MS = 30000;
    public const DEFAULT_MAX_NETWORK_RETRIES = 2;
    private const INITIAL_RETRY_DELAY_MS = 500;
    private const MAX_RETRY_DELAY_MS = 5000;
    /** A Retry-After longer than this is not waited for: the error goes to the caller instead. */
    private const MAX_RETRY_AFTER_MS = 60000;

    private readonly string $baseUrl;

    public function __construct(
        #[\SensitiveParameter] private readonly string $apiKey,
        private readonly ?string $apiVersion = null,
        private readonly int $timeout = self::DEFAULT_TIMEOUT_MS,
        private readonly int $maxNetworkRetries = self::DEFAULT_MAX_NETWORK_RETRIES,
        ?string $baseUrl = null,
    ) {
        self::assertServerKey($apiKey);
        if (!extension_loaded('curl')) {
            throw new ConfigurationError('The payments SDK needs ext-curl (Debian: apt-get install php-curl).', 'configuration_error', 'curl_missing');
        }
        $this->baseUrl = rtrim($baseUrl ?? self::DEFAULT_BASE_URL, '/');
    }

    /**
     * @param array<string, mixed>|null $query
     * @param array<string, mixed>|null $body
     * @return mixed The decoded JSON reply.
     */
    public function request(string $method, string $path, ?array $query = null, ?array $body = null, ?RequestOptions $options = null): mixed
    {
        $apiVersion = $options?->apiVersion ?? $this->apiVersion;
        $timeout = $options?->timeout ?? $this->timeout;
        $maxRetries = $options?->maxNetworkRetries ?? $this->maxNetworkRetries;
        $headers = [
            'Authorization: Bearer ' . $this->apiKey,
            'Accept: application/json',
            'User-Agent: payments-sdk-php/' . Version::SDK . ' PHP/' . PHP_VERSION,
        ];
        if ($apiVersion !== null) {
            $headers[] = 'Service-Version: ' . $apiVersion;
        }
        // Generated once per call, before the first attempt, so every retry carries the same key and
        // the service runs the write at most once however many attempts reach it.
        if ($method === 'POST' || $method === 'PUT') {
            $headers[] = 'Idempotency-Key: ' . ($options?->idempotencyKey ?? self::uuid4());
        }
        $payload = null;
        if ($body !== null || $method === 'POST' || $method === 'PUT') {
            $headers[] = 'Content-Type: application/json';
            $payload = $body === null || $body === [] ? '{}' : json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION);
        }
        $url = $this->baseUrl . $path . self::encodeQuery($query ?? []);

        for ($attempt = 0; ; $attempt++) {
            $reply = null;
            try {
                $reply = $this->send($url, $method, $headers, $payload, $timeout);
                if ($reply['status'] >= 200 && $reply['status'] < 300) {
                    return $reply['body'];
                }
                $failure = ErrorFactory::fromResponse($reply['status'], $reply['body'], $reply['headers']);
            } catch (ConnectionError $err) {
                $failure = $err;
            }
            if ($attempt >= $maxRetries || !self::shouldRetry($reply)) {
                throw $failure;
            }
            usleep(self::retryDelayMs($attempt, $reply) * 1000);
        }
    }

    /**
     * Encodes query parameters the way the service parses them: scalars as `name=value`, arrays
     * as `name[key]=value` (OpenAPI deepObject), lists as `name[]=value`. Nulls are left out.
     *
     * @param array<string, mixed> $params
     */
    public static function encodeQuery(array $params): string
    {
        $pairs = [];
        $add = static function (string $name, mixed $value) use (&$add, &$pairs): void {
            if ($value === null) {
                return;
            }
            if (is_array($value)) {
                $list = array_is_list($value);
                foreach ($value as $key => $inner) {
                    $add($list ? $name . '[]' : $name . '[' . $key . ']', $inner);
                }
                return;
            }
            $text = is_bool($value) ? ($value ? 'true' : 'false') : (string) $value;
            $pairs[] = rawurlencode($name) . '=' . rawurlencode($text);
        };
        foreach ($params as $name => $value) {
            $add((string) $name, $value);
        }
        return $pairs === [] ? '' : '?' . implode('&', $pairs);
    }

    /** The server-side SDK holds secret and restricted keys; publishable keys belong in browsers. */
    private static function assertServerKey(string $apiKey): void
    {
        if (trim($apiKey) === '') {
            throw new ConfigurationError(
                'No API key given. Pass a secret (service_...) or restricted (rk_...) key, e.g. from an environment variable.',
                'configuration_error',
                'api_key_missing',
            );
        }
        if (str_starts_with($apiKey, 'pk_')) {
            throw new ConfigurationError(
                'A publishable key (pk_...) was given. This SDK is for servers and takes a secret (service_...) or restricted (rk_...) key; publishable keys are for the browser library.',
                'configuration_error',
                'publishable_key_not_allowed',
            );
        }
    }

    /**
     * Retry what may succeed on a second try: no response at all, a request with the same
     * idempotency key still running (409), a rate limit (429) and server faults (5xx).
     *
     * @param array{status: int, headers: array<string, string>, body: mixed}|null $reply
     */
    private static function shouldRetry(?array $reply): bool
    {
        return $reply === null || $reply['status'] === 409 || $reply['status'] === 429 || $reply['status'] >= 500;
    }

    /**
     * Capped exponential backoff with jitter (so many clients do not retry in step), or Retry-After.
     *
     * @param array{status: int, headers: array<string, string>, body: mixed}|null $reply
     */
    private static function retryDelayMs(int $attempt, ?array $reply): int
    {
        $backoff = min(self::INITIAL_RETRY_DELAY_MS * (2 ** $attempt), self::MAX_RETRY_DELAY_MS);
        $jittered = (int) ($backoff * (0.5 + mt_rand() / mt_getrandmax() * 0.5));
        $retryAfter = $reply['headers']['retry-after'] ?? null;
        if ($retryAfter !== null && is_numeric($retryAfter) && (float) $retryAfter >= 0) {
            return max($jittered, (int) min((float) $retryAfter * 1000, self::MAX_RETRY_AFTER_MS));
        }
        return $jittered;
    }

    /**
     * @param list<string> $headers
     * @return array{status: int, headers: array<string, string>, body: mixed}
     */
    private function send(string $url, string $method, array $headers, ?string $payload, int $timeout): array
    {
        $replyHeaders = [];
        $curl = curl_init($url);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $headers,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT_MS => $timeout,
            CURLOPT_CONNECTTIMEOUT_MS => $timeout,
            CURLOPT_NOSIGNAL => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_HEADERFUNCTION => static function ($handle, string $line) use (&$replyHeaders): int {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) {
                    $replyHeaders[strtolower(trim($parts[0]))] = trim($parts[1]);
                }
                return strlen($line);
            },
        ]);
        if ($payload !== null) {
            curl_setopt($curl, CURLOPT_POSTFIELDS, $payload);
        }
        $text = curl_exec($curl);
        $errno = curl_errno($curl);
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        $error = curl_error($curl);
        curl_close($curl);
        if ($text === false || $errno !== 0) {
            $timedOut = $errno === CURLE_OPERATION_TIMEDOUT;
            $target = parse_url($url);
            throw new ConnectionError(
                $timedOut
                    ? sprintf('The request timed out after %d ms (%s %s).', $timeout, $method, $target['path'] ?? '/')
                    : sprintf('Could not reach the service at %s://%s:%s: %s.', $target['scheme'] ?? 'http', $target['host'] ?? '', $target['port'] ?? '', $error),
                'connection_error',
                $timedOut ? 'timeout' : 'connection_failed',
            );
        }
        $body = null;
        if ($text !== '') {
            try {
                $body = json_decode((string) $text, true, 512, JSON_THROW_ON_ERROR);
            } catch (\JsonException) {
                $body = $text;
            }
        }
        return ['status' => $status, 'headers' => $replyHeaders, 'body' => $body];
    }

    private static function uuid4(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
