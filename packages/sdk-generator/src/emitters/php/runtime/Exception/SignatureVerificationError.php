<?php

declare(strict_types=1);

namespace Payments\Exception;

/** A webhook's `Service-Signature` does not match its payload, or is too old. */
class SignatureVerificationError extends PaymentsError
{
}
