from __future__ import annotations

from typing import Any, Mapping, Optional


class PaymentsError(Exception):
    """The base of every error the SDK raises; the subclass tells what to do.

    ``InvalidRequestError``: fix the input named by ``param`` and resend. ``RateLimitError``:
    retry later. ``ConnectionError``: no reply arrived (after the retries).
    """

    def __init__(
        self,
        message: str,
        *,
        type: str,
        code: Optional[str] = None,
        param: Optional[str] = None,
        decline_code: Optional[str] = None,
        status_code: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
        raw: Optional[Mapping[str, Any]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        #: The contract's ``error.type``, e.g. ``invalid_request_error``.
        self.type = type
        #: The contract's ``error.code``, e.g. ``parameter_missing``.
        self.code = code
        #: The offending input, dotted for nested ones (``card.number``).
        self.param = param
        #: Why a card was declined (card errors only).
        self.decline_code = decline_code
        #: The HTTP status; None when no reply arrived.
        self.status_code = status_code
        #: The ``Request-Id`` that finds the request in the service's logs.
        self.request_id = request_id
        #: Reply headers, names in lower case.
        self.headers = dict(headers or {})
        self.raw = dict(raw or {})

    def __str__(self) -> str:
        extra = ", ".join(
            f"{name}={value}"
            for name, value in (("code", self.code), ("param", self.param), ("request_id", self.request_id))
            if value
        )
        return f"{self.message} ({extra})" if extra else self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, code={self.code!r}, status_code={self.status_code!r})"


class ConnectionError(PaymentsError):  # noqa: A001 - the contract's name; payments.ConnectionError
    """No reply: the connection failed or an attempt took longer than ``timeout``."""


class SignatureVerificationError(PaymentsError):
    """A webhook's ``Service-Signature`` does not match its payload, or is too old."""


class ConfigurationError(PaymentsError):
    """The client was built wrongly, e.g. with a publishable key."""
