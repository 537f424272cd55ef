"""Slack Socket Mode entry point for `serve` (SLACK_APP_TOKEN, an xapp-… app-level token)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.core.errors import ConfigError
from bot.probes import Probe
from bot.slack import NAME
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
        # slack-bolt's AsyncSocketModeHandler: its connect and close are untyped.
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
    """The Socket Mode connection of `services`' own Slack bot (not yet connected)."""
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


class SlackSocket:
    """`serve`'s Socket Mode component: every instance may hold a connection; Slack hands
    each event to one of them, so no leader is needed."""

    name = NAME
    leader_only = False

    def __init__(
        self, services: App, factory: Callable[[App], SlackSocketMode] = socket_mode
    ) -> None:
        self.services = services
        self.factory = factory
        self.runner: SlackSocketMode | None = None

    async def start(self) -> None:
        self.runner = self.factory(self.services)
        await self.runner.start()
        log.info("Slack: Socket Mode connected", extra={"event": "platform", "platform": NAME})

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.close()

    def stop_accepting(self) -> None:
        if self.runner is not None:
            self.runner.bot.stop_accepting()

    def in_flight(self) -> dict[asyncio.Task[object], str]:
        return self.runner.bot.in_flight() if self.runner is not None else {}

    def ready(self) -> Probe | None:
        if self.runner is None:
            return None
        connected = self.runner.is_connected()
        return Probe(NAME, connected, "socket connected" if connected else "not connected")
