<?php

declare(strict_types=1);

namespace Payments\Laravel\Http\Middleware;

use Illuminate\Contracts\Config\Repository;
use Illuminate\Http\Request;
use Payments\Exception\SignatureVerificationError;
use Payments\Webhook;
use Symfony\Component\HttpFoundation\Response;

/**
 * Refuses webhook deliveries whose `Service-Signature` does not match (400) and hands the
 * verified event to the route as the request attribute `payments_event`.
 *
 * ```php
 * Route::post('/webhooks/payments', WebhookController::class)->middleware(VerifyWebhookSignature::class);
 * // in the controller: $event = $request->attributes->get('payments_event');
 * ```
 */
final class VerifyWebhookSignature
{
    public const EVENT_ATTRIBUTE = 'payments_event';

    public function __construct(private readonly Repository $config)
    {
    }

    public function handle(Request $request, \Closure $next): mixed
    {
        try {
            $event = Webhook::constructEvent(
                $request->getContent(),
                $request->headers->get('Service-Signature'),
                (string) $this->config->get('payments.webhook_secret', ''),
                (int) $this->config->get('payments.webhook_tolerance', Webhook::DEFAULT_TOLERANCE),
            );
        } catch (SignatureVerificationError $e) {
            return new Response($e->getMessage(), 400, ['Content-Type' => 'text/plain']);
        }
        $request->attributes->set(self::EVENT_ATTRIBUTE, $event);
        return $next($request);
    }
}
