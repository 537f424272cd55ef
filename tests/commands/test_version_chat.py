"""`/vllm version` end to end on the terminal surface: the real CLI, the real
`bot.commands.Backend` over the use cases, a migrated store (Slack and Discord:
tests/slack, tests/discord)."""

from __future__ import annotations

import os
import re
from importlib import metadata
from pathlib import Path

from bot.analysis.cache import ANALYSIS_VERSION
from bot.store.migrations.versions import __path__ as versions_path
from tests.cli import vllm_bot


def test_version_over_the_real_backend(tmp_path: Path) -> None:
    environment = dict(os.environ, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'v.sqlite3'}")
    shown = vllm_bot(environment, "chat", "/vllm version")
    assert shown.returncode == 0, shown.stderr
    head = max(p.name[:4] for p in Path(versions_path[0]).glob("0*.py"))
    expected = (
        rf"vllm-bot {re.escape(metadata.version('vllm-bot'))} · "
        rf"rule set vllm {ANALYSIS_VERSION}:[0-9a-f]{{8}} · "
        rf"store schema {head}"
    )
    assert re.fullmatch(expected, shown.stdout.strip()), shown.stdout
