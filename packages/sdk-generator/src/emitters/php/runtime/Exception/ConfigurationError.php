<?php

declare(strict_types=1);

namespace Payments\Exception;

/** The client was built wrongly, e.g. with a publishable key. */
class ConfigurationError extends PaymentsError
{
}
