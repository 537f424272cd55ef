"""`vllm-bot archive` run as a user runs it: import two weeks, write the site, bad input."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.cli import vllm_bot
from tests.digest.history_helpers import weeks_ending


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "VLLM_BOT_CONFIG": str(tmp_path / "config.toml"),
    }
    return vllm_bot(env, *args)


def _export(tmp_path: Path, week: int, numbers: range) -> Path:
    window = weeks_ending(f"2026-W{week}", 1)[0]
    at = (window.start_utc.replace(hour=12)).isoformat().replace("+00:00", "Z")
    prs = [
        {
            "number": n,
            "title": f"[ROCm] Faster kernel {n}",
            "body": "Speeds up the ROCm attention kernel.",
            "url": f"https://github.com/acme/widgets/pull/{n}",
            "author": f"dev{n % 3}",
            "createdAt": at,
            "mergedAt": at,
            "labels": [],
            "additions": 120,
            "deletions": 4,
            "changedFiles": 1,
            "files": [{"path": "widgets/rocm/kernel.py", "additions": 120, "deletions": 4}],
        }
        for n in numbers
    ]
    path = tmp_path / f"w{week}.json"
    path.write_text(json.dumps({"repository": "acme/widgets", "pullRequests": prs}))
    return path


def test_archive_writes_a_site_from_the_store(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        '[[repos]]\nname = "acme/widgets"\nmodules = "auto"\n[digest]\nhistory_weeks = 2\n'
    )
    for week, numbers in ((22, range(1, 4)), (23, range(10, 15))):
        done = _cli(
            tmp_path, "import", str(_export(tmp_path, week, numbers)), "--week", f"2026-W{week}"
        )
        assert done.returncode == 0, done.stderr
    out = tmp_path / "site"
    done = _cli(tmp_path, "archive", "--out", str(out), "--weeks", "4", "--lang", "en,zh")
    assert done.returncode == 0, done.stderr
    assert "wrote" in done.stderr and "index.html" in done.stderr
    week = (out / "acme/widgets/2026-W23.zh.html").read_text(encoding="utf-8")
    assert "近 2 周趋势" in week and "<svg" in week
    assert (out / "acme/widgets/feed.en.xml").is_file()
    # Weeks with nothing stored are not pages.
    assert not (out / "acme/widgets/2026-W20.en.html").exists()


def test_archive_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[[repos]]\nname = "acme/widgets"\n')
    done = _cli(tmp_path, "archive", "--out", str(tmp_path / "s"), "--lang", "fr")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "en, zh" in done.stderr
    done = _cli(tmp_path, "archive", "--out", str(tmp_path / "s"))
    assert done.returncode == 2 and "nothing to archive" in done.stderr
