"""`/vllm release [TAG] [post]` through the one command layer."""

from __future__ import annotations

import pytest

from bot.commands.registry import build, is_public, parse
from bot.commands.syntax import CommandError, ReleaseCommand


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


async def test_the_card_is_private_and_post_posts_the_notes_publicly():
    from bot.commands import cached_reply, dispatch
    from tests.commands.fakes import REPO, FakeBackend, context

    backend = FakeBackend()
    ctx = context(backend)
    assert await cached_reply(parse("release v0.21.0rc1"), ctx) is None  # needs GitHub
    card = await dispatch(parse("release v0.21.0rc1"), ctx)
    assert card.ok and card.ephemeral and not card.post_to_channel
    assert card.document is not None and card.document.id.endswith(":card")
    posted = await dispatch(parse("release v0.21.0rc1 post"), ctx)
    assert posted.post_to_channel and not posted.ephemeral
    assert posted.document is not None and posted.document.id.endswith(":notes")
    assert posted.text == "posting the v0.21.0rc1 release notes in this channel…"
    assert backend.calls == [
        ("release", REPO, "v0.21.0rc1", "en", True),
        ("release", REPO, "v0.21.0rc1", "en", False),
    ]


async def test_an_unknown_tag_is_one_line_for_the_user():
    from bot.commands import dispatch
    from tests.commands.fakes import FakeBackend, context

    reply = await dispatch(parse("release v9.9"), context(FakeBackend()))
    assert not reply.ok and "no tag 'v9.9'" in reply.text and "Traceback" not in reply.text


async def test_subscribe_releases_needs_no_module_and_unsubscribes_by_name():
    from bot.commands import dispatch
    from tests.commands.fakes import FakeBackend, FakeSubscriptions, context

    subs = FakeSubscriptions()
    ctx = context(FakeBackend(), subscriptions=subs)
    reply = await dispatch(parse("subscribe releases"), ctx)
    assert reply.ok and not reply.ephemeral
    assert reply.text.startswith("subscribed this channel to release notes: #1: releases")
    assert [info.releases for _, _, info in subs.items] == [True]
    gone = await dispatch(parse("unsubscribe releases"), ctx)
    assert gone.ok and subs.items == []
