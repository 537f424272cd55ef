"""The chart as a Discord attachment, through discord.py against the fake (multipart form)."""

from __future__ import annotations

from discord.http import HTTPClient

from bot.discord.poster import DiscordPoster
from bot.store import Store
from formatters.discord import discord_thread_name, render_discord
from tests.commands.fakes import digest_document
from tests.fakes.discord import FakeDiscord

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40


async def test_the_chart_is_attached_in_the_digest_thread_with_alt_text(
    fake: FakeDiscord, http: HTTPClient, store: Store
) -> None:
    channel = fake.add_channel().id
    doc = digest_document("2026-W23")
    poster = DiscordPoster(http)
    result = await poster.post_document(
        store.deliveries,
        document_id=doc.id,
        channel=str(channel),
        payloads=render_discord(doc),
        thread_name=discord_thread_name(doc),
    )
    thread = result.thread_id  # type: ignore[attr-defined]
    assert thread is not None
    sent = await poster.send_file(
        str(thread), PNG, filename="trends.png", alt_text="Merged PRs per week: 1, 2, 3"
    )
    (message,) = [m for m in fake.channel_messages(int(thread)) if m.files]
    assert str(message.id) == sent.message_id
    (attachment,) = message.files
    assert attachment["data"] == PNG and attachment["filename"] == "trends.png"
    assert attachment["description"] == "Merged PRs per week: 1, 2, 3"
    assert message.body["allowed_mentions"] == {"parse": []}


async def test_alt_text_is_cut_to_discords_limit(fake: FakeDiscord, http: HTTPClient) -> None:
    channel = fake.add_channel().id
    await DiscordPoster(http).send_file(str(channel), PNG, filename="t.png", alt_text="x" * 3000)
    (message,) = fake.channel_messages(channel)
    assert len(message.files[0]["description"]) == 1024
