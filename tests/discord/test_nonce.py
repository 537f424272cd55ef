"""Discord reconciliation: nonce + enforce_nonce de-duplicates a resend, and a takeover
finds a crashed run's message by reading the channel or thread."""

from __future__ import annotations

from discord.http import HTTPClient

from bot.discord.poster import DiscordPoster, part_nonce
from bot.store import Store
from bot.store.ledger import Outcome
from formatters.discord import discord_thread_name, render_discord
from tests.commands.fakes import digest_document
from tests.fakes.discord import FakeDiscord
from tests.fakes.processes import gone_owner


async def test_a_resend_with_the_same_nonce_returns_the_first_message(
    fake: FakeDiscord, http: HTTPClient
) -> None:
    channel = str(fake.add_channel().id)
    poster = DiscordPoster(http)
    nonce = part_nonce("digest:x", channel, 0)
    assert len(nonce) <= 25 and nonce == part_nonce("digest:x", channel, 0)
    assert nonce != part_nonce("digest:x", channel, 1) != part_nonce("digest:x", "2", 0)
    first = await poster.send_message(channel, {"content": "hello"}, nonce=nonce)
    again = await poster.send_message(channel, {"content": "hello"}, nonce=nonce)
    assert first["id"] == again["id"] and len(fake.channel_messages(int(channel))) == 1
    # Without enforce_nonce, or with another nonce, Discord creates a message.
    await poster.send_message(channel, {"content": "hello"}, nonce=part_nonce("y", channel, 0))
    assert len(fake.channel_messages(int(channel))) == 2


async def test_a_takeover_records_the_part_the_crashed_run_posted(
    fake: FakeDiscord, http: HTTPClient, store: Store
) -> None:
    channel = fake.add_channel().id
    doc = digest_document("2026-W23")
    payloads = render_discord(doc)
    poster = DiscordPoster(http)
    # The crashed run: the summary reached Discord, its ledger row stayed "claimed".
    posted = await poster.send_message(str(channel), payloads[0])
    crashed = gone_owner()
    claim = await store.deliveries.claim(doc.id, "discord", str(channel), 0, 3, owner=crashed)
    assert claim.outcome is Outcome.NEW

    result = await poster.post_document(
        store.deliveries,
        document_id=doc.id,
        channel=str(channel),
        payloads=payloads,
        thread_name=discord_thread_name(doc),
    )
    assert result.reconciled == [0] and result.complete
    assert result.root_id == posted["id"]
    assert len(fake.channel_messages(channel)) == 1  # no second summary
    assert len(fake.channel_messages(int(result.thread_id))) == len(payloads) - 1
