"""`dispatch` / `cached_reply`: answers, errors as one clear line, never a traceback."""

from __future__ import annotations

import logging

import pytest

from bot.commands import (
    NOT_AVAILABLE,
    USAGE,
    PrCommand,
    cached_reply,
    dispatch,
    handle,
    parse,
    progress_text,
    quick_reply,
)
from bot.core.errors import GitHubAuthError, GitHubUnavailable, RateLimitExhausted
from tests.commands.fakes import REPO, FakeBackend, FakeSubscriptions, context, make_pr


async def test_pr_card_from_cache_without_network() -> None:
    backend = FakeBackend()
    backend.add(make_pr(42121), cached=True)
    reply = await cached_reply(parse("pr 42121"), context(backend))
    assert reply is not None and reply.ok and reply.ephemeral and not reply.post_to_channel
    assert reply.document is not None and reply.document.title.startswith("#42121 ")
    assert backend.fetches == []


async def test_uncached_pr_needs_dispatch_which_fetches() -> None:
    backend = FakeBackend()
    backend.add(make_pr(42121), cached=False)
    ctx = context(backend)
    assert await cached_reply(parse("pr 42121"), ctx) is None
    assert backend.fetches == []
    reply = await dispatch(parse("pr 42121"), ctx)
    assert reply.ok and reply.document is not None
    assert backend.fetches == [(REPO, 42121)]
    # Now cached: the next ask is answered in the acknowledgement.
    assert await cached_reply(parse("pr 42121"), ctx) is not None


async def test_pr_url_of_watched_repo_uses_configured_spelling() -> None:
    backend = FakeBackend()
    backend.add(make_pr(5), cached=False)
    reply = await dispatch(
        parse("pr https://github.com/VLLM-Project/vLLM/pull/5"), context(backend)
    )
    assert reply.ok
    assert backend.fetches == [(REPO, 5)]


async def test_pr_not_found_on_github() -> None:
    reply = await dispatch(parse("pr 99999999"), context(FakeBackend()))
    assert not reply.ok
    assert reply.text.splitlines() == [
        f"no pull request #99999999 in {REPO} (GitHub has none with that number)",
        "usage: /vllm pr <number|url>",
    ]


async def test_pr_of_unwatched_repo_is_refused_before_any_lookup() -> None:
    backend = FakeBackend()
    command = parse("pr https://github.com/foo/bar/pull/1")
    for reply in (
        await cached_reply(command, context(backend)),
        await dispatch(command, context(backend)),
    ):
        assert reply is not None and not reply.ok
        assert reply.text.startswith(f"foo/bar is not watched by this bot (it follows {REPO})")
    assert backend.fetches == []


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (
            GitHubUnavailable("502 Bad Gateway after 5 attempts"),
            "GitHub is unavailable, try again in a minute (502 Bad Gateway after 5 attempts)",
        ),
        (
            RateLimitExhausted("primary rate limit", reset_at=1_780_000_000),
            "GitHub's rate limit is used up, try again after 20:26 UTC (primary rate limit)",
        ),
        (
            GitHubAuthError("401 Bad credentials"),
            "GitHub rejected the bot's token (401 Bad credentials); an admin needs to check "
            "GITHUB_TOKEN",
        ),
    ],
)
async def test_github_trouble_is_one_line_with_the_reason(error: Exception, expected: str) -> None:
    backend = FakeBackend(fetch_error=error)
    reply = await dispatch(parse("pr 1"), context(backend))
    assert not reply.ok
    assert reply.text == expected


async def test_unexpected_error_is_an_apology_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    backend = FakeBackend(card_error=KeyError("secret internals"))
    backend.add(make_pr(3), cached=True)
    ctx = context(backend)
    with caplog.at_level(logging.DEBUG, logger="bot.commands"):
        # The ack path gives up quietly so the slow path can try again.
        assert await cached_reply(parse("pr 3"), ctx) is None
        reply = await dispatch(parse("pr 3"), ctx)
    assert not reply.ok
    assert reply.text.startswith("Sorry, something went wrong on our side (error id ")
    assert "secret internals" not in reply.text and "Traceback" not in reply.text
    error_id = reply.text.split("error id ")[1][:8]
    logged = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(logged) == 1 and error_id in logged[0].getMessage()
    assert logged[0].exc_info is not None  # the traceback goes to the log only


async def test_digest_week_is_validated_fast_and_built_on_dispatch() -> None:
    backend = FakeBackend()
    ctx = context(backend)
    assert await cached_reply(parse("digest 2026-W23"), ctx) is None
    reply = await dispatch(parse("digest 2026-W23"), ctx)
    assert reply.ok and reply.ephemeral and not reply.post_to_channel
    assert backend.digests == [(REPO, "2026-W23", "en")]
    reply = await dispatch(parse("digest last post"), ctx)
    assert reply.post_to_channel and not reply.ephemeral
    assert reply.text == "posting the 2026-W23 digest in this channel"


