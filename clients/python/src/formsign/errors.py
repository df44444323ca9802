"""Typed errors: one class per error `type` of the API's error body, and one for transport failures."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional


class FormsignError(Exception):
    """An error answer of the API: `{"error": {type, code, message, param?, request_id}}`.

    `code` is stable and meant for programs (`form_already_sent`, `rate_limited`…); `message` is a
    sentence for a person. `retry_after` holds the `Retry-After` header in seconds, when sent.
    """

    def __init__(self, status: int, body: Mapping[str, Any], headers: Mapping[str, str]):
        err: Dict[str, Any] = dict(body.get("error") or {})
        self.status = status
        self.type: str = str(err.get("type", "api_error"))
        self.code: str = str(err.get("code", "internal_error"))
        self.message: str = str(err.get("message", f"HTTP {status}"))
        self.param: Optional[str] = err.get("param")
        self.request_id: Optional[str] = err.get("request_id") or headers.get("service-request-id")
        retry = headers.get("retry-after")
        self.retry_after: Optional[int] = int(retry) if retry and retry.isdigit() else None
        self.body = body
        super().__init__(f"{status} {self.code}: {self.message}" + (f" (param {self.param})" if self.param else ""))


class InvalidRequestError(FormsignError):
    """400, 413, 415: the request was refused as it stands."""


class AuthenticationError(FormsignError):
    """401: the API key is missing or wrong."""


class PermissionError_(FormsignError):
    """402 / 403: the plan or the key does not allow this."""


class NotFoundError(FormsignError):
    """404: no such object in this key's partition."""


class ConflictError(FormsignError):
    """409 / 410: the object's state does not allow this now (or an Idempotency-Key was reused)."""


class RateLimitError(FormsignError):
    """429: too many requests or the monthly quota is used; see `retry_after`."""


class APIError(FormsignError):
    """500 / 503: the server could not answer; safe to retry with the same Idempotency-Key."""


class ConnectionError_(Exception):
    """The server could not be reached, or the connection broke before an answer."""


_BY_TYPE = {
    "invalid_request_error": InvalidRequestError,
    "authentication_error": AuthenticationError,
    "permission_error": PermissionError_,
    "not_found_error": NotFoundError,
    "conflict_error": ConflictError,
    "rate_limit_error": RateLimitError,
    "api_error": APIError,
}


def error_from_response(status: int, body: Mapping[str, Any], headers: Mapping[str, str]) -> FormsignError:
    err = body.get("error") if isinstance(body, Mapping) else None
    cls = _BY_TYPE.get(str(err.get("type")) if isinstance(err, Mapping) else "", APIError if status >= 500 else FormsignError)
    return cls(status, body if isinstance(body, Mapping) else {}, headers)
