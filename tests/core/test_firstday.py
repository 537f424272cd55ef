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


# ---------------------------------------------------------------------------- timezones


def _week_export(tmp_path: Path, name: str, since: str, until: str, merged: list[str]) -> Path:
    prs = [
        {"number": 100 + i, "title": f"[Kernel] change {i}", "mergedAt": at}
        for i, at in enumerate(merged)
    ]
    return _write(
        tmp_path / name,
        {"repository": "o/r", "since": since, "until": until, "pullRequests": prs},
    )


def test_a_utc_weeks_export_says_what_it_completes_in_the_configured_timezone(
    tmp_path: Path,
) -> None:
    """Issue 36: with timezone = "Asia/Shanghai", an export of the UTC week 2026-W22,
    imported --complete, left the local 2026-W22 (which starts 8 hours earlier) marked
    incomplete with no word on why."""
    config = tmp_path / "bot.toml"
    config.write_text('timezone = "Asia/Shanghai"\n[[repos]]\nname = "o/r"\n', encoding="utf-8")
    w22 = _week_export(tmp_path, "w22.json", "2026-05-25", "2026-06-01", ["2026-05-26T10:00:00Z"])
    imported = _run(tmp_path, "--config", str(config), "import", str(w22), "--complete")
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.endswith(
        "; 2026-05-25..2026-06-01 (UTC) marked complete (1 PRs in it); weeks are in "
        "Asia/Shanghai (the configured timezone): 2026-W22 there is 2026-05-24 16:00.."
        "2026-05-31 16:00 UTC, and the store still lacks 2026-05-24 16:00..2026-05-25 00:00 "
        "UTC, so its digest stays incomplete; import an export covering that with --complete, "
        'or set timezone = "UTC"\n'
    )
    digest = ("--config", str(config), "digest", "--week", "2026-W22", "--no-sync")
    shown = _run(tmp_path, *digest)
    assert shown.returncode == 0, shown.stderr
    assert (
        "warning: 2026-W22 (weeks in Asia/Shanghai), 2026-05-24 16:00..2026-05-31 16:00 UTC, "
        "is complete in the store but for 2026-05-24 16:00..2026-05-25 00:00 UTC, so the "
        "digest says incomplete; import an export covering that with --complete, or sync it\n"
    ) in shown.stderr
    # The week before, imported too, completes the local week, and the import says so.
    w21 = _week_export(tmp_path, "w21.json", "2026-05-18", "2026-05-25", ["2026-05-24T20:00:00Z"])
    before = _run(tmp_path, "--config", str(config), "import", str(w21), "--complete")
    assert before.returncode == 0, before.stderr
    again = _run(tmp_path, "--config", str(config), "import", str(w22), "--complete")
    assert again.stdout.endswith(
        "(UTC) marked complete (1 PRs in it); 2026-W22 in Asia/Shanghai (the configured "
        "timezone) is complete\n"
    )
    complete = _run(tmp_path, *digest, "--format", "json")
    assert complete.returncode == 0 and json.loads(complete.stdout)["complete"] is True
    assert "warning: 2026-W22" not in complete.stderr
    assert "complete only in part (weeks in Asia/Shanghai): 2026-W21 lacks" in complete.stderr


def test_a_local_week_asked_of_a_utc_export_names_both_windows_to_the_minute(
    tmp_path: Path,
) -> None:
    config = tmp_path / "bot.toml"
    config.write_text('timezone = "Asia/Shanghai"\n[[repos]]\nname = "o/r"\n', encoding="utf-8")
    w22 = _week_export(tmp_path, "w22.json", "2026-05-25", "2026-06-01", ["2026-05-26T10:00:00Z"])
    shown = _run(
        tmp_path, "--config", str(config), "import", str(w22), "--week", "2026-W22", "--complete"
    )
    assert shown.returncode == 2
    assert shown.stderr == (
        f"error: nothing imported, not marking 2026-W22 complete: {w22}: the file declares the "
        "window 2026-05-25..2026-06-01, which does not contain 2026-05-24 16:00..2026-05-31 "
        "16:00 UTC; give a file that covers the window, or leave out --complete\n"
    )
