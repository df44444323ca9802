"""verify_webhook against headers made the way the server makes them (Stripe's scheme: t=…,v1=HMAC-SHA256)."""
from __future__ import annotations

import hashlib
import hmac
import json
import time

import pytest

from formsign import WebhookVerificationError, verify_webhook

SECRET = "whsec_test_0123456789abcdef"
BODY = json.dumps({"object": "event", "id": "evt_1", "type": "form.signed", "data": {"object": {"id": "form_1"}}}).encode()


def header(body: bytes, secrets, t: int) -> str:
    return f"t={t}," + ",".join("v1=" + hmac.new(s.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest() for s in secrets)


def test_a_good_signature_returns_the_event():
    event = verify_webhook(BODY, header(BODY, [SECRET], int(time.time())), SECRET)
    assert event["type"] == "form.signed" and event["data"]["object"]["id"] == "form_1"


def test_str_payload_and_any_matching_signature_during_a_rotation():
    t = int(time.time())
    h = header(BODY, ["whsec_old", SECRET], t)
    assert verify_webhook(BODY.decode(), h, SECRET)["id"] == "evt_1"
    assert verify_webhook(BODY, header(BODY, [SECRET], t), ["whsec_new", SECRET])["id"] == "evt_1"


def test_a_tampered_body_is_refused():
    h = header(BODY, [SECRET], int(time.time()))
    with pytest.raises(WebhookVerificationError, match="matches"):
        verify_webhook(BODY.replace(b"form_1", b"form_2"), h, SECRET)


def test_a_wrong_secret_is_refused():
    with pytest.raises(WebhookVerificationError):
        verify_webhook(BODY, header(BODY, ["whsec_someone_else"], int(time.time())), SECRET)


def test_an_old_or_future_timestamp_is_refused_beyond_the_tolerance():
    now = int(time.time())
    with pytest.raises(WebhookVerificationError, match="old"):
        verify_webhook(BODY, header(BODY, [SECRET], now - 301), SECRET)
    with pytest.raises(WebhookVerificationError, match="future"):
        verify_webhook(BODY, header(BODY, [SECRET], now + 301), SECRET)
    assert verify_webhook(BODY, header(BODY, [SECRET], now - 3600), SECRET, tolerance=7200)["id"] == "evt_1"


@pytest.mark.parametrize("bad", [None, "", "v1=" + "0" * 64, "t=123", "t=abc,v1=" + "0" * 64, "t=1,t=2,v1=" + "0" * 64])
def test_malformed_headers_are_refused(bad):
    with pytest.raises(WebhookVerificationError):
        verify_webhook(BODY, bad, SECRET)


def test_other_schemes_and_spaces_are_tolerated():
    t = int(time.time())
    sig = hmac.new(SECRET.encode(), f"{t}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert verify_webhook(BODY, f" t={t} , v0=abc, v1={sig} ", SECRET)["id"] == "evt_1"


def test_a_body_that_is_not_json_is_refused_after_the_signature_check():
    body = b"not json"
    with pytest.raises(WebhookVerificationError, match="not JSON"):
        verify_webhook(body, header(body, [SECRET], int(time.time())), SECRET)
