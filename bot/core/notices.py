"""Notices said at most once a day per user (`GITHUB_TOKEN is not set`, the `gh auth token`
fallback): a reminder on every command teaches people to skip warnings.

The day each notice was last said is kept in a small JSON file in the user state
directory; a file that cannot be read or written only means the notice is said again."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from platformdirs import user_state_dir


def _path() -> Path:
    return Path(os.environ.get("VLLM_BOT_STATE_DIR") or user_state_dir("vllm-bot")) / "notices.json"


def due_today(key: str, now: datetime | None = None) -> bool:
    """True (and remembered) when the notice `key` was not said yet today (UTC)."""
    today = (now or datetime.now(UTC)).date().isoformat()
    path = _path()
    try:
        said = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(said, dict):
            said = {}
    except (OSError, ValueError):
        said = {}
    if said.get(key) == today:
        return False
    said[key] = today
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(said), encoding="utf-8")
    except OSError:
        pass  # not remembered: said again next time, which is the safe side
    return True
