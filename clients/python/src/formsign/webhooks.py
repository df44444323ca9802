"""Checks a webhook delivery's `Service-Signature` header, as the TypeScript client's `verifyWebhook` does."""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from typing import Any, Iterable, List, Optional, Tuple, Union, cast


class WebhookVerificationError(Exception):
    """The delivery is not from this server, was altered, or is too old (or too far in the future)."""


def _parse_header(header: Optional[str]) -> Tuple[int, List[bytes]]:
    if not header:
        raise WebhookVerificationError("The Service-Signature header is missing.")
    t: Optional[int] = None
    signatures: List[bytes] = []
    for part in header.split(","):
        key, sep, value = part.partition("=")
        if not sep:
            continue
        key, value = key.strip(), value.strip()
        if key == "t":
            if not re.fullmatch(r"\d{1,12}", value) or t is not None:
                raise WebhookVerificationError("Service-Signature must carry exactly one t=<unix seconds>.")
            t = int(value)
        elif key == "v1" and re.fullmatch(r"[0-9a-f]{64}", value):
            signatures.append(bytes.fromhex(value))
    if t is None:
        raise WebhookVerificationError("Service-Signature has no t=<unix seconds>.")
    if not signatures:
        raise WebhookVerificationError("Service-Signature has no v1= signature.")
    return t, signatures


def verify_webhook(
    payload: Union[bytes, str],
    header: Optional[str],
    secret: Union[str, Iterable[str]],
    tolerance: int = 300,
    now: Optional[float] = None,
) -> dict:  # type: ignore[type-arg]
    """Checks `header` (the `Service-Signature` value) over the raw body and returns the parsed Event.

    `secret` is the webhook's `signing_secret` (the whole `whsec_…` string), or several during a
    rotation. Any one `v1=` signature matching is enough; other schemes are ignored. Raises
    `WebhookVerificationError` when none matches, or when `t` is more than `tolerance` seconds from now.
    Pass the body exactly as received: parsing and re-serialising JSON changes the bytes.
    """
    body = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
    t, signatures = _parse_header(header)
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets:
        raise WebhookVerificationError("No signing secret was given.")
    matched = False
    for s in secrets:
        expected = hmac.new(s.encode("utf-8"), f"{t}.".encode("ascii") + body, hashlib.sha256).digest()
        # Every comparison runs, matched or not, so the time taken does not tell which part matched.
        for candidate in signatures:
            matched = hmac.compare_digest(expected, candidate) or matched
    if not matched:
        raise WebhookVerificationError("No signature in Service-Signature matches the body and the signing secret.")
    now_s = int(time.time() if now is None else now)
    if abs(now_s - t) > tolerance:
        when = "old" if t < now_s else "in the future"
        raise WebhookVerificationError(f"The signature's timestamp is {abs(now_s - t)} s {when}, beyond the {tolerance} s tolerance.")
    try:
        event: Any = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise WebhookVerificationError("The body is not JSON.") from e
    return cast(dict, event)  # type: ignore[type-arg]
