"""Slack Socket Mode entry point for `serve` (SLACK_APP_TOKEN, an xapp-… app-level token)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from slack_sdk.web.async_client import AsyncWebClient

from bot.core.errors import ConfigError
from bot.core.messages import Text
from bot.core.metrics import METRICS
from bot.probes import Probe
from bot.slack import NAME
from bot.slack.app import SlackBot, build_slack_bot

if TYPE_CHECKING:
    from bot.app import App

log = logging.getLogger(__name__)


class _QuietRetries(logging.Filter):
    """slack_sdk retries a failed connect by itself, logging a traceback every 10 s, and
    says "The current session (…) has been abandoned" after each attempt `SlackSocket`
    gives up; `SlackSocket` supervises the connection and logs one line per attempt
    instead, so the SDK's own lines about it are kept only at --debug."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message.startswith(("Failed to connect", "Failed to close the old")) or (
            message.startswith(("The current session", "The old session"))
            and "has been abandoned" in message
        ):
            return logging.getLogger().isEnabledFor(logging.DEBUG)
        return True


logging.getLogger("bot.slack.bolt").addFilter(_QuietRetries())


class SlackSocketMode:
    """`start()` connects, `close()` finishes pending answers (bounded) and disconnects."""

    def __init__(self, bot: SlackBot, app_token: str, *, drain_seconds: float = 10.0) -> None:
        self.bot = bot
        self.app_token = app_token
        self.drain_seconds = drain_seconds
        # slack-bolt's AsyncSocketModeHandler: its connect and close are untyped.
        self.handler: Any = None

    async def start(self) -> None:
        """One attempt: raises when Slack cannot be reached (the SDK would retry forever)."""
        # Lazy: slack-bolt's socket-mode handler (aiohttp client) loads only when socket mode
        # starts.
        from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

        await self.abandon()
        app_client = self.bot.app.client
        # apps.connections.open without slack_sdk's retries: this is one attempt, and
        # `SlackSocket` retries attempts (with backoff, /readyz and a metric); the SDK's
        # connection retries inside it would only delay the first failure by ~15 s.
        connect_client = AsyncWebClient(
            token=app_client.token,
            base_url=app_client.base_url,
            timeout=app_client.timeout,
            retry_handlers=[],
        )
        self.handler = AsyncSocketModeHandler(
            self.bot.app, self.app_token, web_client=connect_client
        )
        client = self.handler.client
        # The WebSocket URL first (apps.connections.open): when Slack is unreachable this
        # raises, where the SDK's connect would log and retry by itself.
        client.wss_uri = await client.issue_new_wss_url()
        await self.handler.connect_async()

    def is_connected(self) -> bool:
        client = getattr(self.handler, "client", None)
        session = getattr(client, "current_session", None)
        return bool(client is not None and not client.closed and session and not session.closed)

    async def abandon(self) -> None:
        """Drop the connection (or the attempt at one) without waiting for answers."""
        handler, self.handler = self.handler, None
        if handler is not None:
            with contextlib.suppress(Exception):
                await handler.close_async()

    async def close(self) -> None:
        try:
            async with asyncio.timeout(self.drain_seconds):
                await self.bot.drain()
        except TimeoutError:
            log.warning("Slack: answers still pending after %.0fs; closing", self.drain_seconds)
        await self.abandon()


def socket_mode(services: App) -> SlackSocketMode:
    """The Socket Mode connection of `services`' own Slack bot (not yet connected)."""
    token = services.env.slack_app_token
    if token is None or not token.get_secret_value():
        raise ConfigError(Text("error.slack.no_app_token"))
    return SlackSocketMode(build_slack_bot(services), token.get_secret_value())


class SlackSocket:
    """`serve`'s Socket Mode component: every instance may hold a connection; Slack hands
    each event to one of them, so no leader is needed.

    Reconnecting is slack_sdk's: once a session is up, its monitor replaces a session that
    drops or goes stale. What the SDK lacks is a first connection that can fail: its
    `connect()` retries forever, every 5 s, with a traceback each time and nothing a
    caller can see, so a bad app token or Slack being down at start would be invisible.
    So the first connection alone is made here, one bounded attempt at a time
    (`SlackSocketMode.start`), in a task of its own so Slack being down never holds up the
    scheduler, the webhooks or the other platforms. A failed attempt is one log line (the
    traceback at --debug), counted in `errors{kind="slack"}` and shown in /readyz; the
    next follows after a capped exponential backoff (`backoff` doubling up to
    `max_backoff`). `stop()` ends an attempt in progress at once.
    """

    name = NAME
    leader_only = False

    def __init__(
        self,
        services: App,
        factory: Callable[[App], SlackSocketMode] = socket_mode,
        *,
        backoff: float = 5.0,
        max_backoff: float = 300.0,
        attempt_timeout: float = 30.0,
    ) -> None:
        self.services = services
        self.factory = factory
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.attempt_timeout = attempt_timeout
        self.runner: SlackSocketMode | None = None
        self.task: asyncio.Task[None] | None = None
        self.failure: str | None = None
        self.attempts = 0
        self._stop = asyncio.Event()

    async def start(self) -> None:
        self.runner = self.factory(self.services)
        self._stop = asyncio.Event()
        self.failure = None
        self.task = asyncio.create_task(self._connect(self.runner), name="slack socket mode")

    def delay(self, failures: int) -> float:
        return min(self.backoff * 2.0 ** (failures - 1), self.max_backoff)

    async def _connect(self, runner: SlackSocketMode) -> None:
        failures = 0
        while not self._stop.is_set():
            self.attempts += 1
            try:
                async with asyncio.timeout(self.attempt_timeout):
                    await runner.start()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                delay = self.delay(failures)
                problem = f"{type(exc).__name__}: {exc}".rstrip(": ")
                self.failure = f"{problem}; retrying in {delay:.0f} s (attempt {failures})"
                METRICS.errors.inc(kind=NAME)
                log.error(
                    "Slack: Socket Mode cannot connect: %s",
                    self.failure,
                    exc_info=exc if log.isEnabledFor(logging.DEBUG) else None,
                    extra={"event": "platform", "platform": NAME, "outcome": "failed"},
                )
                await runner.abandon()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), delay)
                continue
            self.failure = None
            log.info("Slack: Socket Mode connected", extra={"event": "platform", "platform": NAME})
            # A session that was up is kept up (and reconnected) by the SDK itself.
            return

    async def stop(self) -> None:
        self._stop.set()
        if self.task is not None:
            if not self.task.done():
                self.task.cancel()  # an attempt in progress ends now
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
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
        if self.failure:
            return Probe(NAME, False, f"Socket Mode not connected: {self.failure}")
        connected = self.runner.is_connected()
        return Probe(NAME, connected, "socket connected" if connected else "connecting")
