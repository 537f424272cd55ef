"""`serve`'s Discord component: the bot's gateway session (`/vllm` interactions), run on
the scheduler leader.

Retrying is discord.py's wherever it has it: its HTTP client retries 429s (after
`retry_after`) and 5xx answers, and `Client.connect(reconnect=True)` brings a dropped
session back with its own exponential backoff. What it lacks is the first login
(`Client.login`: the token check, the gateway lookup and the command sync in
`setup_hook`): when Discord or the network is down at start it raises once and stops. So
only the login is retried here, with a capped exponential backoff and a fresh client per
attempt (a failed login leaves a client half set up); a session that discord.py itself
gives up on (a close code it deems fatal: a revoked token, intents not allowed) is
reported, not retried, since retrying it would meet the same refusal.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.core.metrics import METRICS
from bot.discord import NAME
from bot.discord.app import VllmDiscordBot, create_client
from bot.probes import Probe, secret

if TYPE_CHECKING:
    from bot.app import App

# serve's logger: the gateway's lines read as serve's, as the other components' do.
log = logging.getLogger("bot.serve")


class DiscordGateway:
    """The Discord gateway runs on the scheduler leader only: two sessions of one bot
    would both receive every interaction and answer it twice.

    Each failed login is logged and counted, /readyz reports it, and a fresh client tries
    again after `backoff` seconds, doubling up to `max_backoff` (a rejected token waits
    the maximum: retrying it fast cannot help)."""

    name = NAME
    leader_only = True

    def __init__(
        self,
        services: App,
        factory: Callable[[App], VllmDiscordBot] = create_client,
        *,
        backoff: float = 5.0,
        max_backoff: float = 300.0,
    ) -> None:
        self.services = services
        self.factory = factory
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.client: VllmDiscordBot | None = None
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
        self.task = asyncio.create_task(self._run(self.client, token), name="discord gateway")

    async def _run(self, client: VllmDiscordBot, token: str) -> None:
        logged_in = await self._login(client, token)
        if logged_in is None:
            return
        try:
            # discord.py reconnects a dropped session itself; it returns or raises only
            # when closed (shutdown) or on a close it will not retry.
            await logged_in.connect(reconnect=True)
            problem = "the gateway closed"
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            problem = f"{type(exc).__name__}: {exc}"
        if self._stop.is_set():
            return
        self._failed(f"{problem}; not retried (discord.py ended the session)")

    async def _login(self, client: VllmDiscordBot, token: str) -> VllmDiscordBot | None:
        """`client` logged in (or a fresh one that did), None when stopped first."""
        while not self._stop.is_set():
            try:
                await client.login(token)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._stop.is_set():
                    return None
                self.failures += 1
                rejected = isinstance(exc, discord.LoginFailure)
                delay = self.max_backoff if rejected else self.delay(self.failures)
                self._failed(
                    f"{type(exc).__name__}: {exc}; retrying in {delay:.0f} s "
                    f"(attempt {self.failures})"
                )
                with contextlib.suppress(Exception):
                    await client.close()  # its HTTP session
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), delay)
                if self._stop.is_set():
                    return None
                client = self.client = self.factory(self.services)
                self.failure = None
                continue
            return client
        return None

    def _failed(self, failure: str) -> None:
        self.failure = failure
        METRICS.errors.inc(kind=NAME)
        log.error(
            "Discord: gateway stopped: %s",
            failure,
            extra={"event": "platform", "platform": NAME, "outcome": "failed"},
        )

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
        if self.client is not None:
            self.client.handler.stop_accepting()

    def in_flight(self) -> dict[asyncio.Task[object], str]:
        return self.client.handler.in_flight() if self.client is not None else {}

    def ready(self) -> Probe | None:
        if self.client is None:
            return None  # a standby instance: the leader holds the gateway
        if self.failure:
            return Probe(NAME, False, self.failure)
        is_ready = self.client.is_ready()
        return Probe(NAME, is_ready, "gateway ready" if is_ready else "connecting")
