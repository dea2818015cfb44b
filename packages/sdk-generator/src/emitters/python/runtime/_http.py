from __future__ import annotations

import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.request
import uuid
from typing import Any, Dict, Mapping, Optional, Tuple, TypedDict
from urllib.parse import urlsplit

from ._error_base import ConfigurationError, ConnectionError, PaymentsError
from ._query import encode_query
from ._version import SDK_VERSION
from .errors import error_from_response

DEFAULT_BASE_URL = "http://127.0.0.1:4242"
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_NETWORK_RETRIES = 2
_INITIAL_RETRY_DELAY = 0.5
_MAX_RETRY_DELAY = 5.0
#: A Retry-After longer than this is not waited for: the error goes to the caller instead.
_MAX_RETRY_AFTER = 60.0


class RequestOptions(TypedDict, total=False):
    """Per-call overrides, passed as ``request_options={...}``."""

    #: Reuse your own key to make a call safe to repeat across processes; by default one is generated per call.
    idempotency_key: str
    api_version: str
    #: Seconds each attempt may take.
    timeout: float
    max_network_retries: int


class _NotGiven:
    """The default of optional parameters: left out of the request (None may mean "clear")."""

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()


def strip_not_given(params: Mapping[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in params.items() if v is not NOT_GIVEN}


class RequestSender:
    """Sends one API call: builds the request, retries it when that is safe and useful, and turns
    the reply into the object or a typed error."""

    def __init__(
        self,
        api_key: str,
        *,
        api_version: Optional[str],
        timeout: float,
        max_network_retries: int,
        base_url: str,
    ) -> None:
        _assert_server_key(api_key)
        self._api_key = api_key
        self.api_version = api_version
        self.timeout = timeout
        self.max_network_retries = max_network_retries
        self.base_url = base_url.rstrip("/")

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Optional[Mapping[str, Any]] = None,
        options: Optional[RequestOptions] = None,
    ) -> Any:
        options = options or {}
        api_version = options.get("api_version", self.api_version)
        timeout = options.get("timeout", self.timeout)
        max_retries = options.get("max_network_retries", self.max_network_retries)
        headers = {
            "Authorization": f"Bearer {self._api_key}",
            "Accept": "application/json",
            "User-Agent": f"payments-sdk-python/{SDK_VERSION}",
        }
        if api_version:
            headers["Service-Version"] = api_version
        # Generated once per call, before the first attempt, so every retry carries the same key
        # and the service runs the write at most once however many attempts reach it.
        if method in ("POST", "PUT"):
            headers["Idempotency-Key"] = options.get("idempotency_key") or str(uuid.uuid4())
        data: Optional[bytes] = None
        if body is not None or method in ("POST", "PUT"):
            headers["Content-Type"] = "application/json"
            data = json.dumps(body or {}).encode("utf-8")
        url = f"{self.base_url}{path}{encode_query(query or {})}"

        attempt = 0
        while True:
            reply: Optional[Tuple[int, Dict[str, str], Any]] = None
            try:
                reply = _send(url, method, headers, data, timeout)
                status, reply_headers, reply_body = reply
                if 200 <= status < 300:
                    return reply_body
                failure: PaymentsError = error_from_response(status, reply_body, reply_headers)
            except ConnectionError as err:
                failure = err
            if attempt >= max_retries or not _should_retry(reply):
                raise failure
            time.sleep(_retry_delay(attempt, reply))
            attempt += 1


def _assert_server_key(api_key: str) -> None:
    """The server-side SDK holds secret and restricted keys; publishable keys belong in browsers."""
    if not isinstance(api_key, str) or not api_key.strip():
        raise ConfigurationError(
            "No API key given. Pass a secret (service_...) or restricted (rk_...) key, e.g. from an environment variable.",
            type="configuration_error",
            code="api_key_missing",
        )
    if api_key.startswith("pk_"):
        raise ConfigurationError(
            "A publishable key (pk_...) was given. This SDK is for servers and takes a secret (service_...) or "
            "restricted (rk_...) key; publishable keys are for the browser library.",
            type="configuration_error",
            code="publishable_key_not_allowed",
        )


def _should_retry(reply: Optional[Tuple[int, Dict[str, str], Any]]) -> bool:
    """Retry what may succeed on a second try: no reply at all, the same idempotency key still
    running (409), a rate limit (429) and server faults (5xx)."""
    if reply is None:
        return True
    status = reply[0]
    return status == 409 or status == 429 or status >= 500


def _retry_delay(attempt: int, reply: Optional[Tuple[int, Dict[str, str], Any]]) -> float:
    """Capped exponential backoff with jitter (so many clients do not retry in step), or Retry-After."""
    backoff = min(_INITIAL_RETRY_DELAY * 2**attempt, _MAX_RETRY_DELAY)
    jittered = backoff * (0.5 + random.random() * 0.5)
    if reply is not None:
        try:
            retry_after = float(reply[1].get("retry-after", ""))
        except ValueError:
            return jittered
        if retry_after >= 0:
            return max(jittered, min(retry_after, _MAX_RETRY_AFTER))
    return jittered


def _send(url: str, method: str, headers: Dict[str, str], data: Optional[bytes], timeout: float) -> Tuple[int, Dict[str, str], Any]:
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, _lower(response.headers), _parse(response.read())
        except urllib.error.HTTPError as err:
            with err:
                return err.code, _lower(err.headers), _parse(err.read())
    except (socket.timeout, TimeoutError) as err:
        raise ConnectionError(
            f"The request timed out after {timeout} s ({method} {urlsplit(url).path}).",
            type="connection_error",
            code="timeout",
        ) from err
    except (urllib.error.URLError, http.client.HTTPException, OSError) as err:
        reason = getattr(err, "reason", err)
        if isinstance(reason, (socket.timeout, TimeoutError)):
            raise ConnectionError(
                f"The request timed out after {timeout} s ({method} {urlsplit(url).path}).",
                type="connection_error",
                code="timeout",
            ) from err
        raise ConnectionError(
            f"Could not reach the service at {url.split('/v1')[0]}: {reason}.",
            type="connection_error",
            code="connection_failed",
        ) from err


def _lower(headers: Any) -> Dict[str, str]:
    return {name.lower(): value for name, value in headers.items()} if headers else {}


def _parse(raw: bytes) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return text
