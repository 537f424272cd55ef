"""The platform pieces `serve` mounts or starts, from the config and the environment.

| what | where | shape |
| --- | --- | --- |
| Slack HTTP events | `bot.slack.http:events_handler` | `(app) -> aiohttp handler` for POST /slack/events |
| Slack Socket Mode | `bot.slack.socket:socket_mode` | `(app) -> obj` with `async start()`, `async close()`, optional `is_connected()` |
| Discord | `bot.discord.client:create_client` | `(app) -> discord.Client` (started with DISCORD_BOT_TOKEN) |
| GitHub webhook | `bot.alerts.webhook:webhook_handler` | `(app) -> aiohttp handler` for POST /github/webhook |
| alert poller | `bot.alerts.wiring:poll_alerts` | `async (app) -> summary` |

slack-bolt and discord.py are hard dependencies, imported here as plain imports: only
`serve` imports this module, so the CLI's other commands never load them.

Work that must finish before shutdown (a command being answered, a webhook delivery being
processed, an alert flush) lives in the platform code. Anything offering `stop_accepting()`
and `in_flight() -> {task: name}` (see `bot.tasks.Work`) is drained by `serve`: a route
handler, the Slack bot behind Socket Mode, the Discord command handler.
"""  # noqa: E501

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.alerts.webhook import webhook_handler
from bot.alerts.wiring import poll_alerts
from bot.discord.client import create_client
from bot.runtime.metrics import METRICS
from bot.runtime.probes import Probe, secret
from bot.slack.http import events_handler
from bot.slack.socket import socket_mode
from bot.sync import sync_window
from bot.tasks import Work, is_work
from bot.weeks import parse_week

if TYPE_CHECKING:
    from bot.app import App

log = logging.getLogger("bot.serve")

Handler = Callable[[Any], Awaitable[Any]]


class Component(Protocol):
    name: str
    leader_only: bool

    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    def ready(self) -> Probe | None: ...


@dataclass
class Route:
    method: str
    path: str
    handler: Handler


@dataclass
class Integrations:
    routes: list[Route] = field(default_factory=list)
    components: list[Component] = field(default_factory=list)
    poll_alerts: Callable[[App], Awaitable[str]] | None = None
    # Extra `Work` to drain at shutdown (tests; platform pieces not found through routes
    # or components).
    work: list[Work] = field(default_factory=list)

    def all_work(self) -> list[Work]:
        """Everything shutdown drains: `work`, plus routes' handlers and components that
        are `Work` themselves."""
        found = [*self.work]
        for route in self.routes:
            work = route.handler if is_work(route.handler) else _work_of(route.handler)
            if work is not None:
                found.append(work)
        found += [c for c in self.components if is_work(c)]
        return found


def _work_of(handler: object) -> Work | None:
    """The `Work` behind a Slack handler: bot.slack.http hangs its SlackBot on it."""
    bot = getattr(handler, "bot", None)
    return bot if is_work(bot) else None


class SlackSocket:
    """Slack Socket Mode: every instance may hold a connection; Slack hands each event to
    one of them, so no leader is needed."""

    name = "slack"
    leader_only = False

    def __init__(self, services: App, factory: Callable[[App], Any]) -> None:
        self.services = services
        self.factory = factory
        self.handler: Any = None

    async def start(self) -> None:
        self.handler = self.factory(self.services)
        await self.handler.start()
        log.info("Slack: Socket Mode connected", extra={"event": "platform", "platform": "slack"})

    async def stop(self) -> None:
        if self.handler is not None:
            closer = getattr(self.handler, "close", None) or self.handler.stop
            await closer()

    def stop_accepting(self) -> None:
        bot = _work_of(self.handler)
        if bot is not None:
            bot.stop_accepting()

    def in_flight(self) -> dict[asyncio.Task[Any], str]:
        bot = _work_of(self.handler)
        return bot.in_flight() if bot is not None else {}

    def ready(self) -> Probe | None:
        connected = getattr(self.handler, "is_connected", None)
        if not callable(connected):
            return None
        result = connected()
        return Probe("slack", bool(result), "socket connected" if result else "not connected")


