<?php

declare(strict_types=1);

namespace Payments\Exception;

/** No response: the connection failed or the request took longer than `timeout`. */
class ConnectionError extends PaymentsError
{
}
