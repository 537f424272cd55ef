"""Golden payloads for fixed documents (English and Chinese digest, PR card, alert).

Regenerate after an intended change with:

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/formatters/test_fmt_golden.py

and review the JSON diff like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from formatters import render_discord, render_slack
from formatters.validate import validate_discord_message, validate_slack_message
from tests.formatters.fmt_docs import GOLDEN_DOCS

GOLDEN = Path(__file__).parent / "golden"
RENDERERS = {
    "slack": lambda doc: render_slack(doc, channel="C0123456"),
    "discord": render_discord,
}


@pytest.mark.parametrize("platform", sorted(RENDERERS))
@pytest.mark.parametrize("name", sorted(GOLDEN_DOCS))
def test_golden_payloads(name: str, platform: str) -> None:
    payloads = RENDERERS[platform](GOLDEN_DOCS[name]())
    validate = validate_slack_message if platform == "slack" else validate_discord_message
    assert [validate(p) for p in payloads] == [[] for _ in payloads]
    text = json.dumps(payloads, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    path = GOLDEN / f"{name}.{platform}.json"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path.name}: run with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")
