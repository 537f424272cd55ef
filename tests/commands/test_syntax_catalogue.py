"""Every error a chat user can see comes from the catalogue: `CommandError` (and the core's
`MessageError`) take a message id, never English, and their lines follow the language."""

from __future__ import annotations

import ast
from collections.abc import Container
from pathlib import Path

import pytest

import bot
from bot.commands.syntax import CommandError, unknown_modules
from bot.core.errors import MessageError
from bot.core.i18n import MESSAGES
from bot.core.weeks import parse_week

ERROR_CLASSES = {"CommandError", "MessageError"}
BOT = Path(bot.__file__).parent


def literal_errors(source: str, known: Container[str]) -> list[tuple[int, str]]:
    """(line, first argument) of each CommandError/MessageError call in `source` whose
    first argument is not a known catalogue id written as a literal."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name not in ERROR_CLASSES:
            continue
        first = node.args[0] if node.args else None
        if not (isinstance(first, ast.Constant) and first.value in known):
            found.append((node.lineno, ast.unparse(first) if first else "<no argument>"))
    return found


def test_no_error_call_in_bot_takes_literal_text() -> None:
    problems = [
        f"{path.relative_to(BOT.parent)}:{line}: {arg}"
        for path in sorted(BOT.rglob("*.py"))
        for line, arg in literal_errors(path.read_text(encoding="utf-8"), MESSAGES)
    ]
    assert problems == []


def test_the_scan_catches_fstrings_variables_and_unknown_ids() -> None:
    source = """
raise CommandError("error.quotes")
raise CommandError(f"bad {x}", "pr")
raise errors.CommandError(str(exc), "digest")
raise MessageError("which modules?")
raise CommandError.of(exc, "digest")
"""
    assert [line for line, _ in literal_errors(source, MESSAGES)] == [3, 4, 5]


def test_a_literal_is_refused_when_the_error_is_made() -> None:
    with pytest.raises(ValueError, match="catalogue id"):
        CommandError("which modules? e.g. /vllm subscribe attention moe", "subscribe")


def test_a_week_error_is_rendered_in_either_language() -> None:
    from zoneinfo import ZoneInfo

    with pytest.raises(MessageError) as caught:
        parse_week("2026-W99", ZoneInfo("UTC"))
    error = CommandError.of(caught.value, "digest")
    assert str(caught.value) == (
        "no ISO week 2026-W99; expected an ISO week like 2026-W23, or 'this' or 'last'"
    )
    assert error.message("en") == str(caught.value)
    assert error.message("zh").startswith("不存在 `ISO` 周 2026-W99")


def test_unknown_modules_name_each_with_its_suggestion() -> None:
    error = unknown_modules([("atention", "attention"), ("zzz", None)], "subscribe")
    assert error.message("en") == (
        "unknown modules 'atention' (did you mean 'attention'?), 'zzz'; "
        "see /vllm modules for the list"
    )
    assert error.message("zh") == (
        "2 个未知模块：'atention'（是不是想输入 'attention'？）、'zzz'；模块列表见 `/vllm modules`"
    )
    one = unknown_modules([("zzz", None)], "subscribe")
    assert one.message("en") == "unknown module 'zzz'; see /vllm modules for the list"
