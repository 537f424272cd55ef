"""The Discord bot: a `discord.Client` whose `/vllm` command group is answered by the same
command layer as Slack and `vllm-bot chat` (`bot.commands`).

Each subcommand turns its options into the equivalent `/vllm …` text (or `PrCommand`) and
hands it to the command layer; parsing, help texts and error messages live there.

Discord drops an interaction that is not answered within 3 seconds, so:

* a reply the command layer can give from local state (`cached_reply`, bounded by
  `quick_timeout`) is sent at once as the interaction response;
* anything else is deferred first (the user sees "vllm-bot is thinking…"), then the original
  response is edited with the reply. Errors are always ephemeral; when a deferred public
  response turns into an error, it is deleted and the error is sent privately instead.

A `/vllm digest … post` reply is posted in the channel through `DiscordPoster` and the
delivery ledger, exactly like a scheduled digest.

Commands are synced to `[discord] guild_ids` at start (guild commands update instantly) or
globally when that list is empty. No privileged intent is needed: slash commands arrive as
interactions whatever the intents.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from bot.commands import (
    USAGE,
    Command,
    CommandError,
    Context,
    DigestCommand,
    Reply,
    SubscribeCommand,
    UnsubscribeCommand,
    cached_reply,
    dispatch,
    parse,
    parse_pr_ref,
)
from bot.commands.parse import MAX_PR_NUMBER
from bot.config import Config
from bot.delivery import Ledger
from bot.discord.endpoints import DiscordEndpoints, apply_endpoints, resolve_gateway
from bot.discord.poster import DiscordPoster, DiscordPostError, DiscordUnavailable
from bot.runtime.logging import log_post
from bot.runtime.metrics import METRICS, CommandRun, Metrics
from bot.secrets import redact
from bot.tasks import TaskTracker
from formatters import limits

log = logging.getLogger(__name__)

MAX_CHOICES = 25  # Discord shows at most 25 autocomplete choices
CHOICE_TEXT_MAX = 100  # a choice's name and (string) value
CONTENT_MAX = limits.DISCORD_CONTENT_MAX
DESCRIPTION_MAX = limits.DISCORD_EMBED_DESCRIPTION_MAX
RESTARTING = "vllm-bot is restarting; try again in a minute"

# (channel id, user id) -> the command layer's Context for that interaction.
ContextFactory = Callable[[str | None, str | None], Context]


# ---------------------------------------------------------------------------- rendering


def _embeds(body: dict[str, Any]) -> list[discord.Embed]:
    return [discord.Embed.from_dict(e) for e in body.get("embeds") or []]


def reply_messages(reply: Reply) -> list[dict[str, Any]]:
    """The reply as keyword arguments of discord.py send/edit calls, one dict per message."""
    if reply.document is not None and not reply.post_to_channel:
        from formatters.discord import render_discord

        return [
            {"content": body.get("content") or None, "embeds": _embeds(body)}
            for body in render_discord(reply.document)
        ]
    text = reply.text or "done"
    if len(text) <= CONTENT_MAX:
        return [{"content": text, "embeds": []}]
    # Long lists (subscriptions, modules) fit an embed description, which allows 4,096.
    if len(text) > DESCRIPTION_MAX:
        text = text[: DESCRIPTION_MAX - 1] + "…"
    return [{"content": None, "embeds": [discord.Embed(description=text)]}]


def _expects_public(command: Command) -> bool:
    """Whether a successful reply is shown to the channel (decides how we defer)."""
    if isinstance(command, DigestCommand):
        return command.post
    return isinstance(command, SubscribeCommand | UnsubscribeCommand)


# ---------------------------------------------------------------------------- choices


def _fits(text: str) -> str:
    return text if len(text) <= CHOICE_TEXT_MAX else text[: CHOICE_TEXT_MAX - 1] + "…"


def rank_choices(
    current: str, options: Sequence[tuple[str, Sequence[str], str]]
) -> list[app_commands.Choice[str]]:
    """Choices whose value or names match what was typed, best first, at most 25.

    `options` are (value, names, label): exact and prefix matches of the value rank first,
    then prefix matches of a name, then substrings anywhere.
    """
    typed = current.strip().lower()
    scored: list[tuple[int, int, app_commands.Choice[str]]] = []
    for order, (value, names, label) in enumerate(options):
        keys = [value.lower(), *(n.lower() for n in names if n)]
        if not typed or keys[0] == typed:
            rank = 0
        elif keys[0].startswith(typed):
            rank = 1
        elif any(k.startswith(typed) for k in keys[1:]):
            rank = 2
        elif any(typed in k for k in keys):
            rank = 3
        else:
            continue
        scored.append((rank, order, app_commands.Choice(name=_fits(label), value=_fits(value))))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [choice for _, _, choice in scored[:MAX_CHOICES]]


def recent_weeks(now: datetime, count: int = 8) -> list[str]:
    weeks = []
    for back in range(count):
        year, week, _ = (now - timedelta(weeks=back)).isocalendar()
        weeks.append(f"{year}-W{week:02d}")
    return weeks


# ---------------------------------------------------------------------------- handler


class CommandHandler:
    """Runs `/vllm` interactions through the command layer and answers them on Discord."""

    def __init__(
        self,
        *,
        config: Config,
        context_factory: ContextFactory,
        store: Ledger | None = None,
        poster: Callable[[], DiscordPoster] | None = None,
        quick_timeout: float = 1.5,
        metrics: Metrics | None = None,
    ) -> None:
        self.config = config
        self.context_factory = context_factory
        self.store = store
        self.poster = poster
        # cached_reply reads only the store, but a busy database must not cost us the
        # 3-second window: past this we defer and take the slow path.
        self.quick_timeout = quick_timeout
        self.metrics = metrics or METRICS
        # discord.py runs each interaction in a task of its own; they are registered here
        # (with a name for the shutdown log) so `serve` can let them finish before the
        # client, whose HTTP session they answer through, is closed.
        self.tracker = TaskTracker()

    @property
    def accepting(self) -> bool:
        return self.tracker.accepting

    def stop_accepting(self) -> None:
        """Shutdown: new commands are told to retry; running ones go on."""
        self.tracker.stop_accepting()

    def in_flight(self) -> dict[asyncio.Task[Any], str]:
        return self.tracker.in_flight()

    def context(self, interaction: discord.Interaction) -> Context:
        channel = str(interaction.channel_id) if interaction.channel_id else None
        return self.context_factory(channel, str(interaction.user.id))

    async def run(self, interaction: discord.Interaction, source: str | Command) -> None:
        """Answer one command: at once when local state suffices, else defer then edit."""
        received = time.perf_counter()
        if not self.accepting:
            await self._respond(interaction, Reply.error(RESTARTING))
            return
        async with self.tracker.track(f"discord /vllm in {interaction.channel_id}"):
            await self._run(interaction, source, received)

    async def _run(
        self, interaction: discord.Interaction, source: str | Command, received: float
    ) -> None:
        ctx = self.context(interaction)
        command: Command | None
        reply: Reply | None = None
        if isinstance(source, str):
            try:
                command = parse(source)
            except CommandError as exc:
                with self.metrics.command("discord", "invalid", started=received) as run:
                    run.channel, run.outcome = ctx.channel, "invalid"
                    await self._respond(interaction, Reply.error(str(exc)))
                return
        else:
            command = source
        with self.metrics.command("discord", command.name, started=received) as run:
            run.channel = ctx.channel
            try:
                reply = await asyncio.wait_for(cached_reply(command, ctx), self.quick_timeout)
            except TimeoutError:
                log.info("discord: cached answer to %s took too long; deferring", command.name)
            if reply is not None:
                await self._respond(interaction, reply)
            else:
                public = _expects_public(command)
                await interaction.response.defer(ephemeral=not public, thinking=True)
                reply = await dispatch(command, ctx)
                await self._finish(interaction, reply, deferred_public=public)
            run.reply(reply.ok, reply.runtime)
            await self._post_if_asked(interaction, reply, run)

    async def _respond(self, interaction: discord.Interaction, reply: Reply) -> None:
        ephemeral = reply.ephemeral or not reply.ok
        first, *rest = reply_messages(reply)
        await interaction.response.send_message(
            content=first["content"],
            embeds=first["embeds"],
            ephemeral=ephemeral,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self._followups(interaction, rest, ephemeral)

    async def _finish(
        self, interaction: discord.Interaction, reply: Reply, *, deferred_public: bool
    ) -> None:
        ephemeral = reply.ephemeral or not reply.ok
        first, *rest = reply_messages(reply)
        if deferred_public and ephemeral:
            # An error (or a private answer) must not appear in the channel: drop the public
            # "thinking…" message and say it privately.
            await interaction.delete_original_response()
            await self._followups(interaction, [first, *rest], True)
            return
        # A public reply after a private deferral stays private: ephemerality is fixed at
        # the deferral. `_expects_public` makes this rare (it is logged to spot misses).
        if not deferred_public and not ephemeral:
            log.info("discord: public reply to a privately deferred command; sent privately")
        await interaction.edit_original_response(
            content=first["content"],
            embeds=first["embeds"],
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self._followups(interaction, rest, not deferred_public)

    async def _followups(
        self, interaction: discord.Interaction, messages: list[dict[str, Any]], ephemeral: bool
    ) -> None:
        for message in messages:
            await interaction.followup.send(
                content=message["content"] or discord.utils.MISSING,
                embeds=message["embeds"],
                ephemeral=ephemeral,
                allowed_mentions=discord.AllowedMentions.none(),
                wait=True,
            )

    async def _post_if_asked(
        self, interaction: discord.Interaction, reply: Reply, run: CommandRun | None = None
    ) -> None:
        if not (reply.ok and reply.post_to_channel and reply.document is not None):
            return
        if self.store is None or self.poster is None or interaction.channel_id is None:
            await interaction.followup.send(
                "posting is not available in this deployment (no delivery store)", ephemeral=True
            )
            return
        from formatters.discord import discord_thread_name, render_discord

        document = reply.document
        channel = str(interaction.channel_id)
        started = time.perf_counter()
        try:
            result = await self.poster().post(
                self.store,
                document_id=document.id,
                channel=channel,
                payloads=render_discord(document),
                thread_name=discord_thread_name(document),
            )
        except (DiscordPostError, DiscordUnavailable) as exc:
            log_post(log, "discord", channel, document.id, "failed", started, detail=str(exc))
            if run is not None:
                run.outcome, run.kind = "failed", "discord"
            await interaction.followup.send(redact(str(exc)), ephemeral=True, wait=True)
            return
        outcome = "delivered" if result.nothing_new else "posted"
        log_post(log, "discord", channel, document.id, outcome, started, parts=len(result.sent))
        if result.nothing_new:
            await interaction.followup.send(
                "this digest was already posted in this channel; nothing new", ephemeral=True
            )

    # ------------------------------------------------------------------ autocomplete

    def repo_choices(self, current: str) -> list[app_commands.Choice[str]]:
        return rank_choices(
            current, [(r.name, [r.name.split("/")[-1]], r.name) for r in self.config.repos]
        )

    async def module_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Module ids and names; with several modules typed, completes the last word."""
        ctx = self.context(interaction)
        try:
            catalog = await asyncio.wait_for(ctx.backend.modules(ctx.default_repo), 2.0)
        except Exception:
            log.warning("discord: module catalogue unavailable for autocomplete", exc_info=True)
            return []
        head, _, last = current.rpartition(" ")
        prefix = f"{head.strip()} " if head.strip() else ""
        ranked = rank_choices(
            last, [(m.id, [m.name_en, m.name_zh], f"{m.id} — {m.name(ctx.lang)}") for m in catalog]
        )
        return [
            app_commands.Choice(name=_fits(prefix + c.name), value=prefix + str(c.value))
            for c in ranked
            # A value cut short would name another module; such a choice is left out.
            if len(prefix + str(c.value)) <= CHOICE_TEXT_MAX
        ]

    async def unsubscribe_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        ctx = self.context(interaction)
        options: list[tuple[str, Sequence[str], str]] = [
            ("all", [], "all — every subscription here")
        ]
        if ctx.subscriptions is not None and ctx.channel is not None:
            try:
                found = await asyncio.wait_for(
                    ctx.subscriptions.list(platform=ctx.platform, channel=ctx.channel), 2.0
                )
            except Exception:
                log.warning("discord: subscriptions unavailable for autocomplete", exc_info=True)
                found = []
            for sub in found:
                options.append((sub.id, [*sub.modules], f"#{sub.describe().lstrip('#')}"))
            for module in sorted({m for sub in found for m in sub.modules}):
                options.append((module, [], f"{module} — every subscription to it"))
        return rank_choices(current, options)

    def week_choices(self, current: str) -> list[app_commands.Choice[str]]:
        now = datetime.now(UTC).astimezone(self.config.tz)
        options = [("last", [], "last week"), ("this", [], "this week (so far)")]
        options += [(w, [], w) for w in recent_weeks(now)]
        return rank_choices(current, options)


