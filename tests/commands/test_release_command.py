"""`/vllm release [TAG] [post]` through the one command layer, on the real backend over a
throwaway store and the fake GitHub."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.commands import cached_reply, dispatch
from bot.commands.registry import build, is_public, parse
from bot.commands.syntax import CommandError, ReleaseCommand
from tests.commands.fakes import REPO, bench_context
from tests.fakes.backend import Bench
from tests.fakes.github import FakeTag
from tests.releases.helpers import merged, squash


def test_the_text_and_the_typed_forms_parse_alike():
    assert parse("/vllm release") == ReleaseCommand(None, False)
    assert parse("release v0.21.0rc1 post") == ReleaseCommand("v0.21.0rc1", True)
    assert build("release", {"tag": "v0.21.0rc1", "post": True}) == parse("release v0.21.0rc1 post")
    assert is_public(parse("release v0.21.0rc1 post")) and not is_public(parse("release"))


def test_two_tags_are_one_clear_error_with_the_usage():
    with pytest.raises(CommandError) as caught:
        parse("release v1 v2")
    text = str(caught.value)
    assert "one tag" in text and "/vllm release [tag] [post]" in text


def two_releases(bench: Bench) -> None:
    """v0.20.2rc1 holds two merged PRs; v0.21.0rc1 two more."""
    start = datetime(2026, 6, 1, tzinfo=UTC)
    prs = [
        merged(9000 + i, f"[BugFix] Fix DeepSeek V4 {i}", start + timedelta(hours=i), "vllm/x.py")
        for i in range(4)
    ]
    commits = [squash(pr) for pr in prs]
    bench.github.repos[REPO] = prs
    bench.github.tags[REPO] = [FakeTag("v0.20.2rc1", commits[:2]), FakeTag("v0.21.0rc1", commits)]


async def test_the_card_is_private_and_post_posts_the_notes_publicly(bench: Bench):
    two_releases(bench)
    ctx = bench_context(bench)
    assert await cached_reply(parse("release v0.21.0rc1"), ctx) is None  # needs GitHub
    assert bench.github.requests() == []
    card = await dispatch(parse("release v0.21.0rc1"), ctx)
    assert card.ok and card.ephemeral and not card.post_to_channel
    assert card.text == "vllm v0.21.0rc1: 2 PRs"
    assert card.document is not None and card.document.id.startswith("release-card:")
    posted = await dispatch(parse("release v0.21.0rc1 post"), ctx)
    assert posted.post_to_channel and not posted.ephemeral
    assert posted.document is not None and posted.document.id.startswith("release:")
    assert posted.document.meta == {"language": "en", "kind": "release", "tag": "v0.21.0rc1"}
    assert posted.text == "posting the v0.21.0rc1 release notes in this channel…"
    compared = f"/repos/{REPO}/compare/v0.20.2rc1...v0.21.0rc1"
    assert [r.path for r in bench.github.requests("compare")] == [compared, compared]


async def test_an_unknown_tag_is_one_line_for_the_user(bench: Bench):
    two_releases(bench)
    reply = await dispatch(parse("release v9.9"), bench_context(bench))
    assert not reply.ok and "Traceback" not in reply.text
    assert reply.text.startswith(f"{REPO} has no tag 'v9.9'; newest tags: v0.21.0rc1, v0.20.2rc1")


async def test_subscribe_releases_needs_no_module(bench: Bench):
    ctx = bench_context(bench, subscriptions=True)
    reply = await dispatch(parse("subscribe releases"), ctx)
    assert reply.ok and not reply.ephemeral
    assert reply.text.startswith("subscribed this channel to release notes: #1: releases")
    stored = await bench.app.subscriptions.list(platform="slack", channel="C1")
    assert [info.releases for info in stored] == [True]


async def test_a_release_subscription_is_unsubscribed_by_name(bench: Bench):
    ctx = bench_context(bench, subscriptions=True)
    assert (await dispatch(parse("subscribe releases"), ctx)).ok
    gone = await dispatch(parse("unsubscribe releases"), ctx)
    assert gone.ok, gone.text
    assert await bench.app.subscriptions.list(platform="slack", channel="C1") == []
