"""Answer a parsed Command through its registered handler; never a traceback.

`dispatch` may use the network (GitHub) and always returns a Reply: bad input and GitHub
trouble become one clear line in the channel's language, anything unexpected becomes an
apology with an error id that is logged with its traceback.

`cached_reply` is the same logic restricted to local state; it returns None when the answer
needs the network, so adapters can put cached answers straight into their acknowledgement.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

from bot.commands.context import Context
from bot.commands.handlers import NeedsNetwork
from bot.commands.registry import parse, spec_of, with_usage
from bot.commands.reply import Reply
from bot.commands.syntax import Command, CommandError, PrCommand
from bot.core.errors import (
    BotError,
    GitHubAuthError,
    GitHubError,
    MessageError,
    NotFoundError,
    RateLimitExhausted,
    UsageError,
)
from bot.core.i18n import message


async def dispatch(command: Command, ctx: Context) -> Reply:
    try:
        return await spec_of(command).handler(command, ctx, False)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        reply = expected_error(command, exc, ctx.lang)
        if reply is not None:
            return reply
        return _apology(command, ctx, exc)


async def cached_reply(command: Command, ctx: Context) -> Reply | None:
    """The reply from local state only, or None when it needs the network."""
    try:
        return await spec_of(command).handler(command, ctx, True)
    except NeedsNetwork:
        return None
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        reply = expected_error(command, exc, ctx.lang)
        if reply is None:
            # The slow path runs the same code again and apologises if it fails there too.
            ctx.log.warning("cached answer to %r failed; falling back", command, exc_info=True)
        return reply


def parse_error(exc: CommandError, language: str) -> Reply:
    return Reply.user_error(with_usage(exc).render(language))


async def handle(text: str, ctx: Context) -> Reply:
    """Parse and dispatch in one go (the CLI and tests; chat adapters use the driver)."""
    try:
        command = parse(text)
    except CommandError as exc:
        return parse_error(exc, ctx.lang)
    return await dispatch(command, ctx)


async def quick_reply(text: str, ctx: Context) -> tuple[Command | None, Reply | None]:
    """What an adapter can answer inside its acknowledgement: a parse error or a cached reply.

    Returns (None, error) for bad input, (command, reply) when answered from local state,
    and (command, None) when `dispatch(command, ctx)` must run after the acknowledgement.
    """
    try:
        command = parse(text)
    except CommandError as exc:
        return None, parse_error(exc, ctx.lang)
    return command, await cached_reply(command, ctx)


# ---------------------------------------------------------------------------- errors


def expected_error(command: Command, exc: Exception, language: str) -> Reply | None:
    # GitHub's errors are catalogue lines too: the detail in the channel's language.
    detail = exc.message(language) if isinstance(exc, BotError) else str(exc)
    if isinstance(exc, RateLimitExhausted):
        if exc.reset_at:
            reset = datetime.fromtimestamp(exc.reset_at, UTC)
            return Reply.failed(
                message(language, "error.rate_limit.at", time=f"{reset:%H:%M}", detail=detail)
            )
        return Reply.failed(message(language, "error.rate_limit", detail=detail))
    if isinstance(exc, GitHubAuthError):
        return Reply.failed(message(language, "error.github_auth", detail=detail))
    if isinstance(exc, GitHubError):
        return Reply.failed(message(language, "error.github_down", detail=detail))
    if isinstance(exc, CommandError):
        return parse_error(exc, language)
    if isinstance(exc, MessageError):
        # A refusal that is not about the command's syntax (who may change subscriptions):
        # the channel's language, and no usage line.
        return Reply.error(exc.message(language), runtime=False)
    if isinstance(exc, NotFoundError) and isinstance(command, PrCommand):
        return Reply.user_error(exc.message(language))
    if isinstance(exc, BotError):
        return Reply.error(exc.message(language), runtime=not isinstance(exc, UsageError))
    return None


def _apology(command: Command, ctx: Context, exc: Exception) -> Reply:
    error_id = uuid.uuid4().hex[:8]
    ctx.log.error(
        "command %s failed (error id %s, platform %s, channel %s)",
        command.name,
        error_id,
        ctx.platform,
        ctx.channel,
        exc_info=exc,
    )
    return Reply.failed(message(ctx.lang, "error.apology", error_id=error_id))