# ---------------------------------------------------------------------------- command group


def build_group(handler: CommandHandler) -> app_commands.Group:
    group = app_commands.Group(
        name="vllm", description="vLLM pull-request digests, cards and alerts"
    )

    @group.command(name="pr", description="One PR card: modules, kind, flags, score, size, link")
    @app_commands.describe(
        number="pull-request number, e.g. 42121", repo="repository (default: the first watched)"
    )
    async def pr(
        interaction: discord.Interaction,
        number: app_commands.Range[int, 1, MAX_PR_NUMBER],
        repo: str | None = None,
    ) -> None:
        try:
            command: Command = parse_pr_ref(str(number))
        except CommandError as exc:  # Discord enforces the range; kept for other clients
            await handler._respond(interaction, Reply.error(str(exc)))
            return
        if repo:
            command = dataclasses.replace(command, repo=repo.strip())
        await handler.run(interaction, command)

    @pr.autocomplete("repo")
    async def pr_repo(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return handler.repo_choices(current)

    @group.command(
        name="digest", description="The weekly digest; post=True posts it in this channel"
    )
    @app_commands.describe(
        week="this, last or an ISO week like 2026-W23 (default: last)",
        post="post it in this channel",
    )
    async def digest(
        interaction: discord.Interaction, week: str | None = None, post: bool = False
    ) -> None:
        words = ["digest", *(week.split() if week else []), *(["post"] if post else [])]
        await handler.run(interaction, " ".join(words))

    @digest.autocomplete("week")
    async def digest_week(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return handler.week_choices(current)

    @group.command(name="subscribe", description="Alert this channel when matching PRs merge")
    @app_commands.describe(
        module="module id or name (several: separate with spaces)",
        filters="optional filters, e.g. min:7 -label:ci flag:core-path lang:zh",
    )
    async def subscribe(
        interaction: discord.Interaction, module: str, filters: str | None = None
    ) -> None:
        await handler.run(interaction, f"subscribe {module.strip()} {filters or ''}".strip())

    @subscribe.autocomplete("module")
    async def subscribe_module(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await handler.module_choices(interaction, current)

    @group.command(name="unsubscribe", description="Remove subscriptions of this channel")
    @app_commands.describe(target="a module, a subscription id or all")
    async def unsubscribe(interaction: discord.Interaction, target: str) -> None:
        await handler.run(interaction, f"unsubscribe {target.strip()}")

    @unsubscribe.autocomplete("target")
    async def unsubscribe_target(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await handler.unsubscribe_choices(interaction, current)

    @group.command(
        name="subscriptions", description="This channel's subscriptions with ids and filters"
    )
    async def subscriptions(interaction: discord.Interaction) -> None:
        await handler.run(interaction, "subscriptions")

    @group.command(name="modules", description="The module ids you can subscribe to")
    async def modules(interaction: discord.Interaction) -> None:
        await handler.run(interaction, "modules")

    @group.command(name="help", description="How to use /vllm, or one command's usage")
    @app_commands.describe(command="a command to explain")
    @app_commands.choices(command=[app_commands.Choice(name=name, value=name) for name in USAGE])
    async def help_(interaction: discord.Interaction, command: str | None = None) -> None:
        await handler.run(interaction, f"help {command}" if command else "help")

    return group


# ---------------------------------------------------------------------------- client


class VllmDiscordBot(discord.Client):
    """The bot client: `/vllm` commands, command sync and endpoint resolution at login."""

    def __init__(
        self,
        *,
        handler: CommandHandler,
        endpoints: DiscordEndpoints,
        guild_ids: Sequence[int] = (),
        sync_commands: bool = True,
    ) -> None:
        # Slash commands need no intent; `guilds` (not privileged) keeps the channel cache
        # discord.py uses to resolve where an interaction came from.
        super().__init__(
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.handler = handler
        self.endpoints = endpoints
        self.guild_ids = list(guild_ids)
        self.sync_commands = sync_commands
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(build_group(handler))
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        if handler.poster is None:
            handler.poster = lambda: DiscordPoster(self.http)

    async def setup_hook(self) -> None:
        # Runs inside login(), after the token is checked and before the gateway opens.
        await resolve_gateway(self.http, self.endpoints)
        if self.sync_commands:
            await sync_command_tree(self.tree, self.guild_ids)

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        log.error("discord: /vllm failed", exc_info=error)
        message = "Sorry, something went wrong on our side; it has been logged."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException:
            log.warning("discord: could not tell the user about the failure", exc_info=True)


async def sync_command_tree(tree: app_commands.CommandTree, guild_ids: Sequence[int]) -> None:
    """Guild commands appear at once; global ones can take up to an hour to propagate."""
    if not guild_ids:
        synced = await tree.sync()
        log.info("discord: synced %d global commands", len(synced))
        return
    for guild_id in guild_ids:
        guild = discord.Object(guild_id)
        tree.copy_global_to(guild=guild)
        synced = await tree.sync(guild=guild)
        log.info("discord: synced %d commands to guild %s", len(synced), guild_id)


def create_client(services: Any, *, sync_commands: bool = True) -> VllmDiscordBot:
    """The bot over the running services (`bot.runtime` starts it with DISCORD_BOT_TOKEN)."""
    from bot.commands.cli_adapter import services_context

    endpoints = DiscordEndpoints.from_env(services.env)
    apply_endpoints(endpoints)

    def context(channel: str | None, user: str | None) -> Context:
        return services_context(services, platform="discord", channel=channel, user=user)

    handler = CommandHandler(config=services.config, context_factory=context, store=services.store)
    return VllmDiscordBot(
        handler=handler,
        endpoints=endpoints,
        guild_ids=services.config.discord.guild_ids,
        sync_commands=sync_commands,
    )
