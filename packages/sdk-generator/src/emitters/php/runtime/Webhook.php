<?php

declare(strict_types=1);

namespace Payments;

use Payments\Exception\SignatureVerificationError;

/**
 * Verifies webhook deliveries: `Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`
 * keyed with the endpoint's `whsec_...` secret.
 */
final class Webhook
{
    /** Events older than this (seconds) are refused, so a captured delivery cannot be replayed later. */
    public const DEFAULT_TOLERANCE = 300;

    private const SCHEME = 'v1';

    /**
     * Checks the signature and age of a delivery and returns the event.
     * Pass the raw body exactly as received, not a re-encoded array.
     *
     * ```php
     * $event = Webhook::constructEvent(file_get_contents('php://input'), $_SERVER['HTTP_SERVICE_SIGNATURE'] ?? null, getenv('WEBHOOK_SECRET'));
     * ```
     *
     * @throws SignatureVerificationError
     */
    public static function constructEvent(string $payload, ?string $header, #[\SensitiveParameter] string $secret, int $tolerance = self::DEFAULT_TOLERANCE): PaymentsObject
    {
        self::verifySignature($payload, $header, $secret, $tolerance);
        try {
            $data = json_decode($payload, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException $err) {
            throw new SignatureVerificationError('The webhook payload is not JSON.', 'signature_verification_error', previous: $err);
        }
        if (!is_array($data)) {
            throw new SignatureVerificationError('The webhook payload is not a JSON object.', 'signature_verification_error');
        }
        return ObjectTypes::construct($data);
    }

    /**
     * Throws unless some `v1` signature matches and `t` is within `$tolerance` seconds of now.
     *
     * @throws SignatureVerificationError
     */
    public static function verifySignature(string $payload, ?string $header, #[\SensitiveParameter] string $secret, int $tolerance = self::DEFAULT_TOLERANCE): void
    {
        $fail = static fn (string $message): SignatureVerificationError => new SignatureVerificationError($message, 'signature_verification_error');
        if ($header === null || $header === '') {
            throw $fail('No Service-Signature header.');
        }
        $timestamp = null;
        $signatures = [];
        foreach (explode(',', $header) as $part) {
            $pair = explode('=', trim($part), 2);
            if (count($pair) !== 2) {
                continue;
            }
            if ($pair[0] === 't' && ctype_digit($pair[1])) {
                $timestamp = (int) $pair[1];
            } elseif ($pair[0] === self::SCHEME) {
                $signatures[] = $pair[1];
            }
        }
        if ($timestamp === null || $signatures === []) {
            throw $fail('The Service-Signature header is malformed: expected t=<unix>,v1=<hex>.');
        }
        $expected = self::sign($payload, $secret, $timestamp);
        $matches = array_filter($signatures, static fn (string $s): bool => hash_equals($expected, $s));
        if ($matches === []) {
            throw $fail('No signature matches the payload. Check the endpoint secret and that the body is the raw one.');
        }
        $age = time() - $timestamp;
        if ($tolerance > 0 && abs($age) > $tolerance) {
            throw $fail(sprintf("The signature's timestamp is %d s old, outside the %d s tolerance.", $age, $tolerance));
        }
    }

    /** Builds a valid header for a payload, for testing your webhook handler. */
    public static function generateTestHeader(string $payload, #[\SensitiveParameter] string $secret, ?int $timestamp = null): string
    {
        $timestamp ??= time();
        return sprintf('t=%d,%s=%s', $timestamp, self::SCHEME, self::sign($payload, $secret, $timestamp));
    }

    private static function sign(string $payload, string $secret, int $timestamp): string
    {
        return hash_hmac('sha256', $timestamp . '.' . $payload, $secret);
    }
}
