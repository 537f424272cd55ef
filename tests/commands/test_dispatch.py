"""`dispatch` / `cached_reply`: answers, errors as one clear line, never a traceback; on the
real backend, a throwaway store and the fake GitHub."""

from __future__ import annotations

import logging

import pytest

import bot.cards
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
from tests.commands.fakes import REPO, bench_context, make_pr
from tests.fakes.backend import Bench


async def test_pr_card_from_cache_without_network(bench: Bench) -> None:
    await bench.add(make_pr(42121), cached=True)
    reply = await cached_reply(parse("pr 42121"), bench_context(bench))
    assert reply is not None and reply.ok and reply.ephemeral and not reply.post_to_channel
    assert reply.document is not None and reply.document.title.startswith("#42121 ")
    assert bench.github.requests() == []


async def test_uncached_pr_needs_dispatch_which_fetches(bench: Bench) -> None:
    await bench.add(make_pr(42121), cached=False)
    ctx = bench_context(bench)
    assert await cached_reply(parse("pr 42121"), ctx) is None
    assert bench.github.requests() == []
    reply = await dispatch(parse("pr 42121"), ctx)
    assert reply.ok and reply.document is not None
    assert bench.fetches() == [(REPO, 42121)]
    # Now stored: the next ask is answered in the acknowledgement.
    assert await cached_reply(parse("pr 42121"), ctx) is not None


async def test_pr_url_of_watched_repo_uses_configured_spelling(bench: Bench) -> None:
    await bench.add(make_pr(5), cached=False)
    reply = await dispatch(
        parse("pr https://github.com/VLLM-Project/vLLM/pull/5"), bench_context(bench)
    )
    assert reply.ok
    assert bench.fetches() == [(REPO, 5)]


async def test_pr_not_found_on_github(bench: Bench) -> None:
    reply = await dispatch(parse("pr 99999999"), bench_context(bench))
    assert not reply.ok
    assert reply.text.splitlines() == [
        f"no pull request #99999999 in {REPO} (GitHub has none with that number)",
        "usage: /vllm pr <number|url>",
    ]


async def test_pr_of_unwatched_repo_is_refused_before_any_lookup(bench: Bench) -> None:
    command = parse("pr https://github.com/foo/bar/pull/1")
    for reply in (
        await cached_reply(command, bench_context(bench)),
        await dispatch(command, bench_context(bench)),
    ):
        assert reply is not None and not reply.ok
        assert reply.text.startswith(f"foo/bar is not watched by this bot (it follows {REPO})")
    assert bench.github.requests() == []


async def test_github_down_is_one_line_with_the_reason(bench: Bench) -> None:
    bench.github.inject(status=502, message="Bad Gateway")
    reply = await dispatch(parse("pr 1"), bench_context(bench))
    assert not reply.ok
    assert reply.text == (
        "GitHub is unavailable, try again in a minute "
        "(GitHub unavailable after 1 attempts: GitHub answered 502 Bad Gateway)"
    )


async def test_github_rate_limit_is_one_line_with_the_reset(bench: Bench) -> None:
    bench.github.budgets["graphql"].remaining = 0
    reply = await dispatch(parse("pr 1"), bench_context(bench))
    assert not reply.ok
    assert reply.text.startswith("GitHub's rate limit is used up, try again after ")
    assert "(GitHub graphql rate limit exhausted (0 of 5000 requests left)" in reply.text


async def test_a_rejected_token_is_one_line_for_an_admin(bench: Bench) -> None:
    bench.github.token = "ghp_another_token"  # the bot's token is no longer GitHub's
    reply = await dispatch(parse("pr 1"), bench_context(bench))
    assert not reply.ok
    assert reply.text.startswith("GitHub rejected the bot's token (GitHub rejected the token")
    assert reply.text.endswith("; an admin needs to check GITHUB_TOKEN")