class DiscordGateway:
    """The Discord gateway runs on the scheduler leader only: two sessions of one bot
    would both receive every interaction and answer it twice.

    discord.py reconnects a session that was up, but a failure to get one (Discord or the
    network down at start, a reconnect that raises) ends `Client.start`. So the session is
    supervised: each failure is logged and counted, /readyz reports it, and a fresh client
    tries again after a capped exponential backoff (`backoff`, doubling up to
    `max_backoff`; a rejected token waits the maximum, retrying it fast cannot help).
    """

    name = "discord"
    leader_only = True

    def __init__(
        self,
        services: App,
        factory: Callable[[App], Any],
        *,
        backoff: float = 5.0,
        max_backoff: float = 300.0,
    ) -> None:
        self.services = services
        self.factory = factory
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.client: Any = None
        self.task: asyncio.Task[None] | None = None
        self.failure: str | None = None
        self.failures = 0
        self._stop = asyncio.Event()

    async def start(self) -> None:
        token = secret(self.services.env.discord_bot_token)
        assert token is not None  # checked by serve's preflight
        self.failure = None
        self.failures = 0
        self._stop = asyncio.Event()
        self.client = self.factory(self.services)
        self.task = asyncio.create_task(self._supervise(token), name="discord gateway")

    async def _supervise(self, token: str) -> None:
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                await self.client.start(token)
                if self._stop.is_set():
                    return
                problem, rejected = "the gateway closed", False
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._stop.is_set():
                    return
                problem, rejected = f"{type(exc).__name__}: {exc}", _is_login_failure(exc)
            # A session that stayed up longer than the longest wait was healthy: start the
            # backoff over rather than punishing a blip after days of uptime.
            if time.monotonic() - began > self.max_backoff:
                self.failures = 0
            self.failures += 1
            delay = self.max_backoff if rejected else self.delay(self.failures)
            self.failure = f"{problem}; retrying in {delay:.0f} s (attempt {self.failures})"
            METRICS.errors.inc(kind="discord")
            log.error(
                "Discord: gateway stopped: %s",
                self.failure,
                extra={"event": "platform", "platform": "discord", "outcome": "failed"},
            )
            with contextlib.suppress(Exception):
                await self.client.close()  # its HTTP session and half-open socket
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), delay)
            if self._stop.is_set():
                return
            # A closed discord.Client cannot be started again: a fresh one per attempt.
            self.client = self.factory(self.services)
            self.failure = None

    def delay(self, failures: int) -> float:
        return min(self.backoff * 2.0 ** (failures - 1), self.max_backoff)

    async def stop(self) -> None:
        self._stop.set()
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.close()
        if self.task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self.task, timeout=10)
        self.client = self.task = None

    def stop_accepting(self) -> None:
        handler = getattr(self.client, "handler", None)
        if is_work(handler):
            handler.stop_accepting()

    def in_flight(self) -> dict[asyncio.Task[Any], str]:
        handler = getattr(self.client, "handler", None)
        return handler.in_flight() if is_work(handler) else {}

    def ready(self) -> Probe | None:
        if self.client is None:
            return None  # a standby instance: the leader holds the gateway
        if self.failure:
            return Probe("discord", False, self.failure)
        is_ready = bool(self.client.is_ready())
        return Probe("discord", is_ready, "gateway ready" if is_ready else "connecting")


def _is_login_failure(exc: BaseException) -> bool:
    return isinstance(exc, discord.LoginFailure)


def discover(services: App) -> Integrations:
    """What this deployment runs, from the config and the environment."""
    found = Integrations()
    env, config = services.env, services.config
    if secret(env.slack_bot_token):
        if config.slack.mode == "http":
            found.routes.append(Route("POST", "/slack/events", events_handler(services)))
        else:
            found.components.append(SlackSocket(services, socket_mode))
    if secret(env.discord_bot_token):
        found.components.append(DiscordGateway(services, create_client))
    found.routes.append(Route("POST", "/github/webhook", webhook_handler(services)))
    found.poll_alerts = poll_alerts
    return found


async def periodic_sync(services: App) -> str:
    """Keep this ISO week of every configured repo fresh, so commands answer from the store."""
    lines = []
    for repo in services.config.repos:
        window = parse_week("this", services.config.tz, datetime.now(UTC))
        result = await sync_window(services.store, services.github(), repo.name, window)
        summary = getattr(result, "summary_line", None)
        detail = f" ({summary()})" if callable(summary) else ""
        lines.append(f"{repo.name} {window.label}{detail}")
    return "; ".join(lines)
