"""An export's `state` becomes one of the three PR states, or the import says which is bad."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.core.errors import UsageError
from bot.importer import read_export


def _export(tmp_path: Path, **fields: object) -> Path:
    pr = {"number": 7, "title": "Fix the scheduler", **fields}
    path = tmp_path / "export.json"
    path.write_text(json.dumps({"repository": "vllm-project/vllm", "pullRequests": [pr]}))
    return path


@pytest.mark.parametrize(
    ("fields", "state"),
    [
        ({"mergedAt": "2026-06-02T10:00:00Z"}, "merged"),
        ({"mergedAt": "2026-06-02T10:00:00Z", "state": "CLOSED"}, "merged"),
        ({"state": "CLOSED"}, "closed"),
        ({"state": "open"}, "open"),
        ({}, "open"),
    ],
)
def test_state_from_the_export(tmp_path: Path, fields: dict[str, object], state: str) -> None:
    _, prs = read_export(_export(tmp_path, **fields))
    assert [pr.state for pr in prs] == [state]


def test_an_unknown_state_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        read_export(_export(tmp_path, state="draft"))
    message = str(caught.value)
    assert "bad state 'draft'" in message and "open, closed or merged" in message
    assert "\n" not in message
