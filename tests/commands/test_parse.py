"""`parse`: every subcommand, its arguments, and the one-line errors with usage and hints."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.commands import (
    USAGE,
    CommandError,
    DigestCommand,
    HelpCommand,
    ModulesCommand,
    PrCommand,
    SubscribeCommand,
    SubscriptionFilters,
    SubscriptionsCommand,
    UnsubscribeCommand,
    parse,
)

OK = [
    ("", HelpCommand()),
    ("help", HelpCommand()),
    ("HELP subscribe", HelpCommand("subscribe")),
    ("/vllm pr 42121", PrCommand(42121)),
    ("pr 42121", PrCommand(42121)),
    ("pr #42121", PrCommand(42121)),
    ("Pr 7", PrCommand(7)),
    ("42121", PrCommand(42121)),
    ("pr https://github.com/vllm-project/vllm/pull/42121", PrCommand(42121, "vllm-project/vllm")),
    (
        "pr https://github.com/vllm-project/vllm/pull/42121/files?w=1#diff",
        PrCommand(42121, "vllm-project/vllm"),
    ),
    ("pr <https://github.com/foo/bar/pull/3|foo/bar#3>", PrCommand(3, "foo/bar")),
    ("https://github.com/foo/bar/pull/3", PrCommand(3, "foo/bar")),
    ("pr vllm-project/vllm#5", PrCommand(5, "vllm-project/vllm")),
    ("digest", DigestCommand("last", False)),
    ("digest this", DigestCommand("this", False)),
    ("digest LAST post", DigestCommand("last", True)),
    ("digest post 2026-W23", DigestCommand("2026-W23", True)),
    ("digest 2026w3", DigestCommand("2026-W03", False)),
    ("subscriptions", SubscriptionsCommand()),
    ("modules", ModulesCommand()),
    ("unsubscribe all", UnsubscribeCommand("all", "all")),
    ("unsubscribe 12", UnsubscribeCommand("12", "id")),
    ("unsubscribe #12", UnsubscribeCommand("12", "id")),
    ("unsubscribe MoE", UnsubscribeCommand("moe", "module")),
    ("subscribe attention", SubscribeCommand(("attention",))),
    ("subscribe Attention moe attention", SubscribeCommand(("attention", "moe"))),
    (
        "subscribe rocm label:ready -label:ci author:@octocat -author:bot path:vllm/v1/** "
        "-path:docs/** min:7 flag:core-path -flag:large lang:zh",
        SubscribeCommand(
            ("rocm",),
            SubscriptionFilters(
                labels=("ready",),
                not_labels=("ci",),
                authors=("octocat",),
                not_authors=("bot",),
                paths=("vllm/v1/**",),
                not_paths=("docs/**",),
                flags=("core-path",),
                not_flags=("large",),
                min_score=7.0,
                language="zh",
            ),
        ),
    ),
    (
        "subscribe moe label:“needs tests”",
        SubscribeCommand(("moe",), SubscriptionFilters(labels=("needs tests",))),
    ),
    ('subscribe "speculative decoding"', SubscribeCommand(("speculative decoding",))),
    ("subscribe moe min:6.5", SubscribeCommand(("moe",), SubscriptionFilters(min_score=6.5))),
]


@pytest.mark.parametrize(("text", "expected"), OK, ids=[t or "(empty)" for t, _ in OK])
def test_parses(text: str, expected: object) -> None:
    assert parse(text) == expected


ERRORS = [
    # (text, words the one-line message must contain, usage of)
    ("pr abc", ["not a PR number: 'abc'"], "pr"),
    ("pr 0", ["PR numbers start at 1"], "pr"),
    ("pr -3", ["not a PR number"], "pr"),
    ("pr 99999999999", ["too large"], "pr"),
    ("pr", ["which PR?"], "pr"),
    ("pr 1 2", ["one PR at a time"], "pr"),
    ("pr https://gitlab.com/a/b/-/merge_requests/1", ["not a GitHub pull-request URL"], "pr"),
    ("pr https://github.com/vllm-project/vllm/issues/5", ["not a GitHub pull-request URL"], "pr"),
    ("subscibe moe", ["unknown command 'subscibe'", "did you mean 'subscribe'?"], None),
    ("digets", ["did you mean 'digest'?"], None),
    ("frobnicate", ["unknown command 'frobnicate'", "accepted: pr, digest"], None),
    ("digest lsat", ["unknown digest argument 'lsat'", "did you mean 'last'?"], "digest"),
    ("digest pots", ["did you mean 'post'?"], "digest"),
    ("digest this last", ["one week at a time"], "digest"),
    ("digest 2026-W60", ["no ISO week"], "digest"),
    ("digest post post", ["'post' given twice"], "digest"),
    ("subscribe", ["which modules?"], "subscribe"),
    ("subscribe label:x", ["which modules?"], "subscribe"),
    ("subscribe moe lable:x", ["unknown filter 'lable:'", "did you mean 'label:'?"], "subscribe"),
    ("subscribe moe label:", ["needs a value", "label:ready"], "subscribe"),
    ("subscribe moe min:high", ["'min:high' is not a number"], "subscribe"),
    ("subscribe moe min:11", ["out of range"], "subscribe"),
    ("subscribe moe -min:3", ["'min:' cannot be negated"], "subscribe"),
    ("subscribe moe min:3 min:4", ["'min:' given twice"], "subscribe"),
    ("subscribe moe flag:core-paths", ["unknown flag", "did you mean 'core-path'?"], "subscribe"),
    ("subscribe moe lang:fr", ["unknown language 'fr'", "en, zh"], "subscribe"),
    ("subscribe moe -lang:zh", ["cannot be negated"], "subscribe"),
    ("subscribe -moe", ["only filters can be negated"], "subscribe"),
    ("subscribe moe label:x -label:x", ["both required and excluded"], "subscribe"),
    ("subscribe moe path:re:([", ["bad regular expression"], "subscribe"),
    ('subscribe moe label:"open', ["unbalanced quotes"], None),
    ("unsubscribe", ["unsubscribe from what?"], "unsubscribe"),
    ("unsubscribe moe rocm", ["one target at a time"], "unsubscribe"),
    ("modules all", ["'modules' takes no arguments"], "modules"),
    ("subscriptions x", ["takes no arguments"], "subscriptions"),
    ("help prr", ["no command 'prr'", "did you mean 'pr'?"], "help"),
]


@pytest.mark.parametrize(("text", "words", "usage_of"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_are_one_line_plus_usage(text: str, words: list[str], usage_of: str | None) -> None:
    with pytest.raises(CommandError) as info:
        parse(text)
    message, usage = str(info.value).split("\n")
    for word in words:
        assert word in message
    expected = USAGE[usage_of] if usage_of else "/vllm pr|digest|subscribe"
    assert usage.startswith("usage: " + expected)
    assert info.value.exit_code == 2


def test_no_suggestion_when_nothing_is_close() -> None:
    with pytest.raises(CommandError) as info:
        parse("xyzzy")
    assert "did you mean" not in str(info.value)


def test_filters_describe_round_trips() -> None:
    text = "subscribe moe label:ready -label:ci 'path:docs/**' min:7 flag:core-path lang:zh"
    command = parse(text)
    assert isinstance(command, SubscribeCommand)
    again = parse("subscribe moe " + command.filters.describe())
    assert again == command


@given(st.text(max_size=80))
def test_parse_never_fails_unexpectedly(text: str) -> None:
    # Any input is either a command or a CommandError with a usage line; never a crash.
    try:
        parse(text)
    except CommandError as exc:
        assert "\nusage: /vllm" in str(exc)


@given(st.integers(min_value=1, max_value=2**31 - 1))
def test_any_valid_number_is_a_pr(number: int) -> None:
    assert parse(f"pr {number}") == PrCommand(number)
    assert parse(f"pr https://github.com/o/r/pull/{number}") == PrCommand(number, "o/r")


def test_invisible_characters_copied_from_a_message_are_ignored() -> None:
    # A command copied out of a rendered digest carries zero-width spaces.
    assert parse("/vllm pr 30001\u200b") == parse("/vllm pr 30001")
    assert parse("\u200b/vllm subscribe rocm\u200b") == parse("/vllm subscribe rocm")
