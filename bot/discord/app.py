"""The Discord bot: a `discord.Client` whose `/vllm` command group is answered by the same
command layer as Slack and `vllm-bot chat` (`bot.commands`).

The `/vllm` group is generated from the command registry (`bot.commands.registry`): one
subcommand per `CommandSpec`, one typed option per `Argument` (ranges, choices,
autocomplete), and the typed values go to the registry's builder, not back through text.

Discord drops an interaction that is not answered within 3 seconds, so nothing that reads
the database or GitHub comes before the first response:

* a parse error is sent at once as the interaction response;
* anything else is deferred at once (the user sees "vllm-bot is thinking…"), the command
  layer's answer driver (`bot.commands.driver`) builds the reply in one of a bounded number
  of workers (`bot.core.tasks.Admission`: round-robin between channels and users; a full
  queue, or a user with too many commands pending, is answered "try again" at once), and
  the original response is edited with it (at shutdown, with "try again" when the command
  was still queued or cut off). Errors are always ephemeral; when a deferred public
  response turns into an error, it is deleted and the error is sent privately instead.

A `/vllm digest … post` reply is posted in the channel through the Discord `Platform` and
the delivery ledger, exactly like a scheduled digest (an unfinished post says so).

Commands are synced to `[discord] guild_ids` at start (guild commands update instantly) or
globally when that list is empty. No privileged intent is needed: slash commands arrive as
interactions whatever the intents.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
import uuid
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands

from bot.commands import COMMANDS, Argument, Command, CommandError, CommandSpec, Context, Reply
from bot.commands.backend import services_context
from bot.commands.driver import Responder, drive, drive_admitted
from bot.commands.registry import Source, build, is_public, parse
from bot.core.config import Config
from bot.core.document import Document
from bot.core.errors import BotError
from bot.core.i18n import message
from bot.core.logging import log_post
from bot.core.metrics import METRICS, Metrics
from bot.core.models import JSON
from bot.core.secrets import redact
from bot.core.tasks import (
    COMMAND_QUEUE,
    COMMAND_WORKERS,
    Admission,
    RateLimitedLog,
    Refusal,
    TaskTracker,
    TrackedCommands,
)
from bot.delivery import DeliveryIncomplete
from bot.discord import NAME
from bot.discord.endpoints import DiscordEndpoints, apply_endpoints, resolve_gateway
from bot.platform import Platform
from bot.posting import incomplete_message, post_document
from formatters import limits
from formatters.discord import render_discord

if TYPE_CHECKING:
    from bot.app import App
    from bot.store.deliveries import Deliveries

log = logging.getLogger(__name__)
# A flood of commands past the queue: one line a minute, not one per command.
_busy_log = RateLimitedLog(60.0)

MAX_CHOICES = 25  # Discord shows at most 25 autocomplete choices
CHOICE_TEXT_MAX = 100  # a choice's name and (string) value
CONTENT_MAX = limits.DISCORD_CONTENT_MAX
DESCRIPTION_MAX = limits.DISCORD_EMBED_DESCRIPTION_MAX
# (channel id, user id) -> the command layer's Context for that interaction.
ContextFactory = Callable[[str | None, str | None], Context]
Autocomplete = Callable[
    [discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]


# ---------------------------------------------------------------------------- rendering


def _embeds(body: JSON) -> list[discord.Embed]:
    return [discord.Embed.from_dict(e) for e in body.get("embeds") or []]


def reply_messages(reply: Reply) -> list[JSON]:
    """The reply as keyword arguments of discord.py send/edit calls, one dict per message."""
    if reply.document is not None and not reply.post_to_channel:
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


class CommandHandler(TrackedCommands):
    """Runs `/vllm` interactions through the command layer and answers them on Discord."""

    def __init__(
        self,
        *,
        config: Config,
        context_factory: ContextFactory,
        store: Deliveries | None = None,
        platform: Platform | None = None,
        metrics: Metrics | None = None,
        admission: Admission | None = None,
    ) -> None:
        self.config = config
        # Commands worked on at once (sized to the database pool) and queued beyond that.
        self.admission = admission or Admission(COMMAND_WORKERS, COMMAND_QUEUE)
        self.context_factory = context_factory
        self.store = store
        # `digest … post` goes through the same Platform and ledger path as
        # `bot.posting.post_digest` (the App's platform; None: posting is unavailable).
        self.platform = platform
        self.metrics = metrics or METRICS
        # discord.py runs each interaction in a task of its own; they are registered here
        # (with a name for the shutdown log) so `serve` can let them finish before the
        # client, whose HTTP session they answer through, is closed.
        self.tracker = TaskTracker()

    def context(self, interaction: discord.Interaction) -> Context:
        channel = str(interaction.channel_id) if interaction.channel_id else None
        return self.context_factory(channel, str(interaction.user.id))

    async def run(
        self, interaction: discord.Interaction, source: str | Command | CommandError
    ) -> None:
        """Answer one command: at once when local state suffices, else defer then edit."""
        received = time.perf_counter()
        ctx = self.context(interaction)
        surface = DiscordSurface(self, interaction, ctx)
        if not self.accepting:
            await surface.respond(Reply.user_error(message(ctx.lang, "error.restarting")), None)
            return
        if isinstance(source, str):
            try:
                source = parse(source)
            except CommandError as exc:
                source = exc
        # The interaction is answered (or deferred) before anything touches the database or
        # GitHub: bad input from the text alone, anything else deferred at once and worked
        # on by a bounded worker (the 3-second window holds however busy the pool is).
        if isinstance(source, CommandError):
            quiet = replace(ctx, subscriptions=None)  # no store lookup for the language
            await drive(
                source, quiet, DiscordSurface(self, interaction, quiet), metrics=self.metrics
            )
            return
        ticket = self.admission.ticket(ctx.user, ctx.channel)
        if isinstance(ticket, Refusal):
            self.metrics.commands_busy.inc(platform=NAME)
            _busy_log.log(log, "discord /vllm in %s refused: %s", ctx.channel, ticket.name.lower())
            text = message(ctx.lang, ticket.value, count=self.admission.per_user)
            await surface.respond(Reply.user_error(text), None)
            return
        try:
            async with self.tracker.track(f"discord /vllm in {interaction.channel_id}"):
                public = is_public(source)
                await interaction.response.defer(ephemeral=not public, thinking=True)
                surface.deferred_public, surface.deferred = public, True
                await drive_admitted(
                    ticket, source, ctx, surface, metrics=self.metrics, received=received
                )
        finally:
            ticket.cancel()

    async def run_typed(
        self, interaction: discord.Interaction, name: str, values: Mapping[str, object]
    ) -> None:
        """A subcommand with Discord's typed option values."""
        source: Command | CommandError
        try:
            source = build(name, values)
        except CommandError as exc:
            source = exc
        await self.run(interaction, source)

    async def post_document(
        self, interaction: discord.Interaction, document: Document, language: str
    ) -> Reply:
        """`digest … post`: the document in the channel through the delivery ledger."""
        if self.store is None or self.platform is None or interaction.channel_id is None:
            text = message(language, "cmd.posting_unavailable")
            await interaction.followup.send(text, ephemeral=True)
            return Reply.failed(text)
        channel = str(interaction.channel_id)
        week = str(document.meta.get("week", ""))
        started = time.perf_counter()
        try:
            result = await post_document(self.store, self.platform, document, channel)
        except DeliveryIncomplete as exc:
            log_post(log, NAME, channel, document.id, "incomplete", started, detail=str(exc))
            text = incomplete_message(exc.result, week, language)
            await interaction.followup.send(text, ephemeral=True, wait=True)
            return Reply.failed(text)
        except BotError as exc:
            log_post(log, NAME, channel, document.id, "failed", started, detail=str(exc))
            text = redact(exc.message(language))
            await interaction.followup.send(text, ephemeral=True, wait=True)
            return Reply.failed(text)
        outcome = "delivered" if result.nothing_new else "posted"
        log_post(log, NAME, channel, document.id, outcome, started, parts=len(result.sent))
        if result.nothing_new:
            text = message(language, "cmd.posted.nothing_new", week=week)
            await interaction.followup.send(text, ephemeral=True)
            return Reply(text=text)
        return Reply(text=message(language, "cmd.posted", week=week, count=result.parts))

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
        options: list[tuple[str, Sequence[str], str]] = [
            ("last", [], "last week"),
            ("this", [], "this week (so far)"),
        ]
        options += [(w, [], w) for w in recent_weeks(now)]
        return rank_choices(current, options)

    async def scope_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """A digest's scope: `org` (the organisation), or module names as for subscribe."""
        modules = await self.module_choices(interaction, current)
        org = rank_choices(current, [("org", [], "org — the whole organisation")])
        return (org + modules)[:MAX_CHOICES] if " " not in current.strip() else modules

    def autocomplete(self, source: Source) -> Autocomplete:
        """The autocomplete callback for one of the registry's choice sources."""

        async def repos(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return self.repo_choices(current)

        async def weeks(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return self.week_choices(current)

        callbacks: dict[Source, Autocomplete] = {
            "modules": self.module_choices,
            "scope": self.scope_choices,
            "subscriptions": self.unsubscribe_choices,
            "repos": repos,
            "weeks": weeks,
        }
        return callbacks[source]


class DiscordSurface(Responder):
    """One interaction as the answer driver's surface."""

    platform = "discord"

    def __init__(
        self, handler: CommandHandler, interaction: discord.Interaction, ctx: Context
    ) -> None:
        self.handler = handler
        self.interaction = interaction
        self.ctx = ctx
        self.deferred_public = False
        # Deferred already: every answer edits the "thinking…" response.
        self.deferred = False

    async def respond(self, reply: Reply, command: Command | None) -> Reply:
        if self.deferred and command is not None:
            return await self.follow_up(reply, command)
        ephemeral = reply.ephemeral
        first, *rest = reply_messages(reply)
        await self.interaction.response.send_message(
            content=first["content"],
            embeds=first["embeds"],
            ephemeral=ephemeral,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self._followups(rest, ephemeral)
        return await self._posted(reply)

    async def acknowledge(self, text: str, *, public: bool) -> None:
        if self.deferred:
            return
        # Discord shows its own "vllm-bot is thinking…"; the deferral fixes who sees the
        # answer, so it is public only when a successful answer will be.
        self.deferred_public = public
        await self.interaction.response.defer(ephemeral=not public, thinking=True)

    async def follow_up(self, reply: Reply, command: Command) -> Reply:
        ephemeral = reply.ephemeral
        first, *rest = reply_messages(reply)
        if self.deferred_public and ephemeral:
            # An error (or a private answer) must not appear in the channel: drop the public
            # "thinking…" message and say it privately.
            await self.interaction.delete_original_response()
            await self._followups([first, *rest], True)
            return await self._posted(reply)
        # A public reply after a private deferral stays private: ephemerality is fixed at
        # the deferral. `CommandSpec.public` makes this rare (it is logged to spot misses).
        if not self.deferred_public and not ephemeral:
            log.info("discord: public reply to a privately deferred command; sent privately")
        await self.interaction.edit_original_response(
            content=first["content"],
            embeds=first["embeds"],
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self._followups(rest, not self.deferred_public)
        return await self._posted(reply)

    async def _followups(self, messages: list[JSON], ephemeral: bool) -> None:
        for item in messages:
            await self.interaction.followup.send(
                content=item["content"] or discord.utils.MISSING,
                embeds=item["embeds"],
                ephemeral=ephemeral,
                allowed_mentions=discord.AllowedMentions.none(),
                wait=True,
            )

    async def _posted(self, reply: Reply) -> Reply:
        if reply.ok and reply.post_to_channel and reply.document is not None:
            return await self.handler.post_document(self.interaction, reply.document, self.ctx.lang)
        return reply


# ---------------------------------------------------------------------------- command group


def build_group(handler: CommandHandler) -> app_commands.Group:
    """`/vllm <sub>`: one typed subcommand per registered command."""
    group = app_commands.Group(
        name="vllm", description="vLLM pull-request digests, cards and alerts"
    )
    for spec in COMMANDS:
        group.add_command(app_command(spec, handler))
    return group


def _annotation(argument: Argument) -> Any:
    kind: Any = argument.kind
    if argument.kind is int and (argument.min_value, argument.max_value) != (None, None):
        kind = app_commands.Range[int, argument.min_value, argument.max_value]
    return kind if argument.required or argument.kind is bool else kind | None


def app_command(spec: CommandSpec, handler: CommandHandler) -> app_commands.Command[Any, Any, None]:
    """The app command of one CommandSpec. discord.py reads options from the callback's
    signature, so the signature is built from the spec's arguments."""

    async def callback(interaction: discord.Interaction, /, **values: Any) -> None:
        await handler.run_typed(interaction, spec.name, values)

    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    # Required options first: Discord wants them so, and so does a Python signature.
    for argument in sorted(spec.arguments, key=lambda a: not a.required):
        default: Any = inspect.Parameter.empty
        if not argument.required:
            default = False if argument.kind is bool else None
        parameters.append(
            inspect.Parameter(
                argument.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=_annotation(argument),
                default=default,
            )
        )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    if spec.arguments:
        descriptions = {a.name: _localised(spec.argument_key(a)) for a in spec.arguments}
        app_commands.describe(**descriptions)(callback)
    choices = {
        a.name: [app_commands.Choice(name=v, value=v) for v in a.choice_values()]
        for a in spec.arguments
        if a.choice_values()
    }
    if choices:
        app_commands.choices(**choices)(callback)
    sources = {
        a.name: handler.autocomplete(a.autocomplete) for a in spec.arguments if a.autocomplete
    }
    if sources:
        app_commands.autocomplete(**sources)(callback)
    return app_commands.Command(
        name=spec.name, description=_localised(spec.summary_key), callback=callback
    )


def _localised(key: str) -> app_commands.locale_str:
    """English for Discord's default; `CatalogueTranslator` adds the other languages."""
    return app_commands.locale_str(message("en", key), key=key)


class CatalogueTranslator(app_commands.Translator):
    """Command and option descriptions in the user's Discord language, from `bot.core.i18n`."""

    LOCALES: ClassVar[dict[discord.Locale, str]] = {
        discord.Locale.chinese: "zh",
        discord.Locale.taiwan_chinese: "zh",
    }

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = self.LOCALES.get(locale)
        key = string.extras.get("key")
        if language is None or key is None:
            return None  # Discord shows the English default
        return message(language, key)


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

    async def setup_hook(self) -> None:
        # Runs inside login(), after the token is checked and before the gateway opens.
        await resolve_gateway(self.http, self.endpoints)
        await self.tree.set_translator(CatalogueTranslator())
        if self.sync_commands:
            await sync_command_tree(self.tree, self.guild_ids)

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        error_id = uuid.uuid4().hex[:8]
        log.error("discord: /vllm failed (error id %s)", error_id, exc_info=error)
        ctx = self.handler.context(interaction)
        text = message(ctx.lang, "error.apology", error_id=error_id)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
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


def create_client(services: App, *, sync_commands: bool = True) -> VllmDiscordBot:
    """The bot over the running services (`serve` starts it with DISCORD_BOT_TOKEN)."""
    endpoints = DiscordEndpoints.from_env(services.env)
    apply_endpoints(endpoints)

    def context(channel: str | None, user: str | None) -> Context:
        return services_context(services, platform=NAME, channel=channel, user=user)

    # `digest … post` posts through the App's Discord platform: the process's one REST
    # connection, whose rate-limit buckets digests and alerts share.
    handler = CommandHandler(
        config=services.config,
        context_factory=context,
        store=services.store.deliveries,
        platform=services.platforms[NAME],
    )
    return VllmDiscordBot(
        handler=handler,
        endpoints=endpoints,
        guild_ids=services.config.discord.guild_ids,
        sync_commands=sync_commands,
    )
