"""One handler per command: a parsed Command and a Context in, a Reply out.

A handler parses nothing and decides nothing the other surfaces decide too: it calls a use
case through `ctx.backend` (bot.usecases) and renders its answer. Handlers raise
`CommandError` (bad input) or the bot's own errors; `bot.commands.dispatch` turns those
into one clear line. `offline=True` is the acknowledgement path: a use case that would
need the network raises `NeedsNetwork` instead, and the command runs again after the ack.
All text goes through the message catalogue in the channel's language (`ctx.lang`).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, TypeVar

from bot.analysis.catalogue import UnknownModule
from bot.commands.reply import Reply
from bot.commands.syntax import (
    Command,
    CommandError,
    DigestCommand,
    ModulesCommand,
    PrCommand,
    ReleaseCommand,
    SubscribeCommand,
    SubscriptionsCommand,
    UnsubscribeCommand,
    VersionCommand,
)
from bot.core import document as doc
from bot.core.document import BulletList, Code, Document, Section
from bot.core.errors import InputError, MessageError, NeedsNetwork, NotFoundError, PrUnreachable
from bot.core.i18n import message, separator
from bot.core.messages import Text
from bot.core.validators import CHAT_PLATFORMS
from bot.core.weeks import parse_week
from bot.usecases.digest import DigestScope
from bot.usecases.subscriptions import Channel, subscriptions

if TYPE_CHECKING:
    from bot.commands.context import Context

T = TypeVar("T")

# The dispatcher catches it by this name (the ack path's "answer later").
__all__ = ["NeedsNetwork"]


async def _as_command(command: str, answer: Awaitable[T]) -> T:
    """A use case's bad-input error as the command's: the chat adds its usage line."""
    try:
        return await answer
    except UnknownModule as exc:
        raise CommandError("error.module.unknown", command, name=exc.name, hint=exc.hint) from None
    except InputError as exc:
        raise CommandError.of(exc, exc.command or command) from None


def not_available(ctx: Context) -> Reply:
    return Reply(text=message(ctx.lang, "cmd.not_available"))


async def answer_pr(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, PrCommand)
    repo = ctx.default_repo
    if command.repo is not None:
        watched = ctx.watched_repo(command.repo)
        if watched is None:
            names = separator(ctx.lang).join(r.name for r in ctx.config.repos)
            raise CommandError("error.pr.unwatched", "pr", repo=command.repo, names=names)
        repo = watched
    if offline:
        document = await ctx.backend.local_card(repo, command.number, ctx.lang)
        return Reply(text=document.fallback, document=document)
    try:
        document = await ctx.backend.card(repo, command.number, ctx.lang)
    except PrUnreachable as exc:
        return Reply.failed(_offline(ctx, exc))
    except NotFoundError:
        # The number as typed (a str): "#99999999", not a grouped "99,999,999".
        raise CommandError(
            "error.pr.not_found", "pr", number=str(command.number), repo=repo
        ) from None
    return Reply(text=document.fallback, document=document)


def _offline(ctx: Context, exc: PrUnreachable) -> str:
    """GitHub cannot be reached: say so, and what the store holds instead."""
    lang, number = ctx.lang, exc.number
    if exc.elsewhere:
        where = f"{exc.elsewhere[0]}#{number}"
        held = message(lang, "error.pr.offline.elsewhere", where=where)
    else:
        held = message(lang, "error.pr.offline.holds", count=exc.held, repo=exc.repo)
    return message(
        lang, "error.pr.offline", number=str(number), repo=exc.repo, held=held, detail=str(exc)
    )


async def answer_digest(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, DigestCommand)
    try:
        window = parse_week(command.week, ctx.config.tz, now=ctx.now())
    except MessageError as exc:
        raise CommandError.of(exc, "digest") from None
    scope = DigestScope(ctx.default_repo, command.modules, org=command.org)
    if offline:
        # Bad module words and a missing organisation are answered in the ack.
        await _as_command("digest", ctx.backend.check_scope(scope, ctx.lang))
        raise NeedsNetwork(Text("error.offline.digest"))
    document = await _as_command("digest", ctx.backend.digest(scope, window, ctx.lang))
    if command.post:
        return Reply(
            text=message(ctx.lang, "cmd.digest.posting", week=window.label),
            document=document,
            public=True,
            post_to_channel=True,
        )
    return Reply(text=document.fallback, document=document)


async def answer_modules(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, ModulesCommand)
    repo = ctx.default_repo
    modules = await ctx.backend.modules(repo)
    lang = ctx.lang
    items = tuple((Code(m.id), doc.Text(f" — {m.name(lang)}")) for m in modules)
    count = len(modules)
    document = Document(
        id=f"modules:{repo}",
        title=message(lang, "cmd.modules.title", repo=repo),
        context=message(lang, "cmd.modules.context", count=count),
        sections=(Section("modules", message(lang, "cmd.modules.section"), (BulletList(items),)),),
        fallback=message(
            lang, "cmd.modules.fallback", count=count, ids=", ".join(m.id for m in modules)
        ),
    )
    return Reply(text=document.fallback, document=document)


async def answer_version(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, VersionCommand)
    info = await ctx.backend.version(ctx.default_repo)
    unknown = message(ctx.lang, "cmd.unknown")
    return Reply(
        text=message(
            ctx.lang,
            "cmd.version",
            bot=info.bot or unknown,
            ruleset=info.ruleset or unknown,
            schema=info.schema or unknown,
        )
    )


async def answer_subscribe(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, SubscribeCommand)
    service = ctx.subscriptions
    if service is None or ctx.channel is None:
        return not_available(ctx)
    if ctx.platform not in CHAT_PLATFORMS:
        return Reply.user_error(message(ctx.lang, "error.no_alert_channel"))
    where = Channel(ctx.platform, ctx.channel, ctx.user)
    info = await _as_command(
        "subscribe",
        ctx.backend.subscribe(
            service, where, command.modules, command.filters, weekly=command.weekly,
            language=ctx.lang,
        ),
    )  # fmt: skip
    if not info.created:
        return Reply(text=message(ctx.lang, "cmd.already_subscribed", what=info.describe()))
    key = "cmd.subscribed.weekly" if info.weekly else "cmd.subscribed"
    if info.releases:
        key = "cmd.subscribed.releases"
    return Reply(text=message(ctx.lang, key, what=info.describe()), public=True)


async def answer_unsubscribe(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, UnsubscribeCommand)
    service = ctx.subscriptions
    if service is None or ctx.channel is None:
        return not_available(ctx)
    where = Channel(ctx.platform, ctx.channel, ctx.user)
    target, done = await _as_command(
        "unsubscribe",
        ctx.backend.unsubscribe(service, where, command.target, command.kind, ctx.lang),
    )
    removed, narrowed = done.removed, done.narrowed
    lang = ctx.lang
    if removed == 0 and not narrowed:
        return Reply.user_error(
            message(lang, f"error.no_subscription.{command.kind}", target=target)
        )
    parts = []
    if removed:
        parts.append(message(lang, "cmd.removed", count=removed))
    for sub_id, rest in narrowed:
        parts.append(
            message(lang, "cmd.narrowed", id=str(sub_id), target=target, rest=" ".join(rest))
        )
    return Reply(text="; ".join(parts), public=True)


async def answer_subscriptions(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, SubscriptionsCommand)
    service = ctx.subscriptions
    if service is None or ctx.channel is None:
        return not_available(ctx)
    found = await subscriptions(service, Channel(ctx.platform, ctx.channel, ctx.user))
    lang = ctx.lang
    if not found:
        example = " ".join(await ctx.backend.module_examples())
        return Reply(text=message(lang, "cmd.subscriptions.none", module=example))
    weekly = message(lang, "cmd.subscriptions.weekly")
    lines = [message(lang, "cmd.subscriptions.count", count=len(found))]
    lines += [f"• {s.describe()}" + (f" {weekly}" if s.weekly else "") for s in found]
    return Reply(text="\n".join(lines))


# --- releases ---
async def answer_release(command: Command, ctx: Context, offline: bool) -> Reply:
    """The release card (counts, highlights, breaking changes, a link to the notes), or
    with `post` the release notes posted in the channel through the ledger."""
    assert isinstance(command, ReleaseCommand)
    if offline:
        raise NeedsNetwork(Text("error.offline.release"))
    document = await ctx.backend.release(
        ctx.default_repo, command.tag, ctx.lang, card=not command.post
    )
    if command.post:
        return Reply(
            text=message(ctx.lang, "cmd.release.posting", tag=document.meta.get("tag", "")),
            document=document,
            public=True,
            post_to_channel=True,
        )
    return Reply(text=document.fallback, document=document)
