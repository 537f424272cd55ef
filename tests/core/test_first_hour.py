"""A newcomer's first hour: the forms, messages and help they meet first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli import vllm_bot

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vllm-sample-2026-W22-W23.json"
COMMANDS = ["sync", "import", "pr", "explain", "modules", "digest", "chat", "serve", "doctor"]


def _run(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = dict(
        os.environ,
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'first.sqlite3'}",
        COLUMNS="100",
        **env,
    )
    return vllm_bot(environment, *args)


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_shows_no_python_types(tmp_path: Path, command: str | None) -> None:
    shown = _run(tmp_path, *([command] if command else []), "--help")
    assert shown.returncode == 0, shown.stderr
    assert "<bool>" not in shown.stdout and "list[" not in shown.stdout


def test_version(tmp_path: Path) -> None:
    shown = _run(tmp_path, "--version")
    assert shown.returncode == 0 and shown.stdout.startswith("vllm-bot ")


def test_pr_and_explain_take_the_forms_of_slash_vllm_pr(tmp_path: Path) -> None:
    assert _run(tmp_path, "import", str(SAMPLE)).returncode == 0
    for ref in ("43001", "#43001", "https://github.com/vllm-project/vllm/pull/43001"):
        card = _run(tmp_path, "pr", ref, "--format", "json")
        assert card.returncode == 0, card.stderr
        assert '"number": 43001' in card.stdout
        explained = _run(tmp_path, "explain", ref)
        assert explained.returncode == 0 and "#43001" in explained.stdout
    chinese = _run(tmp_path, "explain", "#43001", "--lang", "zh")
    assert chinese.returncode == 0 and "模块" in chinese.stdout and "modules:" not in chinese.stdout
    other = _run(tmp_path, "pr", "https://github.com/a/b/pull/1", "--repo", "vllm-project/vllm")
    assert other.returncode == 2 and "--repo" in other.stderr


def test_unsubscribing_one_module_of_two_says_it_narrowed(tmp_path: Path) -> None:
    channel = ("--channel", "slack:C0123")
    assert _run(tmp_path, "chat", "/vllm subscribe moe attention", *channel).returncode == 0
    narrowed = _run(tmp_path, "chat", "/vllm unsubscribe moe", *channel)
    assert narrowed.returncode == 0, narrowed.stderr
    assert "no longer includes moe" in narrowed.stdout and "attention" in narrowed.stdout
    assert "removed" not in narrowed.stdout
    gone = _run(tmp_path, "chat", "/vllm unsubscribe attention", *channel)
    assert "removed 1 subscription" in gone.stdout


async def test_an_unreachable_github_is_not_retried() -> None:
    from bot.core.errors import GitHubUnreachable
    from bot.github.client import GitHubClient

    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    client = GitHubClient(token=None, api_url="http://127.0.0.1:9", max_retries=5, sleep=sleep)
    try:
        with pytest.raises(GitHubUnreachable, match=r"cannot reach 127\.0\.0\.1"):
            await client.rest("/repos/o/r/pulls/1")
    finally:
        await client.aclose()
    assert slept == [] and client.requests == 1


def test_pr_not_stored_and_github_unreachable_says_both_and_how_to_go_offline(
    tmp_path: Path,
) -> None:
    shown = _run(tmp_path, "pr", "5", GITHUB_API_URL="http://127.0.0.1:9")
    assert shown.returncode == 1
    assert shown.stderr.count("error:") == 1
    line = shown.stderr.strip().splitlines()[-1]
    assert "not in the store" in line and "import" in line and "--no-sync" in line


def _in_pty(argv: list[str], env: dict[str, str], columns: int) -> str:
    import fcntl
    import pty
    import re
    import select
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # the child: a terminal of `columns` columns
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 60, columns, 0, 0))
    output = b""
    while select.select([fd], [], [], 120)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    os.waitpid(pid, 0)
    text = output.decode("utf-8", "replace")
    text = re.sub(r"\x1b\]8;[^\x1b]*\x1b\\", "", text)  # hyperlinks
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)  # colours


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
@pytest.mark.subprocess
def test_terminal_digest_wraps_pr_lines_at_80_columns(tmp_path: Path) -> None:
    import json

    window = ("--since", "2026-05-25", "--until", "2026-06-08", "--complete")
    assert _run(tmp_path, "import", str(SAMPLE), *window).returncode == 0
    env = dict(os.environ, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'first.sqlite3'}")
    env.pop("COLUMNS", None)
    shown = _in_pty(
        [sys.executable, "-m", "bot", "digest", "--week", "2026-W23", "--no-sync"], env, 80
    )
    lines = shown.replace("\r", "").splitlines()
    assert lines and all(len(line.rstrip()) <= 80 for line in lines)
    flat = " ".join(" ".join(lines).split())
    as_json = _run(tmp_path, "digest", "--week", "2026-W23", "--no-sync", "--format", "json")
    for key in json.loads(as_json.stdout)["key_prs"][:5]:
        # Every key PR's author is shown: nothing is cut at the window's edge.
        assert key["author"] in flat, key


def test_offline_digest_warns_once(tmp_path: Path) -> None:
    window = ("--since", "2026-05-18", "--until", "2026-06-08", "--complete")
    export = SAMPLE.read_text(encoding="utf-8").replace(
        "2026-05-25T00:00:00Z", "2026-05-18T00:00:00Z"
    )
    path = tmp_path / "sample.json"
    path.write_text(export, encoding="utf-8")
    assert _run(tmp_path, "import", str(path), *window).returncode == 0
    shown = _run(
        tmp_path,
        "digest",
        "--week",
        "2026-W23",
        GITHUB_GRAPHQL_URL="http://127.0.0.1:9/g",
        GITHUB_API_URL="http://127.0.0.1:9",
        GITHUB_TOKEN="ghp_offline_test_1",
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stderr.count("cannot reach") == 1, shown.stderr


def test_doctor_reports_each_problem_once(tmp_path: Path) -> None:
    shown = _run(
        tmp_path, "doctor", SLACK_BOT_TOKEN="xoxb-doctor-1", SLACK_API_URL="http://127.0.0.1:9/"
    )
    assert shown.returncode == 1
    assert sum("SLACK_APP_TOKEN" in line and "✗" in line for line in shown.stdout.splitlines()) == 1
