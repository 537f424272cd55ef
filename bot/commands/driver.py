"""The one answer driver: ack-then-answer for Slack, Discord and the terminal.

Chat platforms drop a command that is not acknowledged within 3 seconds. So:

* bad input, and any answer the command layer can give from local state within
  `quick_timeout` (`cached_reply`), goes into the acknowledgement itself (`respond`);
* anything else is acknowledged at once with a progress line (`acknowledge`, public when
  the answer will be), built with `dispatch`, and sent as a follow-up (`follow_up`).

A `Surface` is how one platform does those three things for one command; the decisions,
the timeout, the metrics line and the language are here, once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Protocol

from bot.commands.context import Context
from bot.commands.dispatch import cached_reply, dispatch, parse_error
from bot.commands.registry import is_public, parse, progress_text
from bot.commands.reply import Reply
from bot.commands.syntax import Command, CommandError

log = logging.getLogger(__name__)


class Run(Protocol):
    """What the driver reports about one command (`bot.core.metrics.CommandRun`)."""

    outcome: str
    kind: str
    channel: str | None

    def reply(self, ok: bool, runtime: bool) -> None: ...


class CommandMetrics(Protocol):
    """`bot.core.metrics.Metrics` as the driver uses it (injected by the adapters)."""

    def command(
        self, platform: str, name: str, *, started: float | None = None
    ) -> AbstractContextManager[Run]: ...


@dataclass
class _Unmeasured:
    outcome: str = "ok"
    kind: str = "command"
    channel: str | None = None

    def reply(self, ok: bool, runtime: bool) -> None:
        pass


class _NoMetrics:
    @contextmanager
    def command(self, platform: str, name: str, *, started: float | None = None) -> Iterator[Run]:
        yield _Unmeasured()


class Surface(Protocol):
    """One command's answer channel on one platform."""

    platform: str  # the metrics label: "slack", "discord", "cli"

    async def respond(self, reply: Reply, command: Command | None) -> Reply:
        """Answer inside the acknowledgement; returns the outcome (a post can fail)."""
        ...

    async def acknowledge(self, text: str, *, public: bool) -> None:
        """Acknowledge now with a progress line; the answer follows."""
        ...

    async def follow_up(self, reply: Reply, command: Command) -> Reply:
        """Send the answer after the acknowledgement; returns the outcome."""
        ...


async def drive(
    source: str | Command | CommandError,
    ctx: Context,
    surface: Surface,
    *,
    quick_timeout: float | None = 1.5,
    metrics: CommandMetrics | None = None,
    received: float | None = None,
) -> Reply:
    """Answer one command on `surface`; returns the reply the user ended up with.

    `source` is the text after `/vllm`, a Command built from typed values, or the
    `CommandError` building one raised (bad input is answered the same way on every path).

    `quick_timeout`: how long the local answer may take before the command is acknowledged
    and answered later (None: no deadline, as on a terminal). `received` is when the
    command arrived (`time.perf_counter()`), so the metric measures receipt to answer.
    """
    metrics = metrics or _NoMetrics()
    received = time.perf_counter() if received is None else received
    # The language is the channel's digest target's (already in ctx), else the config's: a
    # subscription's `lang:zh` is its alerts' language only (docs/alerts.md).
    try:
        command = parse(source) if isinstance(source, str) else source
        if isinstance(command, CommandError):
            raise command
    except CommandError as exc:
        with metrics.command(surface.platform, "invalid", started=received) as run:
            run.channel, run.outcome = ctx.channel, "invalid"
            return await surface.respond(parse_error(exc, ctx.lang), None)
    with metrics.command(surface.platform, command.name, started=received) as run:
        run.channel = ctx.channel
        reply = await _quick(command, ctx, quick_timeout)
        if reply is not None:
            outcome = await surface.respond(reply, command)
        else:
            public = is_public(command)
            await surface.acknowledge(progress_text(command, ctx.lang), public=public)
            reply = await dispatch(command, ctx)
            outcome = await surface.follow_up(reply, command)
        if reply.ok and not outcome.ok:
            run.kind = surface.platform  # the answer was fine; delivering it failed
        run.reply(outcome.ok, outcome.runtime)
        return outcome


async def _quick(command: Command, ctx: Context, limit: float | None) -> Reply | None:
    try:
        async with asyncio.timeout(limit):
            return await cached_reply(command, ctx)
    except TimeoutError:
        # A busy database must not cost us the 3-second window: answer later instead.
        log.warning("cached answer to /vllm %s took too long; answering later", command.name)
        return None
