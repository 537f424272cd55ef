"""The registry is the one declaration of each command: usage, help, parser and builder."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.commands import (
    COMMANDS,
    USAGE,
    CommandError,
    DigestCommand,
    HelpCommand,
    PrCommand,
    SubscribeCommand,
    SubscriptionFilters,
    VersionCommand,
    help_text,
    parse,
)
from bot.commands.registry import GENERAL_USAGE, build, progress_text
from bot.core.i18n import MESSAGES


def test_every_command_is_declared_once_with_its_help_in_both_languages() -> None:
    names = [spec.name for spec in COMMANDS]
    assert len(names) == len(set(names))
    assert list(USAGE) == names
    for spec in COMMANDS:
        assert spec.usage.startswith(f"/vllm {spec.name}")
        assert set(MESSAGES[spec.help_key]) == {"en", "zh"}
        # Discord's picker: a description of at most 100 characters, in both languages.
        for key in (spec.summary_key, *(spec.argument_key(a) for a in spec.arguments)):
            assert all(1 <= len(text) <= 100 for text in MESSAGES[key].values()), key
    assert "/vllm " + "|".join(names) == GENERAL_USAGE


def test_generated_help_lists_every_usage_and_topic_help_matches_it() -> None:
    general = help_text().splitlines()
    usages = [line.split("`")[1] for line in general if line.startswith("• ")]
    assert usages == [spec.usage for spec in COMMANDS]
    for spec in COMMANDS:
        topic = help_text(spec.name)
        assert topic.splitlines()[0] == f"`{spec.usage}`"
        for example in spec.examples:
            assert f"`{example}`" in topic


@pytest.mark.parametrize("spec", COMMANDS, ids=[s.name for s in COMMANDS])
def test_every_example_parses_to_its_own_command(spec) -> None:  # type: ignore[no-untyped-def]
    for example in spec.examples:
        assert parse(example).name == spec.name
    assert isinstance(parse(f"help {spec.name}"), HelpCommand)


def test_help_in_chinese() -> None:
    text = help_text(language="zh")
    assert text.startswith("`/vllm` — 拉取请求周报")
    assert "`/vllm subscribe <module...> [weekly]" in text
    assert "示例：" in help_text("digest", "zh")


def test_new_digest_and_subscribe_syntax() -> None:
    assert parse("digest rocm") == DigestCommand("last", False, ("rocm",))
    assert parse("digest ROCm moe this post") == DigestCommand("this", True, ("rocm", "moe"))
    assert parse("digest org 2026-W23") == DigestCommand("2026-W23", False, (), True)
    assert parse("subscribe rocm weekly") == SubscribeCommand(("rocm",), weekly=True)
    assert parse("subscribe rocm min:7 weekly") == SubscribeCommand(
        ("rocm",), SubscriptionFilters(min_score=7.0), weekly=True
    )
    assert parse("version") == VersionCommand()
    with pytest.raises(CommandError, match="give either 'org' or module names"):
        parse("digest org rocm")
    with pytest.raises(CommandError, match="takes no arguments"):
        parse("version 2")


def test_typed_values_build_the_same_commands_as_text() -> None:
    cases = [
        ("pr", {"number": 42121}, "pr 42121"),
        ("pr", {"number": 5, "repo": "vllm-project/vllm"}, "pr vllm-project/vllm#5"),
        ("digest", {"week": "2026-W23", "post": True}, "digest 2026-W23 post"),
        ("digest", {"modules": "rocm moe", "week": "this"}, "digest rocm moe this"),
        ("digest", {"modules": "org"}, "digest org"),
        (
            "subscribe",
            {"module": "rocm", "filters": "min:7", "weekly": True},
            "subscribe rocm min:7 weekly",
        ),
        ("unsubscribe", {"target": "#3"}, "unsubscribe 3"),
        ("help", {"command": "digest"}, "help digest"),
        ("version", {}, "version"),
        ("modules", {}, "modules"),
    ]
    for name, options, text in cases:
        assert build(name, options) == parse(text), (name, options)


def test_typed_errors_carry_the_usage_line() -> None:
    with pytest.raises(CommandError) as info:
        build("digest", {"week": "lsat"})
    assert str(info.value).splitlines() == [
        "unknown digest argument 'lsat'; did you mean 'last'? (accepted: this, last, an ISO week "
        "like 2026-W23, post)",
        "usage: " + USAGE["digest"],
    ]


def test_errors_render_in_chinese() -> None:
    with pytest.raises(CommandError) as info:
        parse("subscibe moe")
    assert info.value.render("zh").splitlines() == [
        "未知命令 'subscibe'；是不是想输入 'subscribe'？",
        "用法：" + "/vllm " + "|".join(USAGE),
    ]


def test_progress_lines() -> None:
    assert progress_text(PrCommand(7, "a/b")) == "looking up a/b#7…"
    assert progress_text(DigestCommand("last", True), "zh") == "正在生成 last 周报并发布到本频道…"


@given(
    st.lists(st.sampled_from(["rocm", "moe", "attention", "tpu"]), max_size=4, unique=True),
    st.sampled_from(["this", "last", "2026-W23", None]),
    st.booleans(),
)
def test_digest_text_round_trips(modules: list[str], week: str | None, post: bool) -> None:
    words = ["digest", *modules, *([week] if week else []), *(["post"] if post else [])]
    command = parse(" ".join(words))
    assert command == DigestCommand(week or "last", post, tuple(modules))
    assert build("digest", {"modules": " ".join(modules), "week": week, "post": post}) == command


@given(
    st.sampled_from([spec.name for spec in COMMANDS]),
    st.dictionaries(
        st.sampled_from(
            [
                "number",
                "repo",
                "modules",
                "week",
                "post",
                "module",
                "filters",
                "weekly",
                "target",
                "command",
            ]
        ),
        st.one_of(st.text(max_size=30), st.integers(1, 2**31 - 1), st.booleans(), st.none()),
        max_size=4,
    ),
)
def test_typed_values_never_fail_unexpectedly(name: str, options: dict[str, object]) -> None:
    # Whatever a client sends, the answer is a command or one line with its usage.
    spec = next(s for s in COMMANDS if s.name == name)
    if any(a.required and a.name not in options for a in spec.arguments):
        return  # Discord itself refuses an interaction without a required option
    try:
        command = build(name, options)
    except CommandError as exc:
        assert "\nusage: /vllm" in str(exc)
    else:
        assert command.name == name
