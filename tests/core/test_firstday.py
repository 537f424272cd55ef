"""A new user's first day (issue 36): what the first commands say when something is off."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from bot.core.errors import one_line
from tests.cli import vllm_bot

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vllm-sample-2026-W22-W23.json"


def _run(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'd.sqlite3'}", **extra)
    return vllm_bot(env, *args)


# ---------------------------------------------------------------------------- cut lines


def test_an_error_keeps_its_values_whatever_the_path_length(tmp_path: Path) -> None:
    deep = tmp_path / ("a-folder-with-a-long-name-" * 3) / ("and-another-level-" * 3)
    deep.mkdir(parents=True)
    export = deep / "vllm-sample.json"
    export.write_bytes(SAMPLE.read_bytes())
    shown = _run(tmp_path, "import", str(export), "--week", "2026-W30", "--complete")
    assert shown.returncode == 2
    assert shown.stderr == (
        f"error: nothing imported, not marking 2026-W30 complete: {export}: the file declares "
        "the window 2026-05-25..2026-06-08, which does not contain 2026-07-20..2026-07-27; "
        "give a file that covers the window, or leave out --complete\n"
    )


def test_a_libraries_long_line_loses_its_paths_middle_before_any_value() -> None:
    path = "/tmp/pytest-of-someone/pytest-1234/test_a_rather_long_test_name0/sub/dir/x.db"
    text = (
        f"(sqlite3.OperationalError) unable to open database file {path} at "
        "2026-06-01 12:00:00 for window 2026-05-25..2026-06-01 (attempt 3 of 3); "
        "check the folder's permissions"
    )
    line = one_line(text, 200)
    assert len(line) <= 200
    assert "/tmp/pytest-of-someone/…/dir/x.db" in line
    for value in ("2026-06-01 12:00:00", "2026-05-25..2026-06-01", "attempt 3 of 3"):
        assert value in line
    assert line.endswith("; check the folder's permissions")
    # What fits is left as it is.
    assert one_line(text, 1000) == text


def _write(path: Path, data: dict[str, object]) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- None


def test_explain_words_a_theme_with_no_last_week_never_none(tmp_path: Path) -> None:
    window = ("--since", "2026-05-25", "--until", "2026-06-08", "--complete")
    assert _run(tmp_path, "import", str(SAMPLE), *window).returncode == 0
    themes = _run(tmp_path, "themes", "--week", "2026-W22", "--no-sync", "--format", "json")
    assert themes.returncode == 0, themes.stderr
    found = json.loads(themes.stdout)["themes"]
    assert found and found[0]["last_week"] is None  # the sample's first week: nothing before
    member = found[0]["members"][0]["number"]
    shown = _run(tmp_path, "explain", str(member))
    assert shown.returncode == 0, shown.stderr
    theme = shown.stdout.splitlines()[-1]
    assert theme.startswith("theme: ") and "None" not in theme
    assert ", last week not in the store;" in theme


def test_the_newest_release_from_the_store_is_named_in_words_never_none(tmp_path: Path) -> None:
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    data["release"] = {"base": "v0.9.0", "head": "v0.10.0", "base_date": None, "head_date": None}
    release = _write(tmp_path / "release.json", data)
    assert _run(tmp_path, "import", str(release)).returncode == 0
    shown = _run(tmp_path, "chat", "/vllm release")
    assert shown.returncode == 0, shown.stderr
    assert "v0.10.0" in shown.stdout
    assert shown.stderr.startswith("warning: the newest release of vllm-project/vllm from the ")
    assert "None" not in shown.stderr + shown.stdout


# ---------------------------------------------------------------------------- first commands


def test_a_single_bracket_repos_table_is_told_to_be_double(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text('[repos]\nname = "vllm-project/vllm"\n', encoding="utf-8")
    shown = _run(tmp_path, "--config", str(config), "modules")
    assert shown.returncode == 2
    assert shown.stderr == (
        f"error: {config}: repos: [repos] is one table, but repos is a list: use [[repos]] "
        "(double brackets), once per entry\n"
    )


def test_out_in_a_missing_folder_is_one_line_and_makes_no_folder(tmp_path: Path) -> None:
    window = ("--since", "2026-05-25", "--until", "2026-06-08", "--complete")
    assert _run(tmp_path, "import", str(SAMPLE), *window).returncode == 0
    missing = tmp_path / "nonexistent" / "dir"
    digest = ("digest", "--week", "2026-W23", "--no-sync")
    for args in (
        (*digest, "--out", str(missing / "x.md")),
        (*digest, "--format", "png", "--out", str(missing / "x.png")),
        ("archive", "--out", str(missing / "site")),
    ):
        shown = _run(tmp_path, *args)
        assert shown.returncode == 2, (args, shown.stderr)
        assert shown.stderr == (
            f"error: --out: the folder '{missing}' does not exist; create it first, or give a "
            "path in a folder that exists, e.g. digest-2026-W23.md\n"
        )
        assert not (tmp_path / "nonexistent").exists()
    # A folder that exists is written into as before; the archive makes its own folder.
    assert _run(tmp_path, *digest, "--out", str(tmp_path / "x.md")).returncode == 0
    assert _run(tmp_path, "archive", "--out", str(tmp_path / "site")).returncode == 0


def test_the_pr_card_shows_times_in_the_configured_timezone(tmp_path: Path) -> None:
    window = ("--since", "2026-05-25", "--until", "2026-06-08", "--complete")
    assert _run(tmp_path, "import", str(SAMPLE), *window).returncode == 0
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))["pullRequests"][0]
    config = tmp_path / "bot.toml"
    config.write_text('timezone = "Asia/Shanghai"\n', encoding="utf-8")
    shown = _run(tmp_path, "--config", str(config), "pr", str(data["number"]))
    assert shown.returncode == 0, shown.stderr
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from bot.core.i18n import moment

    merged = datetime.fromisoformat(data["mergedAt"].replace("Z", "+00:00"))
    local = moment(merged.astimezone(ZoneInfo("Asia/Shanghai")), "en")
    assert f"{local} Asia/Shanghai" in shown.stdout
    assert " UTC" not in shown.stdout
    chat = _run(tmp_path, "--config", str(config), "chat", f"/vllm pr {data['number']}")
    assert chat.returncode == 0 and f"{local} Asia/Shanghai" in chat.stdout


def test_chat_channel_needs_its_platform(tmp_path: Path) -> None:
    shown = _run(tmp_path, "chat", "/vllm subscriptions", "--channel", "C0123")
    assert shown.returncode == 2
    assert shown.stderr == (
        "error: --channel: 'C0123' names no platform; expected slack:ID or discord:ID (e.g. "
        "slack:C0123, discord:1234), or cli for the terminal\n"
    )
    helped = _run(tmp_path, "chat", "--help", COLUMNS="200")
    assert "--channel        slack:ID|discord:ID" in helped.stdout
    assert _run(tmp_path, "chat", "/vllm help", "--channel", "cli").returncode == 0
