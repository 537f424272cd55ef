"""The CLI's errors are catalogue messages (issue 22): the English line the CLI prints is
the one it always printed, and the same error reads in Chinese where a channel asks."""

from __future__ import annotations

import ast
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.core.config import Environment, load_config
from bot.core.errors import BotError, ConfigError, UsageError
from bot.core.i18n import render
from bot.core.validators import check_out_file, echo
from bot.core.weeks import parse_window
from bot.importer import Export, coverage, read_export_file

UTC_TZ = ZoneInfo("UTC")
NOW = datetime(2026, 11, 30, tzinfo=UTC)
BOT = Path(__file__).resolve().parents[2] / "bot"


def _has_han(text: str) -> bool:
    return any("\u4e00" <= char <= "\u9fff" for char in text)


def _in_both_languages(exc: BotError) -> None:
    assert exc.text is not None, "the error is not a catalogue message"
    chinese = exc.message("zh")
    assert _has_han(chinese) and chinese != str(exc)
    assert re.search(r"\{\w+\}", chinese) is None, chinese


@pytest.mark.parametrize(
    ("week", "since", "until", "line"),
    [
        (
            " ",
            None,
            None,
            "--week is empty: expected an ISO week like 2026-W23, or 'this' or 'last'",
        ),
        ("this", "2026-06-01", None, "use either --week or --since/--until, not both"),
        (None, "2026-06-01", None, "--since and --until go together; give both"),
        (None, " ", "2026-06-08", "--since is empty: expected a date like 2026-06-01"),
        (
            None,
            "June",
            "2026-06-08",
            "bad --since 'June': expected a date like 2026-06-01 or 2026-06-01T12:00",
        ),
        (
            None,
            "1999-01-01",
            "2026-06-08",
            "bad --since '1999-01-01': expected a date from 2008 (GitHub's first year) to "
            "2099, e.g. 2026-06-01",
        ),
        (
            None,
            "2026-06-08",
            "2026-06-01",
            "--until ('2026-06-01') must be after --since ('2026-06-08'), "
            "e.g. --since 2026-06-01 --until 2026-06-08",
        ),
    ],
)
def test_window_errors_keep_their_english_line_and_read_in_chinese(
    week: str | None, since: str | None, until: str | None, line: str
) -> None:
    with pytest.raises(UsageError) as caught:
        parse_window(week, since, until, UTC_TZ, NOW)
    assert str(caught.value) == line
    _in_both_languages(caught.value)


def test_a_bad_out_path_is_a_catalogue_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        check_out_file(str(tmp_path))
    assert str(caught.value) == (
        f"bad --out {echo(str(tmp_path))}: expected a file path, e.g. digest-2026-W23.md"
    )
    _in_both_languages(caught.value)


def test_export_errors_name_the_file_and_the_format(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    with pytest.raises(UsageError) as caught:
        read_export_file(missing)
    assert str(caught.value) == (
        f"cannot read {missing}: No such file or directory; expected a JSON export "
        "(see README, 'Export format for import')"
    )
    _in_both_languages(caught.value)

    listed = tmp_path / "list.json"
    listed.write_text("[]", encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        read_export_file(listed)
    assert str(caught.value) == (
        f"{listed}: expected an object with 'repository' and 'pullRequests' (got a list)"
    )


def test_a_validator_s_words_reach_the_export_error_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    pr = {"number": 1, "title": "t", "mergedAt": "2026-06-02T10:00:00Z", "state": "weird"}
    path.write_text(json.dumps({"repository": "o/r", "pullRequests": [pr]}), encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        read_export_file(path)
    assert str(caught.value) == (
        f"{path}: pullRequests[0].state: bad state 'weird': expected open, closed or merged"
    )


def test_coverage_says_why_a_window_is_not_covered() -> None:
    june = datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC)
    declared = Export("o/r", [], (datetime(2026, 6, 2, tzinfo=UTC), june[1]))
    problem = coverage(declared, *june)
    assert problem is not None
    assert render(problem, "en") == (
        "the file declares the window 2026-06-02..2026-06-08, which does not contain "
        "2026-06-01..2026-06-08"
    )
    undeclared = coverage(Export("o/r", [], None), *june)
    assert undeclared is not None
    assert render(undeclared, "en") == (
        "the file declares no window and its merged dates (no merged PRs) do not reach past "
        'both edges of 2026-06-01..2026-06-08; add "window": {"since": …, "until": …}'
    )


def test_config_errors_keep_their_english_line(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text('timezone = "Mars/Base"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(config, Environment())
    assert "unknown timezone 'Mars/Base'; use an IANA name such as 'UTC' or 'Asia/Shanghai'" in (
        str(caught.value)
    )
    with pytest.raises(ConfigError) as unreadable:
        load_config(tmp_path / "none.toml", Environment())
    assert str(unreadable.value) == (
        f"cannot read config file {tmp_path / 'none.toml'}: No such file or directory; give "
        "--config (or VLLM_BOT_CONFIG) an existing TOML file"
    )
    _in_both_languages(unreadable.value)


def test_the_cli_prints_no_error_line_worded_in_the_code() -> None:
    # The scan of error calls (tests/commands/test_syntax_catalogue.py) does not see lines
    # the CLI prints itself: each `err.print("error: …")` prints a line made elsewhere.
    tree = ast.parse((BOT / "cli.py").read_text(encoding="utf-8"))
    worded = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and ast.unparse(node.func) == "err.print"):
            continue
        first = node.args[0] if node.args else None
        if isinstance(first, ast.JoinedStr) and first.values:
            head, *rest = first.values
            if isinstance(head, ast.Constant) and str(head.value).startswith("error:"):
                words = [v for v in rest if isinstance(v, ast.Constant) and str(v.value).strip()]
                if str(head.value) != "error: " or words:
                    worded.append((node.lineno, ast.unparse(first)))
        elif isinstance(first, ast.Constant) and str(first.value).startswith("error:"):
            worded.append((node.lineno, ast.unparse(first)))
    assert worded == []
