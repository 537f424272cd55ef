"""The platform pieces `serve` mounts or starts, looked up by name so each can land (or be
left out) independently. A missing module is skipped with one log line; an import error
*inside* a module that exists is a bug and propagates.

Expected entry points (one place to change if a module settles on other names):

| what | where | shape |
| --- | --- | --- |
| Slack HTTP events | `bot.slack.http:events_handler` | `(services) -> aiohttp handler` for POST /slack/events |
| Slack Socket Mode | `bot.slack.socket:socket_mode` | `(services) -> obj` with `async start()`, `async close()`, optional `is_connected()` |
| Discord | `bot.discord.client:create_client` | `(services) -> discord.Client` (started with DISCORD_BOT_TOKEN) |
| GitHub webhook | `bot.alerts.webhook:webhook_handler` | `(services) -> aiohttp handler` for POST /github/webhook |
| alert poller | `bot.alerts.poller:poll_once` | `async (services) -> summary or None` |
"""  # noqa: E501

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.runtime.probes import Probe, secret

log = logging.getLogger("bot.serve")

SLACK_HTTP = ("bot.slack.http", "events_handler")
SLACK_SOCKET = ("bot.slack.socket", "socket_mode")
DISCORD_CLIENT = ("bot.discord.client", "create_client")
GITHUB_WEBHOOK = ("bot.alerts.webhook", "webhook_handler")
ALERT_POLLER = ("bot.alerts.poller", "poll_once")

Handler = Callable[[Any], Awaitable[Any]]


def optional(entry: tuple[str, str], what: str) -> Any | None:
    """`module:attribute`, or None (logged) when the module or attribute is not there."""
    module_name, attribute = entry
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if not (module_name == missing or module_name.startswith(missing + ".")):
            raise  # the module exists but one of its own imports is missing: a real error
        log.info("%s: %s is not installed in this build; skipped", what, module_name)
        return None
    found = getattr(module, attribute, None)
    if found is None:
        log.warning("%s: %s has no %s; skipped", what, module_name, attribute)
    return found


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
    components: list[Any] = field(default_factory=list)
    poll_alerts: Callable[[Any], Awaitable[Any]] | None = None


class SlackSocket:
    """Slack Socket Mode: every instance may hold a connection; Slack hands each event to
    one of them, so no leader is needed."""

    name = "slack"
    leader_only = False

    def __init__(self, services: Any, factory: Callable[[Any], Any]) -> None:
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

    def ready(self) -> Probe | None:
        connected = getattr(self.handler, "is_connected", None)
        if not callable(connected):
            return None
        result = connected()
        return Probe("slack", bool(result), "socket connected" if result else "not connected")


class DiscordGateway:
    """The Discord gateway runs on the scheduler leader only: two sessions of one bot
    would both receive every interaction and answer it twice."""

    name = "discord"
    leader_only = True

    def __init__(self, services: Any, factory: Callable[[Any], Any]) -> None:
        self.services = services
        self.factory = factory
        self.client: Any = None
        self.task: asyncio.Task[None] | None = None
        self.failure: str | None = None

    async def start(self) -> None:
        token = secret(self.services.env.discord_bot_token)
        assert token is not None  # checked by serve's preflight
        self.failure = None
        self.client = self.factory(self.services)
        self.task = asyncio.create_task(self._run(token), name="discord gateway")

    async def _run(self, token: str) -> None:
        try:
            await self.client.start(token)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # A bad token or a closed gateway: readiness reports it; the rest keeps serving.
            self.failure = f"{type(exc).__name__}: {exc}"
            from bot.runtime.metrics import METRICS

            METRICS.errors.inc(kind="discord")
            log.error(
                "Discord: gateway stopped: %s",
                self.failure,
                extra={"event": "platform", "platform": "discord"},
            )

    async def stop(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.close()
        if self.task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self.task, timeout=10)
        self.client = self.task = None

    def ready(self) -> Probe | None:
        if self.client is None:
            return None  # a standby instance: the leader holds the gateway
        if self.failure:
            return Probe("discord", False, self.failure)
        is_ready = bool(self.client.is_ready())
        return Probe("discord", is_ready, "gateway ready" if is_ready else "connecting")


def discover(services: Any) -> Integrations:
    """What this deployment runs, from the config and the environment."""
    found = Integrations()
    env, config = services.env, services.config
    if secret(env.slack_bot_token):
        if config.slack.mode == "http":
            factory = optional(SLACK_HTTP, "Slack HTTP events")
            if factory is not None:
                found.routes.append(Route("POST", "/slack/events", factory(services)))
        else:
            factory = optional(SLACK_SOCKET, "Slack Socket Mode")
            if factory is not None:
                found.components.append(SlackSocket(services, factory))
    if secret(env.discord_bot_token):
        factory = optional(DISCORD_CLIENT, "Discord gateway")
        if factory is not None:
            found.components.append(DiscordGateway(services, factory))
    factory = optional(GITHUB_WEBHOOK, "GitHub webhook")
    if factory is not None:
        found.routes.append(Route("POST", "/github/webhook", factory(services)))
    found.poll_alerts = optional(ALERT_POLLER, "alert poller")
    return found


async def periodic_sync(services: Any) -> str:
    """Keep this ISO week of every configured repo fresh, so commands answer from the store."""
    from bot.sync import sync_window
    from bot.weeks import parse_week

    lines = []
    for repo in services.config.repos:
        window = parse_week("this", services.config.tz, datetime.now(UTC))
        result = await sync_window(services.store, services.github(), repo.name, window)
        summary = getattr(result, "summary_line", None)
        detail = f" ({summary()})" if callable(summary) else ""
        lines.append(f"{repo.name} {window.label}{detail}")
    return "; ".join(lines)
