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
    env["VLLM_BOT_PAGER"] = "cat"  # the whole text, not a pager waiting for keys
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


# ---------------------------------------------------------------------------- issue 25


def _fresh(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A new user's environment: no DATABASE_URL (the default store, under a fresh home),
    no token, GitHub unreachable, a pager that marks what it shows."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GITHUB_", "SLACK_", "DISCORD_", "DATABASE_URL", "VLLM_BOT_"))
    }
    env.update(
        HOME=str(tmp_path / "home"),
        XDG_DATA_HOME=str(tmp_path / "home" / "data"),
        XDG_STATE_HOME=str(tmp_path / "home" / "state"),
        GITHUB_API_URL="http://127.0.0.1:9",
        GITHUB_GRAPHQL_URL="http://127.0.0.1:9/graphql",
        COLUMNS="100",
        **extra,
    )
    return env


def test_the_readme_offline_path_on_a_fresh_store(tmp_path: Path) -> None:
    env = _fresh(tmp_path)
    store = tmp_path / "home" / "data" / "vllm-bot" / "vllm-bot.sqlite3"
    window = ("--since", "2026-05-25", "--until", "2026-06-08", "--complete")
    imported = vllm_bot(env, "import", str(SAMPLE), *window)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith("imported 46 PRs of vllm-project/vllm")
    assert "2026-05-25..2026-06-08 marked complete" in imported.stdout
    # The first run says where the store it created lives; later runs do not.
    assert f"note: your store is {store}" in imported.stderr
    digest = vllm_bot(env, "digest", "--week", "2026-W23", "--no-sync")
    assert digest.returncode == 0, digest.stderr
    assert "note: your store" not in digest.stderr
    assert "weekly digest" in digest.stdout and "2026" in digest.stdout
    assert "Traceback" not in digest.stderr
    chinese = vllm_bot(env, "digest", "--week", "2026-W23", "--no-sync", "--lang", "zh")
    assert chinese.returncode == 0 and "周报" in chinese.stdout, chinese.stderr
    page = tmp_path / "w23.html"
    html = vllm_bot(
        env, "digest", "--week", "2026-W23", "--no-sync", "--format", "html", "--out", str(page)
    )
    assert html.returncode == 0 and f"wrote {page}" in html.stderr
    assert page.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    chart = tmp_path / "w23.png"
    png = vllm_bot(
        env, "digest", "--week", "2026-W23", "--no-sync", "--format", "png", "--out", str(chart)
    )
    assert png.returncode == 0, png.stderr
    assert chart.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert "Chart of vllm-project/vllm" in png.stderr  # its alt text, as posted
    doctor = vllm_bot(env, "doctor")
    assert f"✓ store: {store}" in doctor.stdout


