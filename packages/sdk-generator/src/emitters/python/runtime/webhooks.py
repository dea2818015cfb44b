from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any, Optional, Union

from ._error_base import SignatureVerificationError

#: Deliveries older than this (seconds) are refused, so a captured one cannot be replayed later.
DEFAULT_TOLERANCE = 300

_SCHEME = "v1"


class Webhook:
    """Verifies deliveries: ``Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">``."""

    @staticmethod
    def construct_event(
        payload: Union[str, bytes],
        sig_header: Optional[str],
        secret: str,
        tolerance: int = DEFAULT_TOLERANCE,
    ) -> Any:
        """Checks the signature and age of a delivery and returns the parsed event.

        Pass the raw body exactly as received, not a re-serialised object::

            event = payments.Webhook.construct_event(request.body, request.headers["Service-Signature"], secret)
        """
        body = payload.decode("utf-8") if isinstance(payload, bytes) else payload
        Webhook.verify_signature(body, sig_header, secret, tolerance)
        try:
            return json.loads(body)
        except ValueError as err:
            raise SignatureVerificationError("The webhook payload is not JSON.", type="signature_verification_error") from err

    @staticmethod
    def verify_signature(payload: str, sig_header: Optional[str], secret: str, tolerance: int = DEFAULT_TOLERANCE) -> None:
        """Raises SignatureVerificationError unless a ``v1`` signature matches and ``t`` is within ``tolerance`` s of now."""

        def fail(message: str) -> SignatureVerificationError:
            return SignatureVerificationError(message, type="signature_verification_error")

        if not sig_header:
            raise fail("No Service-Signature header.")
        pairs = [part.strip().split("=", 1) for part in sig_header.split(",")]
        timestamps = [p[1] for p in pairs if len(p) == 2 and p[0] == "t"]
        signatures = [p[1] for p in pairs if len(p) == 2 and p[0] == _SCHEME]
        if not timestamps or not timestamps[0].isdigit() or not signatures:
            raise fail("The Service-Signature header is malformed: expected t=<unix>,v1=<hex>.")
        timestamp = int(timestamps[0])
        expected = _sign(payload, secret, timestamp)
        if not any(hmac.compare_digest(expected, s) for s in signatures):
            raise fail("No signature matches the payload. Check the endpoint secret and that the body is the raw one.")
        age = int(time.time()) - timestamp
        if tolerance > 0 and abs(age) > tolerance:
            raise fail(f"The signature's timestamp is {age} s old, outside the {tolerance} s tolerance.")

    @staticmethod
    def generate_test_header(payload: str, secret: str, timestamp: Optional[int] = None) -> str:
        """A valid header for a payload, for testing your webhook handler."""
        t = int(time.time()) if timestamp is None else timestamp
        return f"t={t},{_SCHEME}={_sign(payload, secret, t)}"


def _sign(payload: str, secret: str, timestamp: int) -> str:
    return hmac.new(secret.encode("utf-8"), f"{timestamp}.{payload}".encode("utf-8"), hashlib.sha256).hexdigest()
