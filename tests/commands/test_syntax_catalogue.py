"""Every error a chat user can see comes from the catalogue: `CommandError` (and the core's
`MessageError`) take a message id, never English, and their lines follow the language."""

from __future__ import annotations

import ast
from collections.abc import Container, Iterator
from pathlib import Path

import pytest

import bot
from bot.commands.syntax import CommandError, unknown_modules
from bot.core.errors import MessageError
from bot.core.i18n import MESSAGES
from bot.core.weeks import parse_week

ERROR_CLASSES = {"CommandError", "MessageError"}
BOT = Path(bot.__file__).parent


def calls(source: str) -> Iterator[tuple[ast.Call, str | None]]:
    """Each call in `source`, with the name it calls (`f` of `f(…)` and of `x.f(…)`)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            yield node, func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def literal_errors(source: str, known: Container[str]) -> list[tuple[int, str]]:
    """(line, first argument) of each CommandError/MessageError call in `source` whose
    first argument is not a known catalogue id written as a literal."""
    found = []
    for node, name in calls(source):
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


# ------------------------------------------------ every BotError the bot words itself


def bot_error_classes() -> set[str]:
    """Names of BotError and every class below it in bot/ (read from the source, so a new
    error class is covered without being listed)."""
    bases: dict[str, set[str]] = {}
    for path in BOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = {
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
                }
                bases.setdefault(node.name, set()).update(names)
    found = {"BotError"}
    while True:
        more = {name for name, up in bases.items() if up & found} - found
        if not more:
            return found
        found |= more


def _is_words(node: ast.expr | None) -> bool:
    """English written in the call: a string literal, an f-string or a sum with one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value != ""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _is_words(node.left) or _is_words(node.right)
    return False


def _rendered(node: ast.expr) -> bool:
    """A line rendered where the error is made (`message(language, id)`, `exc.message(…)`):
    fixed in one language, where a Text would follow the reader's."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name in {"message", "message_from", "render"}


def _text_call(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Text"


def _known_id(node: ast.expr, known: Container[str]) -> bool:
    first = node.args[0] if isinstance(node, ast.Call) and node.args else None
    return isinstance(first, ast.Constant) and first.value in known


def worded_errors(
    source: str, classes: Container[str], known: Container[str]
) -> list[tuple[int, str]]:
    """(line, argument) of each error made with English in the call, or with a Text whose
    id is not in the catalogue. CommandError/MessageError/InputError take an id (above)."""
    found = []
    for node, name in calls(source):
        if name not in classes or name in ERROR_CLASSES | {"InputError"}:
            continue
        args = [*node.args, *(k.value for k in node.keywords if k.arg in {"message", "hint"})]
        found.extend(
            (node.lineno, ast.unparse(arg)) for arg in args if _is_words(arg) or _rendered(arg)
        )
        for arg in args:
            if _text_call(arg) and not _known_id(arg, known):
                found.append((node.lineno, ast.unparse(arg)))
    return found


def test_every_error_the_bot_words_comes_from_the_catalogue() -> None:
    classes = bot_error_classes()
    problems = [
        f"{path.relative_to(BOT.parent)}:{line}: {arg}"
        for path in sorted([*BOT.rglob("*.py"), *(BOT.parent / "formatters").rglob("*.py")])
        for line, arg in worded_errors(path.read_text(encoding="utf-8"), classes, MESSAGES)
    ]
    assert problems == []


def test_the_error_scan_catches_words_and_passes_causes() -> None:
    source = """
raise UsageError("give --out FILE")
raise ConfigError(f"bad {x}; expected y")
raise GitHubError("GitHub said: " + detail)
raise UsageError(Text("no.such.id", {}))
raise GitHubError(str(exc), service="github")
raise UsageError(Text("error.quotes", {}))
raise BotError(detail, hint="export GITHUB_TOKEN")
raise UsageError(message(language, "error.no_org"))
"""
    classes = bot_error_classes()
    assert {"UsageError", "ConfigError", "GitHubError", "RuleSetError"} <= classes
    assert [line for line, _ in worded_errors(source, classes, MESSAGES)] == [2, 3, 4, 5, 8, 9]
