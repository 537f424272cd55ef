"""The one answer driver: ack-then-answer for Slack, Discord and the terminal.

Chat platforms drop a command that is not acknowledged within 3 seconds. So:

* bad input, and any answer the command layer can give from local state within
  `quick_timeout` (`cached_reply`), goes into the acknowledgement itself (`respond`);
* anything else is acknowledged at once with a progress line (`acknowledge`, public when
  the answer will be), built with `dispatch`, and sent as a follow-up (`follow_up`).

A platform's `Responder` (`bot.platform`) is how it does those three things for one
command; the decisions, the timeout, the metrics line and the language are here, once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager, nullcontext

from bot.commands.context import Context
from bot.commands.dispatch import cached_reply, dispatch, parse_error
from bot.commands.registry import is_public, parse, progress_text
from bot.commands.reply import Reply
from bot.commands.syntax import Command, CommandError
from bot.core.i18n import message
from bot.core.metrics import CommandRun, Metrics
from bot.core.tasks import AdmissionTicket, Withdrawn

log = logging.getLogger(__name__)


class Responder(ABC):
    """How a chat platform (`bot.platform.Platform`) answers one command: `drive`
    decides what to say and when, this says it, within the platform's acknowledgement
    window or acknowledged with a progress line and followed up. It lives with the
    command layer, which the platform interface sits below."""

    platform: str  # the metrics label: "slack", "discord", "cli"

    @abstractmethod
    async def respond(self, reply: Reply, command: Command | None) -> Reply:
        """Answer inside the acknowledgement; returns the outcome (a post can fail)."""

    @abstractmethod
    async def acknowledge(self, text: str, *, public: bool) -> None:
        """Acknowledge now with a progress line; the answer follows."""

    @abstractmethod
    async def follow_up(self, reply: Reply, command: Command) -> Reply:
        """Send the answer after the acknowledgement; returns the outcome."""


async def drive(
    source: str | Command | CommandError,
    ctx: Context,
    surface: Responder,
    *,
    quick_timeout: float | None = 1.5,
    metrics: Metrics | None = None,
    received: float | None = None,
) -> Reply:
    """Answer one command on `surface`; returns the reply the user ended up with.

    `source` is the text after `/vllm`, a Command built from typed values, or the
    `CommandError` building one raised (bad input is answered the same way on every path).

    `quick_timeout`: how long the local answer may take before the command is acknowledged
    and answered later (None: no deadline, as on a terminal). `received` is when the
    command arrived (`time.perf_counter()`), so the metric measures receipt to answer.
    """
    received = time.perf_counter() if received is None else received

    def measured(name: str) -> AbstractContextManager[CommandRun]:
        # No metrics (the terminal): the run is still filled in, just never reported.
        if metrics is None:
            return nullcontext(CommandRun())
        return metrics.command(surface.platform, name, started=received)

    # The language is the channel's digest target's (already in ctx), else the config's: a
    # subscription's `lang:zh` is its alerts' language only (docs/alerts.md).
    try:
        command = parse(source) if isinstance(source, str) else source
        if isinstance(command, CommandError):
            raise command
    except CommandError as exc:
        with measured("invalid") as run:
            run.channel, run.outcome = ctx.channel, "invalid"
            return await surface.respond(parse_error(exc, ctx.lang), None)
    with measured(command.name) as run:
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


async def drive_admitted(
    ticket: AdmissionTicket,
    command: Command,
    ctx: Context,
    surface: Responder,
    *,
    metrics: Metrics | None = None,
    received: float | None = None,
) -> Reply:
    """`drive` a command acknowledged already with a progress line, once its ticket's turn
    comes (`bot.core.tasks.Admission`).

    Shutdown may give up on it: withdrawn from the queue before it started, or cancelled
    at the end of the grace. Either way its user, who saw only "looking up…", is told to
    try again through the platform's own reply path before the task ends."""
    restarting = Reply.user_error(message(ctx.lang, "error.restarting"))
    try:
        async with ticket:
            return await drive(
                command, ctx, surface, quick_timeout=None, metrics=metrics, received=received
            )
    except Withdrawn:
        return await surface.follow_up(restarting, command)
    except asyncio.CancelledError:
        # drive's last await is the answer's follow-up, so a cancelled drive has not
        # answered. The task goes on being cancelled once the user is told.
        try:
            await surface.follow_up(restarting, command)
        except Exception:
            log.warning("could not tell /vllm %s to try again", command.name, exc_info=True)
        raise


async def _quick(command: Command, ctx: Context, limit: float | None) -> Reply | None:
    try:
        async with asyncio.timeout(limit):
            return await cached_reply(command, ctx)
    except TimeoutError:
        # A busy database must not cost us the 3-second window: answer later instead.
        log.warning("cached answer to /vllm %s took too long; answering later", command.name)
        return None
