"""One handler per command: a parsed Command and a Context in, a Reply out.

Handlers raise `CommandError` (bad input) or the bot's own errors; `bot.commands.dispatch`
turns those into one clear line. `offline=True` is the acknowledgement path: a handler
that would need the network raises `NeedsNetwork` instead, and runs again after the ack.
All text goes through the message catalogue in the channel's language (`ctx.lang`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

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
    suggest,
)
from bot.core.document import BulletList, Code, Document, Section, Text
from bot.core.errors import GitHubUnreachable, MessageError, NotFoundError
from bot.core.i18n import message, separator
from bot.core.validators import CHAT_PLATFORMS
from bot.core.weeks import parse_week

if TYPE_CHECKING:
    from bot.commands.context import Context, ModuleInfo


class NeedsNetwork(Exception):
    """Raised inside the offline path when the answer needs GitHub."""


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
    pr = await ctx.backend.cached_pr(repo, command.number)
    if pr is None:
        if offline:
            raise NeedsNetwork
        try:
            pr = await ctx.backend.fetch_pr(repo, command.number)
        except GitHubUnreachable as exc:
            return Reply.failed(await _offline(ctx, repo, command.number, exc))
        except NotFoundError:
            # The number as typed (a str): "#99999999", not a grouped "99,999,999".
            raise CommandError(
                "error.pr.not_found", "pr", number=str(command.number), repo=repo
            ) from None
    document = await ctx.backend.pr_card(pr, ctx.lang)
    return Reply(text=document.fallback, document=document)


async def _offline(ctx: Context, repo: str, number: int, exc: Exception) -> str:
    """GitHub cannot be reached: say so, and what the store holds instead."""
    elsewhere, count = await ctx.backend.cached_holdings(repo, number)
    lang = ctx.lang
    if elsewhere:
        where = f"{elsewhere[0]}#{number}"
        held = message(lang, "error.pr.offline.elsewhere", where=where)
    else:
        held = message(lang, "error.pr.offline.holds", count=count, repo=repo)
    return message(
        lang, "error.pr.offline", number=str(number), repo=repo, held=held, detail=str(exc)
    )


async def answer_digest(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, DigestCommand)
    try:
        window = parse_week(command.week, ctx.config.tz, now=ctx.now())
    except MessageError as exc:
        raise CommandError.of(exc, "digest") from None
    modules: list[str] = []
    if command.modules:
        catalog = await ctx.backend.modules(ctx.default_repo)
        modules = resolve_modules(command.modules, catalog, "digest")
    if offline:
        raise NeedsNetwork
    if command.org:
        document = await ctx.backend.org_digest(window, ctx.lang)
    else:
        document = await ctx.backend.digest(
            ctx.default_repo, window, ctx.lang, modules=tuple(modules)
        )
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
    items = tuple((Code(m.id), Text(f" — {m.name(lang)}")) for m in modules)
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


def resolve_modules(names: Sequence[str], catalog: Sequence[ModuleInfo], command: str) -> list[str]:
    """Module ids for ids or names as typed; unknown ones get a suggestion.

    Names may span several words (`Mixture of Experts`, unquoted): the longest run of
    words that names a module wins.
    """
    by_key: dict[str, str] = {}
    for module in catalog:
        for key in (module.id, module.name_en, module.name_zh):
            if key:
                by_key.setdefault(" ".join(key.lower().split()), module.id)
    longest = max((len(key.split()) for key in by_key), default=1)
    ids: list[str] = []
    i = 0
    while i < len(names):
        for size in range(min(longest, len(names) - i), 0, -1):
            module_id = by_key.get(" ".join(names[i : i + size]).lower())
            if module_id is not None:
                break
        else:
            name = names[i]
            hint = suggest(name, [m.id for m in catalog]) or suggest(name, list(by_key))
            raise CommandError(
                "error.module.unknown",
                command,
                name=name,
                hint=by_key.get(hint.lower(), hint) if hint else None,
            )
        if module_id not in ids:
            ids.append(module_id)
        i += size
    return ids


async def answer_subscribe(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, SubscribeCommand)
    service = ctx.subscriptions
    if service is None or ctx.channel is None:
        return not_available(ctx)
    if ctx.platform not in CHAT_PLATFORMS:
        return Reply.user_error(message(ctx.lang, "error.no_alert_channel"))
    # --- releases: `/vllm subscribe releases` ---
    releases = command.modules == ("releases",) and not command.weekly
    if releases:
        ids: list[str] = []
    else:
        catalog = await ctx.backend.modules(ctx.default_repo)
        ids = resolve_modules(command.modules, catalog, "subscribe")
        for repo in command.filters.repos:
            # A module the repository's rule set lacks could never match one of its PRs.
            await _check_modules_of(repo, ids, ctx)
    options = {"weekly": True} if command.weekly else {"releases": True} if releases else {}
    info = await service.subscribe(
        platform=ctx.platform,
        channel=ctx.channel,
        user=ctx.user,
        modules=ids,
        filters=command.filters,
        **options,
    )
    if not info.created:
        return Reply(text=message(ctx.lang, "cmd.already_subscribed", what=info.describe()))
    key = "cmd.subscribed.weekly" if info.weekly else "cmd.subscribed"
    if info.releases:
        key = "cmd.subscribed.releases"
    return Reply(text=message(ctx.lang, key, what=info.describe()), public=True)


async def _check_modules_of(repo: str, ids: Sequence[str], ctx: Context) -> None:
    catalog = await ctx.backend.modules(repo)
    known = [m.id for m in catalog]
    for module_id in ids:
        if module_id not in known:
            shown = ", ".join(known[:8]) + (", …" if len(known) > 8 else "")
            raise CommandError(
                "error.module.not_in_repo",
                "subscribe",
                repo=repo,
                name=module_id,
                hint=suggest(module_id, known),
                ruleset=ctx.config.repo(repo).modules,
                ids=shown,
            )


async def answer_unsubscribe(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, UnsubscribeCommand)
    service = ctx.subscriptions
    if service is None or ctx.channel is None:
        return not_available(ctx)
    target = command.target
    if command.kind == "module" and target.lower() == "releases":
        target = "releases"  # the channel's release subscription (no rule-set module)
    elif command.kind == "module":
        catalog = await ctx.backend.modules(ctx.default_repo)
        target = resolve_modules([target], catalog, "unsubscribe")[0]
    detailed = getattr(service, "unsubscribe_detailed", None)
    narrowed: list[tuple[int, list[str]]] = []
    if detailed is not None:
        removed, narrowed = await detailed(
            platform=ctx.platform, channel=ctx.channel, user=ctx.user, target=target,
            kind=command.kind,
        )  # fmt: skip
    else:
        removed = await service.unsubscribe(
            platform=ctx.platform, channel=ctx.channel, user=ctx.user, target=target,
            kind=command.kind,
        )  # fmt: skip
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
    found = await service.list(platform=ctx.platform, channel=ctx.channel)
    lang = ctx.lang
    if not found:
        return Reply(text=message(lang, "cmd.subscriptions.none"))
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
        raise NeedsNetwork
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
