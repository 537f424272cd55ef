"""Answer a parsed Command: the one implementation behind Slack, Discord and `vllm-bot chat`.

`dispatch` may use the network (GitHub) and always returns a Reply: bad input and GitHub
trouble become one clear line, anything unexpected becomes an apology with an error id that
is logged with its traceback (the user never sees a traceback).

`cached_reply` is the same logic restricted to local state; it returns None when the answer
needs the network, so adapters can put cached answers straight into their acknowledgement.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

from bot.commands.context import Context, ModuleInfo
from bot.commands.help import help_text
from bot.commands.parse import (
    Command,
    CommandError,
    DigestCommand,
    HelpCommand,
    ModulesCommand,
    PrCommand,
    SubscribeCommand,
    SubscriptionsCommand,
    UnsubscribeCommand,
    parse,
    suggest,
)
from bot.commands.reply import Reply
from bot.document import BulletList, Code, Document, Section, Text
from bot.errors import (
    BotError,
    GitHubAuthError,
    GitHubError,
    NotFoundError,
    RateLimitExhausted,
    UsageError,
)
from bot.weeks import parse_week

NOT_AVAILABLE = "subscriptions are not available yet"


class _NeedsNetwork(Exception):
    """Raised inside the offline path when the answer needs GitHub."""


async def dispatch(command: Command, ctx: Context) -> Reply:
    try:
        return await _answer(command, ctx, offline=False)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        reply = _expected_error(command, exc)
        if reply is not None:
            return reply
        return _apology(command, ctx, exc)


async def cached_reply(command: Command, ctx: Context) -> Reply | None:
    """The reply from local state only, or None when it needs the network."""
    try:
        return await _answer(command, ctx, offline=True)
    except _NeedsNetwork:
        return None
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        reply = _expected_error(command, exc)
        if reply is None:
            # The slow path runs the same code again and apologises if it fails there too.
            ctx.log.warning("cached answer to %r failed; falling back", command, exc_info=True)
        return reply


async def handle(text: str, ctx: Context) -> Reply:
    """Parse and dispatch in one go (the CLI and tests; chat adapters use the split API)."""
    try:
        command = parse(text)
    except CommandError as exc:
        return Reply.error(str(exc))
    return await dispatch(command, ctx)


async def quick_reply(text: str, ctx: Context) -> tuple[Command | None, Reply | None]:
    """What an adapter can answer inside its acknowledgement: a parse error or a cached reply.

    Returns (None, error) for bad input, (command, reply) when answered from local state,
    and (command, None) when `dispatch(command, ctx)` must run after the acknowledgement.
    """
    try:
        command = parse(text)
    except CommandError as exc:
        return None, Reply.error(str(exc))
    return command, await cached_reply(command, ctx)


# ---------------------------------------------------------------------------- errors


def _expected_error(command: Command, exc: Exception) -> Reply | None:
    if isinstance(exc, RateLimitExhausted):
        when = ""
        if exc.reset_at:
            reset = datetime.fromtimestamp(exc.reset_at, UTC)
            when = f" after {reset:%H:%M} UTC"
        return Reply.error(f"GitHub's rate limit is used up, try again{when} ({exc})", runtime=True)
    if isinstance(exc, GitHubAuthError):
        return Reply.error(
            f"GitHub rejected the bot's token ({exc}); an admin needs to check GITHUB_TOKEN",
            runtime=True,
        )
    if isinstance(exc, GitHubError):
        return Reply.error(f"GitHub is unavailable, try again in a minute ({exc})", runtime=True)
    if isinstance(exc, NotFoundError) and isinstance(command, PrCommand):
        return Reply.error(str(exc))
    if isinstance(exc, BotError):
        return Reply.error(str(exc), runtime=not isinstance(exc, UsageError))
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
    return Reply.error(
        f"Sorry, something went wrong on our side (error id {error_id}). "
        "It has been logged; please try again later.",
        runtime=True,
    )


# ---------------------------------------------------------------------------- answers


async def _answer(command: Command, ctx: Context, *, offline: bool) -> Reply:
    match command:
        case HelpCommand(topic=topic):
            return Reply(text=help_text(topic))
        case PrCommand():
            return await _pr(command, ctx, offline)
        case DigestCommand():
            return await _digest(command, ctx, offline)
        case ModulesCommand():
            return await _modules(ctx)
        case SubscribeCommand():
            return await _subscribe(command, ctx)
        case UnsubscribeCommand():
            return await _unsubscribe(command, ctx)
        case SubscriptionsCommand():
            return await _subscriptions(ctx)
    raise AssertionError(f"unhandled command {command!r}")


async def _pr(command: PrCommand, ctx: Context, offline: bool) -> Reply:
    repo = ctx.default_repo
    if command.repo is not None:
        watched = ctx.watched_repo(command.repo)
        if watched is None:
            names = ", ".join(r.name for r in ctx.config.repos)
            raise CommandError(
                f"{command.repo} is not watched by this bot (it follows {names})", "pr"
            )
        repo = watched
    pr = await ctx.backend.cached_pr(repo, command.number)
    if pr is None:
        if offline:
            raise _NeedsNetwork
        try:
            pr = await ctx.backend.fetch_pr(repo, command.number)
        except NotFoundError:
            raise CommandError(
                f"no pull request #{command.number} in {repo} (GitHub has none with that number)",
                "pr",
            ) from None
    document = await ctx.backend.pr_card(pr, ctx.lang)
    return Reply(text=document.fallback, document=document, ephemeral=True)


async def _digest(command: DigestCommand, ctx: Context, offline: bool) -> Reply:
    try:
        window = parse_week(command.week, ctx.config.tz, now=ctx.now())
    except UsageError as exc:
        raise CommandError(str(exc), "digest") from None
    if offline:
        raise _NeedsNetwork
    document = await ctx.backend.digest(ctx.default_repo, window, ctx.lang)
    if command.post:
        return Reply(
            text=f"posting the {window.label} digest in this channel",
            document=document,
            ephemeral=False,
            post_to_channel=True,
        )
    return Reply(text=document.fallback, document=document, ephemeral=True)


async def _modules(ctx: Context) -> Reply:
    repo = ctx.default_repo
    modules = await ctx.backend.modules(repo)
    items = tuple((Code(m.id), Text(f" — {m.name(ctx.lang)}")) for m in modules)
    document = Document(
        id=f"modules:{repo}",
        title=f"Modules of {repo}",
        context=f"{len(modules)} modules · subscribe with /vllm subscribe <module...>",
        sections=(Section("modules", "Modules", (BulletList(items),)),),
        fallback=f"{len(modules)} modules: " + ", ".join(m.id for m in modules),
    )
    return Reply(text=document.fallback, document=document, ephemeral=True)


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
            tip = f"; did you mean '{by_key.get(hint.lower(), hint)}'?" if hint else ""
            raise CommandError(f"unknown module '{name}'{tip} (/vllm modules lists them)", command)
        if module_id not in ids:
            ids.append(module_id)
        i += size
    return ids


ALERT_PLATFORMS = ("slack", "discord")
NO_ALERT_CHANNEL = (
    "alerts go to a Slack or Discord channel; name it with --channel slack:C0123 or "
    "--channel discord:1234 to manage that channel's subscriptions from the command line"
)


async def _subscribe(command: SubscribeCommand, ctx: Context) -> Reply:
    service = ctx.subscriptions
    if service is None or ctx.channel is None:
        return Reply(text=NOT_AVAILABLE)
    if ctx.platform not in ALERT_PLATFORMS:
        return Reply.error(NO_ALERT_CHANNEL)
    ids = resolve_modules(command.modules, await ctx.backend.modules(ctx.default_repo), "subscribe")
    info = await service.subscribe(
        platform=ctx.platform,
        channel=ctx.channel,
        user=ctx.user,
        modules=ids,
        filters=command.filters,
    )
    if not info.created:
        return Reply(text=f"this channel is already subscribed: {info.describe()}")
    return Reply(text=f"subscribed this channel: {info.describe()}", ephemeral=False)


async def _unsubscribe(command: UnsubscribeCommand, ctx: Context) -> Reply:
    service = ctx.subscriptions
    if service is None or ctx.channel is None:
        return Reply(text=NOT_AVAILABLE)
    target = command.target
    if command.kind == "module":
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
    if removed == 0 and not narrowed:
        what = {"all": "subscriptions", "id": f"subscription #{target}"}.get(
            command.kind, f"subscription to {target}"
        )
        return Reply.error(f"this channel has no {what} (/vllm subscriptions lists them)")
    parts = []
    if removed:
        parts.append(
            f"removed {removed} subscription{'s' if removed != 1 else ''} from this channel"
        )
    for sub_id, rest in narrowed:
        parts.append(
            f"subscription #{sub_id} no longer includes {target}; it still follows {' '.join(rest)}"
        )
    return Reply(text="; ".join(parts), ephemeral=False)


async def _subscriptions(ctx: Context) -> Reply:
    service = ctx.subscriptions
    if service is None or ctx.channel is None:
        return Reply(text=NOT_AVAILABLE)
    found = await service.list(platform=ctx.platform, channel=ctx.channel)
    if not found:
        return Reply(text="this channel has no subscriptions; try /vllm subscribe attention")
    lines = [f"{len(found)} subscription{'s' if len(found) != 1 else ''} in this channel:"]
    lines += [f"• {s.describe()}" for s in found]
    return Reply(text="\n".join(lines))