async def test_future_week_answered_in_the_ack() -> None:
    reply = await cached_reply(parse("digest 2027-W01"), context())
    assert reply is not None and not reply.ok
    assert "2027-W01 is in the future" in reply.text
    assert reply.text.endswith("usage: " + USAGE["digest"])


async def test_help_and_modules_are_immediate() -> None:
    ctx = context()
    help_reply = await cached_reply(parse("help"), ctx)
    assert help_reply is not None and "/vllm subscribe <module...>" in help_reply.text
    modules = await cached_reply(parse("modules"), ctx)
    assert modules is not None and modules.document is not None
    assert "spec-decode" in modules.text


async def test_subscriptions_without_a_service() -> None:
    for text in ("subscriptions", "subscribe moe", "unsubscribe all"):
        reply = await cached_reply(parse(text), context())
        assert reply is not None and reply.text == NOT_AVAILABLE


async def test_subscription_round_trip_with_names_and_ids() -> None:
    subs = FakeSubscriptions()
    ctx = context(subscriptions=subs)
    reply = await dispatch(parse('subscribe "Mixture of Experts" rocm min:7 -label:ci'), ctx)
    assert reply.ok and not reply.ephemeral
    assert reply.text == "subscribed this channel: #1: moe, rocm  -label:ci min:7"
    listing = await dispatch(parse("subscriptions"), ctx)
    assert listing.text == "1 subscription in this channel:\n• #1: moe, rocm  -label:ci min:7"
    # Another channel sees nothing.
    other = await dispatch(parse("subscriptions"), context(subscriptions=subs, channel="C2"))
    assert other.text.startswith("this channel has no subscriptions")
    removed = await dispatch(parse("unsubscribe 推测解码"), ctx)
    assert not removed.ok and removed.text.startswith(
        "this channel has no subscription to spec-decode"
    )
    removed = await dispatch(parse("unsubscribe moe"), ctx)
    assert removed.text == "removed 1 subscription from this channel"


async def test_unknown_module_gets_a_suggestion() -> None:
    reply = await dispatch(parse("subscribe atention"), context(subscriptions=FakeSubscriptions()))
    assert reply.text.splitlines()[0] == (
        "unknown module 'atention'; did you mean 'attention'? (/vllm modules lists them)"
    )
    reply = await dispatch(parse("unsubscribe kvcahce"), context(subscriptions=FakeSubscriptions()))
    assert "did you mean 'kv-cache'?" in reply.text


async def test_module_words_are_read_as_the_cli_reads_them() -> None:
    # One resolver for `vllm-bot digest --module` and the chat: case, spaces, dashes and
    # underscores do not matter.
    subscriptions = FakeSubscriptions()
    ctx = context(subscriptions=subscriptions)
    reply = await dispatch(parse("subscribe kv_cache"), ctx)
    assert reply.ok, reply.text
    assert [s.modules for _, _, s in subscriptions.items] == [("kv-cache",)]


async def test_quick_reply_and_handle() -> None:
    ctx = context()
    command, reply = await quick_reply("pr abc", ctx)
    assert command is None and reply is not None and not reply.ok
    command, reply = await quick_reply("pr 12", ctx)
    assert command == PrCommand(12) and reply is None
    assert progress_text(command) == "looking up #12…"
    assert (await handle("subscibe moe", ctx)).text.startswith("unknown command 'subscibe'")


async def test_exit_codes_tell_bad_input_from_failures() -> None:
    backend = FakeBackend()
    backend.fetch_error = GitHubUnavailable("cannot reach api.github.com")
    failed = await dispatch(parse("pr 42121"), context(backend))
    assert (failed.ok, failed.exit_code) == (False, 1)
    bad = await handle("pr abc", context(FakeBackend()))
    assert (bad.ok, bad.exit_code) == (False, 2)
    fine = await handle("help", context(FakeBackend()))
    assert fine.exit_code == 0


async def test_subscriptions_need_a_chat_channel() -> None:
    subs = FakeSubscriptions()
    reply = await handle("subscribe rocm", context(platform="cli", subscriptions=subs))
    assert reply.exit_code == 2 and "--channel slack:" in reply.text
    assert subs.items == []


async def test_module_names_may_span_words() -> None:
    subs = FakeSubscriptions()
    ctx = context(subscriptions=subs)
    names = {m.id: m.name_en for m in await ctx.backend.modules(ctx.default_repo)}
    multi = next((i, n) for i, n in names.items() if len(n.split()) > 1 and i != "rocm")
    reply = await handle(f"subscribe {multi[1]} rocm", ctx)
    assert reply.ok, reply.text
    assert subs.items[-1][2].modules == (multi[0], "rocm")
