"""The alerts runtime's default sender, wired to the real posters of `App`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import App
from bot.core.config import Environment, load_config
from bot.core.document import Document, Section
from bot.core.errors import BotError
from bot.core.filters import SubscriptionFilters
from bot.discord.endpoints import DiscordEndpoints, override_endpoints
from bot.store import Store
from tests.fakes.discord import FakeDiscord
from tests.fakes.slack import FakeSlack

from .conftest import make_pr


@pytest.fixture
async def discord_fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server
    assert server.violations == [], f"rate limits broken: {server.violations}"


def alert_card_document() -> Document:
    return Document(
        id="alert:test",
        title="t",
        context="",
        sections=(Section(id="s", title="s", blocks=()),),
        fallback="t",
    )


async def services_for(tmp_path: Path, **env: str) -> App:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    return App(config=load_config(), env=Environment(**env), store=store)


async def test_a_discord_subscription_gets_its_alert(
    tmp_path: Path, discord_fake: FakeDiscord
) -> None:
    channel = discord_fake.add_channel().id
    # Only DISCORD_API_URL, as a user of a local fake sets it; restored after the test.
    with override_endpoints(DiscordEndpoints()):
        services = await services_for(
            tmp_path, discord_bot_token=discord_fake.token, discord_api_url=discord_fake.api_url
        )
        try:
            alerts = services.alerts()
            await alerts.subscriptions.subscribe(
                platform="discord",
                channel=str(channel),
                user=None,
                modules=["attention"],
                filters=SubscriptionFilters(),
            )
            pr = make_pr(42, merged_at=datetime.now(UTC) + timedelta(seconds=1))
            result = await alerts.pipeline.submit([pr], source="poll")
        finally:
            await services.close()

    assert (result.matched, result.queued) == (1, 1)
    (message,) = discord_fake.channel_messages(channel)
    assert message.source == "bot"
    assert "/pull/42" in repr(message.body)
    assert message.body["allowed_mentions"] == {"parse": []}


async def test_without_a_discord_token_there_is_no_discord_poster(tmp_path: Path) -> None:
    services = await services_for(tmp_path)
    try:
        alerts = services.alerts()
        assert "DISCORD_BOT_TOKEN" in (alerts.sender.platforms["discord"].available() or "")
        # The alert fails (and is retried later) without logging in anywhere.
        with pytest.raises(BotError, match="no discord connection"):
            await alerts.sender("discord", "1234567890123456789", alert_card_document())
        assert services._discord_poster is None
    finally:
        await services.close()


async def test_alerts_digests_and_commands_share_one_slack_poster(tmp_path: Path) -> None:
    from bot.slack.app import build_slack_bot

    async with FakeSlack() as slack:
        services = await services_for(
            tmp_path, slack_bot_token=slack.token, slack_api_url=slack.api_url
        )
        try:
            shared = services.slack_poster()
            alerts = services.alerts()
            # One pacing table for the channel, whoever posts: 1 message/second/channel.
            slack.channels["C1"] = True
            await alerts.sender.platforms["slack"].post_message("C1", "hello")
            assert [m.text for m in slack.channel_messages("C1")] == ["hello"]
            assert services.slack_poster() is shared
            assert build_slack_bot(services).poster is shared
        finally:
            await services.close()
