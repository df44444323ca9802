"""The client against a live server: the whole flow, paging, a real webhook delivery, typed errors."""
from __future__ import annotations

import base64
import http.cookiejar
import http.server
import json
import re
import threading
import time
import urllib.request
import uuid

import pytest

import formsign
from formsign import Client, ConflictError, InvalidRequestError, NotFoundError, AuthenticationError, verify_webhook

# A 2×1 PNG, as the signing page would submit a drawn signature.
PNG = "data:image/png;base64," + base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000002000000010806000000f4227f8a0000001149444154789c6310918bfa2f2217d500000a70029802a1f54c0000000049454e44ae426082"
)).decode()


def value_for(field: dict):
    t = field["type"]
    if t in ("signature", "initials"):
        return {"image": PNG, "method": "drawn"}
    if t == "checkbox":
        return True
    if t in ("radio", "select"):
        return field["options"][0]
    return {"email": "ada@example.com", "phone": "+14155550100", "number": 42, "date": "2026-01-02"}.get(t, "Ada Lovelace")


def wait_for(what: str, check, timeout: float = 60.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


def sign_through_the_page(base_url: str, signing_url: str, fields: list) -> None:
    """What the signing page does in a browser: open the link (keeping its cookies), then post the values."""
    token = re.search(r"/sign/([A-Za-z0-9_-]{43})$", signing_url).group(1)
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with opener.open(f"{base_url}/sign/{token}") as page:
        assert page.status == 200 and b"<html" in page.read().lower()
    values = {f["name"]: value_for(f) for f in fields if f["signer"] == 1 and f["type"] != "date_signed"}
    req = urllib.request.Request(
        f"{base_url}/sign/{token}", method="POST", data=json.dumps({"values": values, "consent": True}).encode(),
        headers={"content-type": "application/json", "x-formsign-signing": "1", "user-agent": "formsign-python-tests"},
    )
    with opener.open(req) as res:
        assert res.status == 200, res.read()


class Receiver(http.server.BaseHTTPRequestHandler):
    received: list = []

    def do_POST(self):  # noqa: N802 (the standard library's name)
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        Receiver.received.append((body, self.headers.get("service-signature")))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):  # quiet
        pass


@pytest.fixture(scope="module")
def receiver():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hooks"
    server.shutdown()


def test_the_whole_flow_create_send_sign_signed_pdf_events_and_a_real_webhook(client: Client, live: dict, receiver: str):
    hook = client.create_webhook({"url": receiver, "events": ["form.created", "form.sent", "form.signed"]})
    secret = hook["signing_secret"]
    assert secret.startswith("whsec_")

    template = client.create_template(live["pdf"], "agreement.pdf", fields={"name": "Python agreement"})
    assert template["id"].startswith("tmpl_") and template["name"] == "Python agreement"
    names = {f["name"] for f in template["fields"]}
    assert "signature" in names and "full_name" in names, names

    form = client.create_form({"template_id": template["id"], "prefill": {"full_name": "Ada Lovelace"}})
    assert form["status"] == "draft"
    sent = client.send_form(form["id"], {"recipients": [{"channel": "email", "email": "ada@example.com", "name": "Ada Lovelace"}]})
    assert sent["status"] == "sent" and sent["recipients"][0]["signing_url"]

    sign_through_the_page(live["base_url"], sent["recipients"][0]["signing_url"], template["fields"])
    signed = wait_for("the seal", lambda: (lambda f: f if f["status"] == "signed" and (f.get("sealing") or {}).get("status") == "sealed" else None)(client.get_form(form["id"])))
    assert signed["status"] == "signed"

    pdf = base64.b64decode(client.get_signed_pdf(form["id"], format_="base64")["data"])
    assert pdf.startswith(b"%PDF-") and b"/ByteRange" in pdf and b"ETSI.CAdES.detached" in pdf

    # Paging through /events: every event of this form, each once, across pages of 2.
    events = [e for e in client.auto_page(client.list_events, limit=2) if e["data"]["object"].get("id") == form["id"]]
    types = [e["type"] for e in events]
    assert {"form.created", "form.sent", "form.signed"} <= set(types), types
    assert len({e["id"] for e in events}) == len(events)

    # A real delivery from the server's worker, checked with the client's verify_webhook.
    def delivered():
        for body, sig in list(Receiver.received):
            try:
                ev = verify_webhook(body, sig, secret)
            except formsign.WebhookVerificationError:
                continue
            if ev["type"] == "form.signed" and ev["data"]["object"]["id"] == form["id"]:
                return body, sig
        return None

    body, sig = wait_for("the form.signed delivery", delivered)
    with pytest.raises(formsign.WebhookVerificationError):
        verify_webhook(body.replace(form["id"].encode(), b"form_tampered"), sig, secret)
    with pytest.raises(formsign.WebhookVerificationError):
        verify_webhook(body, sig, "whsec_wrong")
    with pytest.raises(formsign.WebhookVerificationError):
        verify_webhook(body, sig, secret, tolerance=300, now=time.time() + 3600)


def test_idempotency_key_replays_the_first_answer_and_refuses_another_body(client: Client, live: dict):
    template = client.create_template(live["pdf"])
    key = str(uuid.uuid4())
    first = client.create_form({"template_id": template["id"], "name": "Once only"}, idempotency_key=key)
    again = client.create_form({"template_id": template["id"], "name": "Once only"}, idempotency_key=key)
    assert again["id"] == first["id"]
    with pytest.raises(ConflictError) as e:
        client.create_form({"template_id": template["id"], "name": "Something else"}, idempotency_key=key)
    assert e.value.code == "idempotency_key_reused" and e.value.status == 409 and e.value.request_id.startswith("req_")


def test_errors_are_typed_with_code_param_and_request_id(client: Client, live: dict):
    with pytest.raises(NotFoundError) as nf:
        client.get_form("form_" + "0" * 24)
    assert nf.value.code == "resource_not_found" and nf.value.status == 404
    with pytest.raises(InvalidRequestError) as bad:
        client.create_form({"template_id": "tmpl_nope", "surprise": 1})  # type: ignore[typeddict-unknown-key]
    assert bad.value.status == 400 and bad.value.code in ("parameter_unknown", "parameter_invalid") and bad.value.param
    with pytest.raises(AuthenticationError) as auth:
        Client(api_key="fk_test_" + "x" * 32, base_url=live["base_url"]).list_forms()
    assert auth.value.status == 401


def test_connection_errors_are_typed():
    with pytest.raises(formsign.ConnectionError_):
        Client(api_key="fk_test_x", base_url="http://127.0.0.1:9", max_retries=0).list_forms()