def test_the_default_rule_set_is_auto_except_for_vllm(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(
        '[[repos]]\nname = "vllm-project/vllm"\n[[repos]]\nname = "vllm-project/vllm-ascend"\n',
        encoding="utf-8",
    )
    env = _fresh(tmp_path, VLLM_BOT_CONFIG=str(config))
    vllm = vllm_bot(env, "modules")
    assert vllm.returncode == 0 and vllm.stdout.startswith("rule set: vllm\n"), vllm.stderr
    ascend = vllm_bot(env, "modules", "--repo", "vllm-project/vllm-ascend")
    assert ascend.returncode == 0, ascend.stderr
    assert ascend.stdout.startswith("rule set: auto\n") and "\nrocm " not in ascend.stdout


def _write(tmp_path: Path, name: str, prs: list[dict[str, object]], **top: object) -> Path:
    import json

    path = tmp_path / name
    path.write_text(json.dumps({"repository": "o/r", "pullRequests": prs, **top}), "utf-8")
    return path


def _merged(number: int, at: str) -> dict[str, object]:
    return {"number": number, "title": f"PR {number}", "mergedAt": at}


def _digest_json(tmp_path: Path, env: dict[str, str]) -> dict[str, object]:
    import json

    shown = vllm_bot(
        env, "digest", "--repo", "o/r", "--week", "2026-W23", "--no-sync", "--format", "json"
    )
    assert shown.returncode == 0, shown.stderr
    data: dict[str, object] = json.loads(shown.stdout)
    return data


def test_an_overlapping_import_keeps_a_complete_windows_merge_times(tmp_path: Path) -> None:
    env = _fresh(tmp_path, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'o.sqlite3'}")
    week = {"window": {"since": "2026-06-01", "until": "2026-06-08"}}
    daily = [_merged(n, f"2026-06-0{n}T10:00:00Z") for n in range(1, 8)]
    first = _write(tmp_path, "a.json", daily, **week)
    # The second export spreads the same PRs over other days: three move out of the week.
    moved = [_merged(n, f"2026-06-{n + 3:02d}T10:00:00Z") for n in range(3, 8)]
    second = _write(tmp_path, "b.json", moved)
    done = vllm_bot(env, "import", str(first), "--complete")
    assert done.returncode == 0 and "marked complete (7 PRs in it)" in done.stdout, done.stderr
    again = vllm_bot(env, "import", str(second))
    assert again.returncode == 0, again.stderr
    conflicts = [line for line in again.stderr.splitlines() if "kept the stored merge time" in line]
    assert len(conflicts) == 5  # one line each, PRs 3 to 7
    assert "#5 of o/r: kept the stored merge time 2026-06-05 10:00 UTC" in again.stderr
    data = _digest_json(tmp_path, env)
    assert data["complete"] is True
    assert data["totals"]["merged"] == 7  # type: ignore[index]


def test_a_new_pr_in_a_complete_window_marks_it_incomplete_and_says_so(tmp_path: Path) -> None:
    env = _fresh(tmp_path, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'n.sqlite3'}")
    week = {"window": {"since": "2026-06-01", "until": "2026-06-08"}}
    first = _write(tmp_path, "a.json", [_merged(1, "2026-06-02T10:00:00Z")], **week)
    extra = _write(tmp_path, "b.json", [_merged(2, "2026-06-03T10:00:00Z")])
    assert vllm_bot(env, "import", str(first), "--complete").returncode == 0
    added = vllm_bot(env, "import", str(extra))
    assert added.returncode == 0, added.stderr
    assert "was complete with 1 merged PRs and now holds 2: marked incomplete" in added.stderr
    assert _digest_json(tmp_path, env)["complete"] is False


def test_several_files_are_checked_whole_before_any_is_stored(tmp_path: Path) -> None:
    env = _fresh(tmp_path, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'm.sqlite3'}")
    week = {"window": {"since": "2026-06-01", "until": "2026-06-08"}}
    good = _write(tmp_path, "good.json", [_merged(1, "2026-06-02T10:00:00Z")], **week)
    unmerged = {"number": 3, "title": "t", "mergedAt": None}
    bad = _write(tmp_path, "bad.json", [_merged(2, "2026-06-03T10:00:00Z"), unmerged])
    refused = vllm_bot(env, "import", str(good), str(bad))
    assert refused.returncode == 2
    assert (
        refused.stderr == f"error: {bad}: pullRequests[1].mergedAt: null: expected a merge "
        'time, e.g. "2026-06-02T10:00:00Z", or "state": "open" or "closed" for a PR not merged\n'
    )
    assert _digest_json(tmp_path, env)["totals"]["merged"] == 0  # type: ignore[index]
    # Each file's own window is marked complete when no --week is given.
    next_week = {"since": "2026-06-08", "until": "2026-06-15"}
    later = _write(tmp_path, "later.json", [_merged(9, "2026-06-09T10:00:00Z")], window=next_week)
    both = vllm_bot(env, "import", str(good), str(later), "--complete")
    assert both.returncode == 0, both.stderr
    assert both.stdout.count("marked complete (1 PRs in it)") == 2
    assert _digest_json(tmp_path, env)["complete"] is True


def test_a_subscriptions_language_leaves_the_channels_replies_alone(tmp_path: Path) -> None:
    channel = ("--channel", "slack:C0123")
    done = _run(tmp_path, "chat", "/vllm subscribe attention lang:zh", *channel)
    assert done.returncode == 0, done.stderr
    shown = _run(tmp_path, "chat", "/vllm help", *channel)
    assert shown.returncode == 0 and "/vllm pr" in shown.stdout
    assert "一个" not in shown.stdout and "订阅" not in shown.stdout


def test_lookups_say_where_the_pr_is_stored_and_that_github_is_offline(tmp_path: Path) -> None:
    shared = Path(__file__).resolve().parents[3] / "shared"
    ascend = shared / "datasets" / "vllm-ascend-2026-W22.json"
    if not ascend.exists():
        pytest.skip("../shared/datasets is absent")
    env = _fresh(tmp_path, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'l.sqlite3'}")
    assert vllm_bot(env, "import", str(ascend)).returncode == 0
    cli = vllm_bot(env, "pr", "9365")
    assert cli.returncode == 1
    assert cli.stderr.rstrip().endswith(
        "the store has vllm-project/vllm-ascend#9365: vllm-bot pr vllm-project/vllm-ascend#9365"
    )
    chat = vllm_bot(env, "chat", "/vllm pr 99999")
    assert "offline" in chat.stderr and "the store holds 0 PRs of vllm-project/vllm" in chat.stderr


def test_github_token_unset_is_said_once_a_day(tmp_path: Path) -> None:
    env = _fresh(tmp_path, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 't.sqlite3'}")
    said = [vllm_bot(env, "pr", "5").stderr.count("GITHUB_TOKEN is not set") for _ in range(2)]
    assert said == [1, 0]


def test_an_option_of_vllm_bot_after_the_command_is_explained(tmp_path: Path) -> None:
    shown = _run(tmp_path, "digest", "--config", "bot.toml")
    assert shown.returncode == 2
    assert shown.stderr == (
        "error: --config goes before the command; use e.g. 'vllm-bot --config bot.toml "
        "digest …' (see 'vllm-bot --help')\n"
    )


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_long_output_is_paged_in_a_terminal_only(tmp_path: Path) -> None:
    window = ("--since", "2026-05-25", "--until", "2026-06-08", "--complete")
    assert _run(tmp_path, "import", str(SAMPLE), *window).returncode == 0
    pager = tmp_path / "pager.sh"
    pager.write_text("#!/bin/sh\necho PAGED\ncat\n", encoding="utf-8")
    pager.chmod(0o755)
    database = f"sqlite+aiosqlite:///{tmp_path / 'first.sqlite3'}"
    env = dict(os.environ, DATABASE_URL=database, VLLM_BOT_PAGER=str(pager))
    env.pop("COLUMNS", None)
    digest = [sys.executable, "-m", "bot", "digest", "--week", "2026-W23", "--no-sync"]
    assert "PAGED" in _in_pty(digest, env, 80)
    assert "PAGED" not in _in_pty([*digest[:3], "--no-pager", *digest[3:]], env, 80)
    piped = _run(tmp_path, "digest", "--week", "2026-W23", "--no-sync", VLLM_BOT_PAGER=str(pager))
    assert piped.returncode == 0 and "PAGED" not in piped.stdout


def test_a_narrow_terminal_lists_each_key_pr_instead_of_a_table() -> None:
    from bot.terminal import fit_markdown

    table = (
        "## Key PRs\n\n| PR | Title | Author | Score |\n|---|---|---|---:|\n"
        "| [#1](https://x.test/1) | A title long enough to need the room | octocat | 9.9 |\n"
    )
    assert fit_markdown(table, 120) == table
    narrow = fit_markdown(table, 40)
    assert "|" not in narrow
    assert (
        "- **[#1](https://x.test/1) A title long enough to need the room** — Author: "
        "octocat · Score: 9.9" in narrow
    )


# ---------------------------------------------------------------------------- issue 36


def test_the_first_command_names_the_store_even_when_it_fails(tmp_path: Path) -> None:
    """The README's first command (`digest --week last`) fails offline; it still created
    the store, and it is the one run that can say where."""
    env = _fresh(tmp_path)
    store = tmp_path / "home" / "data" / "vllm-bot" / "vllm-bot.sqlite3"
    first = vllm_bot(env, "digest", "--week", "last")
    assert first.returncode == 1
    assert f"note: your store is {store}" in first.stderr
    assert first.stderr.rstrip().splitlines()[-1].startswith("error: cannot reach")
    again = vllm_bot(env, "digest", "--week", "last")
    assert again.returncode == 1 and "note: your store" not in again.stderr


def test_a_database_url_in_a_missing_folder_is_one_line_and_creates_nothing(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "nonexistent" / "dir"
    for url in (f"sqlite:///{missing}/x.db", f"sqlite+aiosqlite:///{missing}/x.db"):
        shown = vllm_bot(_fresh(tmp_path, DATABASE_URL=url), "modules")
        assert shown.returncode == 2
        assert shown.stderr == (
            f"error: DATABASE_URL names the SQLite file {missing}/x.db, whose folder {missing} "
            "does not exist; create the folder, or give a file in one that exists\n"
        )
        assert shown.stdout == ""
        assert not (tmp_path / "nonexistent").exists()
