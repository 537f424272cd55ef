"""A read-only store still gives a digest (the analysis cache is best effort), and a store
error is one short line, its SQL and parameters kept for --debug."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.cli import vllm_bot

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vllm-sample-2026-W22-W23.json"


def _run(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DATABASE_URL=url)
    return vllm_bot(env, *args)


def test_digest_no_sync_on_a_read_only_store(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    window = ("--since", "2026-05-25", "--until", "2026-06-08", "--complete")
    assert _run(f"sqlite:///{path}", "import", str(SAMPLE), *window).returncode == 0
    read_only = f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true"
    digest = _run(read_only, "digest", "--week", "2026-W23", "--no-sync", "--format", "json")
    assert digest.returncode == 0, digest.stderr
    assert json.loads(digest.stdout)["totals"]["merged"] > 0
    # Writing is what fails, in one short line without the SQL or its parameters.
    refused = _run(read_only, "import", str(SAMPLE))
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1 and len(refused.stderr) < 300, refused.stderr
    assert "readonly" in refused.stderr and "[SQL" not in refused.stderr
    detailed = _run(read_only, "--debug", "import", str(SAMPLE))
    assert "[SQL" in detailed.stderr or "INSERT" in detailed.stderr
