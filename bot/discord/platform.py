"""Discord as one `bot.platform.Platform`.

Posting: embeds from formatters/discord.py, the summary in the channel and the details in
a thread started from it, through the bot's REST client; a channel configured with a
webhook (`[[digest.targets]] webhook_url_env`) posts through that webhook instead (no
thread from a message there, and no chart). Answering `/vllm`: `DiscordSurface`
(bot/discord/app.py), this platform's `bot.commands.driver.Responder`. Running it: DISCORD_BOT_TOKEN
for targets without a webhook; doctor's checks of the bot, its channels and the webhooks;
/readyz's GET /users/@me; the gateway `serve` runs on the leader (loaded only by `serve`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import aiohttp
from discord.http import HTTPClient

from bot.core.config import Config, DigestTarget, Environment
from bot.core.document import Document
from bot.core.errors import ConfigError, english
from bot.core.models import JSON
from bot.core.validators import chat_channel_problem
from bot.delivery import DeliveryResult, Sent
from bot.discord import NAME
from bot.discord.endpoints import DiscordEndpoints, apply_endpoints
from bot.discord.poster import DiscordPoster, DiscordWebhookPoster
from bot.discord.probes import discord_channel, discord_me, discord_webhook
from bot.platform import Component, Platform, Post, Route
from bot.probes import Probe, secret
from formatters.discord import discord_thread_name, render_discord

if TYPE_CHECKING:
    from bot.app import App

log = logging.getLogger(__name__)

MISSING_TOKEN = (
    "DISCORD_BOT_TOKEN is not set: copy the bot token from the Developer Portal "
    "(your application → Bot → Reset Token), or give the target a webhook_url_env"
)


class DiscordPlatform(Platform):
    """`http` gives the logged-in REST client (the App's shared one, or the gateway
    client's), awaited on first bot post only; `env`, when given, supplies
    DISCORD_API_URL for webhook posts and tells whether a bot token is set."""

    name = NAME

    def __init__(
        self,
        config: Config,
        http: Callable[[], Awaitable[HTTPClient]],
        *,
        env: Environment | None = None,
    ) -> None:
        self.config = config
        self._http = http
        self.env = env

    def render(self, document: Document, channel: str | None = None) -> list[JSON]:
        return render_discord(document)

    def _webhook_target(self, channel: str) -> DigestTarget | None:
        # The config names the variable; its value is read (and checked) only to post.
        return next(
            (
                t
                for t in self.config.digest.targets
                if t.platform == NAME and t.channel == channel and t.webhook_url_env
            ),
            None,
        )

    def _has_webhook(self, channel: str) -> bool:
        return self._webhook_target(channel) is not None

    def webhook_for(self, channel: str) -> str | None:
        """The webhook URL the config gives `channel`, if any (ConfigError, with the fix,
        when its variable is not set)."""
        target = self._webhook_target(channel)
        return str(target.webhook_url) if target is not None and target.webhook_url else None

    def channel_problem(self, channel: str) -> str | None:
        # A webhook target is named freely (its URL says where it posts).
        if self._has_webhook(channel):
            return None
        return chat_channel_problem(NAME, channel)

    def attaches(self, channel: str) -> bool:
        # A webhook cannot start a thread from a message, so the chart has no thread.
        return not self._has_webhook(channel)

    def available(self) -> str | None:
        if self.env is None:
            return None
        token = self.env.discord_bot_token
        has_webhook = any(
            t.platform == NAME and t.webhook_url_env for t in self.config.digest.targets
        )
        if (token is None or not token.get_secret_value().strip()) and not has_webhook:
            return MISSING_TOKEN
        return None

    async def post_thread(self, post: Post) -> DeliveryResult:
        name = discord_thread_name(post.document)
        webhook = self.webhook_for(post.channel)
        if webhook is not None:
            if post.attachment is not None:
                log.info(
                    "discord:%s posts through a webhook: the chart is not attached", post.channel
                )
            if self.env is not None:
                # Webhook requests go to DISCORD_API_URL like every Discord call.
                apply_endpoints(DiscordEndpoints.from_env(self.env))
            async with aiohttp.ClientSession() as session:
                return await DiscordWebhookPoster(webhook, session).post_document(
                    post.store,
                    document_id=post.document_id,
                    channel=post.channel,
                    payloads=post.payloads,
                    thread_name=name,
                    force=post.force,
                )
        return await DiscordPoster(await self._http()).post_document(
            post.store,
            document_id=post.document_id,
            channel=post.channel,
            payloads=post.payloads,
            thread_name=name,
            force=post.force,
            attachment=post.attachment,
        )

    async def post_message(self, channel: str, text: str) -> Sent:
        message = await DiscordPoster(await self._http()).send_message(channel, {"content": text})
        return Sent(str(message["id"]))

    # ------------------------------------------------------------------ running it

    @classmethod
    def missing_tokens(cls, config: Config, env: Environment) -> list[str]:
        targets = [
            t.channel for t in config.digest.targets if t.platform == NAME and not t.webhook_url
        ]
        if targets and not secret(env.discord_bot_token):
            return [english("error.tokens.discord_bot", channels=", ".join(targets))]
        return []

    @classmethod
    async def checks(cls, config: Config, env: Environment) -> list[Probe]:
        results: list[Probe] = []
        targets = [t for t in config.digest.targets if t.platform == NAME]
        needs_bot = [t for t in targets if not t.webhook_url_env]
        if secret(env.discord_bot_token) or needs_bot:
            me = await discord_me(env)
            results.append(me)
            if me.ok:
                for channel in dict.fromkeys(t.channel for t in needs_bot):
                    results.append(await discord_channel(env, channel))
        for target in targets:
            if not target.webhook_url_env:
                continue
            try:
                url = target.webhook_url
            except ConfigError as exc:
                results.append(Probe(f"discord webhook {target.channel}", False, str(exc)))
                continue
            if url is None:  # never: webhook_url_env is set (above)
                continue
            results.append(await discord_webhook(url, target.channel, env))
        return results

    @classmethod
    def readiness(cls, env: Environment) -> Callable[[], Awaitable[Probe]] | None:
        if not secret(env.discord_bot_token):
            return None
        return lambda: discord_me(env)

    @classmethod
    def serve(cls, services: App) -> tuple[list[Route], list[Component]]:
        if not secret(services.env.discord_bot_token):
            return [], []
        # Lazy: the gateway client (slash commands, discord.py's gateway) is for serve alone.
        from bot.discord.gateway import DiscordGateway

        return [], [DiscordGateway(services)]
