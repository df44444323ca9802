"""The live server the suite runs against: test/integrators/python-client.test.ts starts one per database
and passes its address, an API key and a fillable PDF in the environment."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import formsign  # noqa: E402


@pytest.fixture(scope="session")
def live() -> dict:
    missing = [k for k in ("FORMSIGN_BASE_URL", "FORMSIGN_API_KEY", "FORMSIGN_TEMPLATE_PDF") if not os.environ.get(k)]
    if missing:
        pytest.fail(f"the live tests need {', '.join(missing)}: run them through npm test (test/integrators/python-client.test.ts)")
    return {"base_url": os.environ["FORMSIGN_BASE_URL"], "api_key": os.environ["FORMSIGN_API_KEY"], "pdf": Path(os.environ["FORMSIGN_TEMPLATE_PDF"]).read_bytes()}


@pytest.fixture(scope="session")
def client(live: dict) -> formsign.Client:
    return formsign.Client(api_key=live["api_key"], base_url=live["base_url"])
