"""`serve`'s Discord component: the bot's gateway session (`/vllm` interactions), run on
the scheduler leader and supervised so a failed session is retried."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import discord

from bot.core.metrics import METRICS
from bot.core.tasks import is_work
from bot.discord import NAME
from bot.discord.app import create_client
from bot.probes import Probe, secret

if TYPE_CHECKING:
    from bot.app import App

# serve's logger: the gateway's lines read as serve's, as the other components' do.
log = logging.getLogger("bot.serve")


class GatewayClient(Protocol):
    """What the gateway needs of its client (`VllmDiscordBot`, or a test's stand-in)."""

    async def start(self, token: str) -> None: ...
    async def close(self) -> None: ...
    def is_ready(self) -> bool: ...


class DiscordGateway:
    """The Discord gateway runs on the scheduler leader only: two sessions of one bot
    would both receive every interaction and answer it twice.

    discord.py reconnects a session that was up, but a failure to get one (Discord or the
    network down at start, a reconnect that raises) ends `Client.start`. So the session is
    supervised: each failure is logged and counted, /readyz reports it, and a fresh client
    tries again after a capped exponential backoff (`backoff`, doubling up to
    `max_backoff`; a rejected token waits the maximum, retrying it fast cannot help).
    """

    name = NAME
    leader_only = True

    def __init__(
        self,
        services: App,
        factory: Callable[[App], GatewayClient] = create_client,
        *,
        backoff: float = 5.0,
        max_backoff: float = 300.0,
    ) -> None:
        self.services = services
        self.factory = factory
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.client: GatewayClient | None = None
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
        self.task = asyncio.create_task(self._supervise(self.client, token), name="discord gateway")

    async def _supervise(self, client: GatewayClient, token: str) -> None:
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                await client.start(token)
                if self._stop.is_set():
                    return
                problem, rejected = "the gateway closed", False
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._stop.is_set():
                    return
                problem = f"{type(exc).__name__}: {exc}"
                rejected = isinstance(exc, discord.LoginFailure)
            # A session that stayed up longer than the longest wait was healthy: start the
            # backoff over rather than punishing a blip after days of uptime.
            if time.monotonic() - began > self.max_backoff:
                self.failures = 0
            self.failures += 1
            delay = self.max_backoff if rejected else self.delay(self.failures)
            self.failure = f"{problem}; retrying in {delay:.0f} s (attempt {self.failures})"
            METRICS.errors.inc(kind=NAME)
            log.error(
                "Discord: gateway stopped: %s",
                self.failure,
                extra={"event": "platform", "platform": NAME, "outcome": "failed"},
            )
            with contextlib.suppress(Exception):
                await client.close()  # its HTTP session and half-open socket
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), delay)
            if self._stop.is_set():
                return
            # A closed discord.Client cannot be started again: a fresh one per attempt.
            client = self.client = self.factory(self.services)
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

    def in_flight(self) -> dict[asyncio.Task[object], str]:
        handler = getattr(self.client, "handler", None)
        return handler.in_flight() if is_work(handler) else {}

    def ready(self) -> Probe | None:
        if self.client is None:
            return None  # a standby instance: the leader holds the gateway
        if self.failure:
            return Probe(NAME, False, self.failure)
        is_ready = bool(self.client.is_ready())
        return Probe(NAME, is_ready, "gateway ready" if is_ready else "connecting")
