"""Slack Socket Mode entry point for `serve` (SLACK_APP_TOKEN, an xapp-… app-level token)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from bot.errors import ConfigError
from bot.slack.app import SlackBot, build_slack_bot

if TYPE_CHECKING:
    from bot.app import App

log = logging.getLogger(__name__)


class SlackSocketMode:
    """`start()` connects, `close()` finishes pending answers (bounded) and disconnects."""

    def __init__(self, bot: SlackBot, app_token: str, *, drain_seconds: float = 10.0) -> None:
        self.bot = bot
        self.app_token = app_token
        self.drain_seconds = drain_seconds
        self.handler: Any = None

    async def start(self) -> None:
        # Lazy: slack-bolt's socket-mode handler (aiohttp client) loads only when socket mode
        # starts.
        from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

        self.handler = AsyncSocketModeHandler(self.bot.app, self.app_token)
        await self.handler.connect_async()

    def is_connected(self) -> bool:
        client = getattr(self.handler, "client", None)
        session = getattr(client, "current_session", None)
        return bool(client is not None and not client.closed and session and not session.closed)

    async def close(self) -> None:
        try:
            async with asyncio.timeout(self.drain_seconds):
                await self.bot.drain()
        except TimeoutError:
            log.warning("Slack: answers still pending after %.0fs; closing", self.drain_seconds)
        if self.handler is not None:
            await self.handler.close_async()


def socket_mode(services: App) -> SlackSocketMode:
    """`(services) -> obj` with start/close/is_connected (see bot.runtime.integrations)."""
    token = services.env.slack_app_token
    if token is None or not token.get_secret_value():
        raise ConfigError(
            "slack.mode is 'socket' but SLACK_APP_TOKEN is not set: create an app-level token "
            "with the connections:write scope (docs/slack.md), or set slack.mode = 'http'"
        )
    return SlackSocketMode(build_slack_bot(services), token.get_secret_value())


async def start_socket_mode(bot: SlackBot, app_token: str) -> SlackSocketMode:
    """Connect over Socket Mode (SLACK_APP_TOKEN, xapp-…); `await runner.close()` to stop."""
    runner = SlackSocketMode(bot, app_token)
    await runner.start()
    return runner
