"""The HTTP client: authentication, JSON and multipart bodies, Idempotency-Key, retries, typed errors."""
from __future__ import annotations

import json as _json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Tuple

from ._generated import Operations
from .errors import ConnectionError_, error_from_response

__all__ = ["Client"]

_RETRY_STATUSES = {429, 500, 502, 503, 504}


class Client(Operations):
    """A Formsign API client on the standard library only.

    ``Client(api_key="fk_test_…", base_url="http://localhost:3000")``; every operation of the API is a
    method named after its operationId (``send_form``, ``list_events``…), typed from the OpenAPI document.
    Every POST carries an ``Idempotency-Key`` (yours, or a fresh one), so a retry after a network error or a
    503 never does the work twice. Errors raise subclasses of ``FormsignError``.
    """

    def __init__(self, api_key: str, base_url: str = "http://localhost:3000", *, timeout: float = 30.0, max_retries: int = 2, user_agent: str = "formsign-python/0.1") -> None:
        if not api_key:
            raise ValueError("api_key is required (fk_test_… or fk_live_…)")
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.user_agent = user_agent

    def _request(self, method: str, path: str, *, query: Optional[Dict[str, Any]] = None, json: Any = None, file: Any = None, fields: Optional[Dict[str, str]] = None, multipart: bool = False, idempotency_key: Optional[str] = None, expect: str = "json") -> Any:
        url = self.base_url + path
        if query:
            pairs = [(k, _query_value(v)) for k, v in query.items() if v is not None]
            if pairs:
                url += "?" + urllib.parse.urlencode(pairs)
        headers = {"Authorization": f"Bearer {self.api_key}", "User-Agent": self.user_agent, "Accept": "application/json" if expect == "json" else "*/*"}
        data: Optional[bytes] = None
        if json is not None:
            data = _json.dumps(json).encode("utf-8")
            headers["Content-Type"] = "application/json"
        elif file is not None:
            filename, content = file
            if multipart:
                data, headers["Content-Type"] = _multipart(filename, content, fields or {})
            else:
                data, headers["Content-Type"] = bytes(content), "application/pdf"
        if method == "POST":
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        status, body, resp_headers = self._send_with_retries(method, url, data, headers)
        if status >= 400:
            try:
                parsed = _json.loads(body.decode("utf-8"))
            except ValueError:
                parsed = {"error": {"type": "api_error", "code": "internal_error", "message": body[:200].decode("utf-8", "replace")}}
            raise error_from_response(status, parsed, resp_headers)
        if expect == "json":
            return _json.loads(body.decode("utf-8")) if body else None
        if expect == "bytes":
            return body
        return None

    def _send_with_retries(self, method: str, url: str, data: Optional[bytes], headers: Dict[str, str]) -> Tuple[int, bytes, Dict[str, str]]:
        attempt = 0
        while True:
            try:
                status, body, resp_headers = self._send(method, url, data, headers)
            except ConnectionError_:
                # A GET, or a POST with its Idempotency-Key, can be sent again safely.
                if attempt >= self.max_retries or method not in ("GET", "POST"):
                    raise
                status, body, resp_headers = 0, b"", {}
            if status not in _RETRY_STATUSES and status != 0:
                return status, body, resp_headers
            if attempt >= self.max_retries:
                return status, body, resp_headers
            attempt += 1
            retry_after = resp_headers.get("retry-after", "")
            delay = min(float(retry_after), 30.0) if retry_after.isdigit() else min(0.5 * 2 ** (attempt - 1), 8.0) * (0.5 + random.random() / 2)
            time.sleep(delay)

    def _send(self, method: str, url: str, data: Optional[bytes], headers: Dict[str, str]) -> Tuple[int, bytes, Dict[str, str]]:
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 (the caller's base_url)
                return resp.status, resp.read(), {k.lower(): v for k, v in resp.headers.items()}
        except urllib.error.HTTPError as e:
            return e.code, e.read(), {k.lower(): v for k, v in (e.headers or {}).items()}
        except (urllib.error.URLError, ConnectionResetError, TimeoutError, OSError) as e:
            raise ConnectionError_(f"{method} {url}: {getattr(e, 'reason', e)}") from e

    def auto_page(self, list_method: Callable[..., Mapping[str, Any]], **params: Any) -> Iterator[Dict[str, Any]]:
        """Every object of a list operation, page after page (``client.auto_page(client.list_forms)``)."""
        starting_after = params.pop("starting_after", None)
        while True:
            page = list_method(**params, **({"starting_after": starting_after} if starting_after else {}))
            data = list(page.get("data") or [])
            yield from data
            if not page.get("has_more") or not data:
                return
            starting_after = data[-1]["id"]


def _query_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _multipart(filename: str, content: bytes, fields: Mapping[str, str]) -> Tuple[bytes, str]:
    boundary = f"formsign-{uuid.uuid4().hex}"
    out = bytearray()
    for name, value in fields.items():
        out += f'--{boundary}\r\nContent-Disposition: form-data; name="{_quote(name)}"\r\n\r\n'.encode("utf-8")
        out += (value if isinstance(value, str) else _json.dumps(value)).encode("utf-8") + b"\r\n"
    out += f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{_quote(filename)}"\r\nContent-Type: application/pdf\r\n\r\n'.encode("utf-8")
    out += bytes(content) + b"\r\n" + f"--{boundary}--\r\n".encode("ascii")
    return bytes(out), f"multipart/form-data; boundary={boundary}"


def _quote(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\r", " ").replace("\n", " ")