async def test_unexpected_error_is_an_apology_and_logged(
    bench: Bench, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_card(*args: object) -> None:
        raise KeyError("secret internals")

    # A bug in rendering the card: nothing a store or GitHub can be made to do.
    monkeypatch.setattr(bot.cards, "pr_card", broken_card)
    await bench.add(make_pr(3), cached=True)
    ctx = bench_context(bench)
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


async def test_digest_week_is_validated_fast_and_built_on_dispatch(bench: Bench) -> None:
    await bench.add(make_pr(42121), cached=False)
    ctx = bench_context(bench)
    assert await cached_reply(parse("digest 2026-W23"), ctx) is None
    assert bench.github.requests() == []
    reply = await dispatch(parse("digest 2026-W23"), ctx)
    assert reply.ok and reply.ephemeral and not reply.post_to_channel
    assert reply.document is not None
    assert (reply.document.meta["repo"], reply.document.meta["week"]) == (REPO, "2026-W23")
    assert "#42121" in reply.document.fallback + str(reply.document.sections)
    reply = await dispatch(parse("digest last post"), ctx)
    assert reply.post_to_channel and not reply.ephemeral
    assert reply.text == "posting the 2026-W23 digest in this channel"


async def test_future_week_answered_in_the_ack(bench: Bench) -> None:
    reply = await cached_reply(parse("digest 2027-W01"), bench_context(bench))
    assert reply is not None and not reply.ok
    assert "2027-W01 is in the future" in reply.text
    assert reply.text.endswith("usage: " + USAGE["digest"])


async def test_help_and_modules_are_immediate(bench: Bench) -> None:
    ctx = bench_context(bench)
    help_reply = await cached_reply(parse("help"), ctx)
    assert help_reply is not None and "/vllm subscribe <module...>" in help_reply.text
    modules = await cached_reply(parse("modules"), ctx)
    assert modules is not None and modules.document is not None
    assert "spec-decode" in modules.text
    assert bench.github.requests() == []


async def test_subscriptions_without_a_service(bench: Bench) -> None:
    for text in ("subscriptions", "subscribe moe", "unsubscribe all"):
        reply = await cached_reply(parse(text), bench_context(bench))
        assert reply is not None and reply.text == NOT_AVAILABLE


async def test_subscription_round_trip_with_names_and_ids(bench: Bench) -> None:
    ctx = bench_context(bench, subscriptions=True)
    reply = await dispatch(parse('subscribe "Mixture of Experts" rocm min:7 -label:ci'), ctx)
    assert reply.ok and not reply.ephemeral
    assert reply.text == "subscribed this channel: #1: moe, rocm  -label:ci min:7"
    listing = await dispatch(parse("subscriptions"), ctx)
    assert listing.text == "1 subscription in this channel:\n• #1: moe, rocm  -label:ci min:7"
    # Another channel sees nothing.
    other = await dispatch(
        parse("subscriptions"), bench_context(bench, subscriptions=True, channel="C2")
    )
    assert other.text.startswith("this channel has no subscriptions")
    removed = await dispatch(parse("unsubscribe 推测解码"), ctx)
    assert not removed.ok and removed.text.startswith(
        "this channel has no subscription to spec-decode"
    )
    # A module of a two-module subscription narrows it; it is not a removal.
    narrowed = await dispatch(parse("unsubscribe moe"), ctx)
    assert narrowed.text == "subscription #1 no longer includes moe; it still follows rocm"
    removed = await dispatch(parse("unsubscribe all"), ctx)
    assert removed.text == "removed 1 subscription from this channel"


async def test_unknown_module_gets_a_suggestion(bench: Bench) -> None:
    ctx = bench_context(bench, subscriptions=True)
    reply = await dispatch(parse("subscribe atention"), ctx)
    assert reply.text.splitlines()[0] == (
        "unknown module 'atention'; did you mean 'attention'? (/vllm modules lists them)"
    )
    reply = await dispatch(parse("unsubscribe kvcahce"), ctx)
    assert "did you mean 'kv-cache'?" in reply.text


async def test_module_words_are_read_as_the_cli_reads_them(bench: Bench) -> None:
    # One resolver for `vllm-bot digest --module` and the chat: case, spaces, dashes and
    # underscores do not matter.
    reply = await dispatch(parse("subscribe kv_cache"), bench_context(bench, subscriptions=True))
    assert reply.ok, reply.text
    stored = await bench.app.subscriptions.list(platform="slack", channel="C1")
    assert [s.modules for s in stored] == [("kv-cache",)]


async def test_quick_reply_and_handle(bench: Bench) -> None:
    ctx = bench_context(bench)
    command, reply = await quick_reply("pr abc", ctx)
    assert command is None and reply is not None and not reply.ok
    command, reply = await quick_reply("pr 12", ctx)
    assert command == PrCommand(12) and reply is None
    assert progress_text(command) == "looking up #12…"
    assert (await handle("subscibe moe", ctx)).text.startswith("unknown command 'subscibe'")


async def test_exit_codes_tell_bad_input_from_failures(bench: Bench) -> None:
    bench.github.inject(status=503, times=float("inf"))
    failed = await dispatch(parse("pr 42121"), bench_context(bench))
    assert (failed.ok, failed.exit_code) == (False, 1)
    bad = await handle("pr abc", bench_context(bench))
    assert (bad.ok, bad.exit_code) == (False, 2)
    fine = await handle("help", bench_context(bench))
    assert fine.exit_code == 0


async def test_subscriptions_need_a_chat_channel(bench: Bench) -> None:
    reply = await handle("subscribe rocm", bench_context(bench, platform="cli", subscriptions=True))
    assert reply.exit_code == 2 and "--channel slack:" in reply.text
    assert await bench.app.subscriptions.list(platform="cli", channel="C1") == []


async def test_module_names_may_span_words(bench: Bench) -> None:
    ctx = bench_context(bench, subscriptions=True)
    names = {m.id: m.name_en for m in await ctx.backend.modules(ctx.default_repo)}
    multi = next((i, n) for i, n in names.items() if len(n.split()) > 1 and i != "rocm")
    reply = await handle(f"subscribe {multi[1]} rocm", ctx)
    assert reply.ok, reply.text
    stored = await bench.app.subscriptions.list(platform="slack", channel="C1")
    assert stored[-1].modules == (multi[0], "rocm")
