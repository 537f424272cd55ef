"""What running Discord takes beside posting (`bot.platform.Deployment`): DISCORD_BOT_TOKEN
for targets without a webhook; doctor's checks of the bot, its channels and the webhooks;
/readyz's GET /users/@me; the gateway `serve` runs on the leader."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.core.config import Config, Environment
from bot.core.errors import ConfigError
from bot.discord import NAME
from bot.discord.gateway import DiscordGateway
from bot.discord.probes import discord_channel, discord_me, discord_webhook
from bot.platform import Component, Route
from bot.probes import Probe, secret

if TYPE_CHECKING:
    from bot.app import App


class DiscordDeployment:
    name = NAME

    def missing_tokens(self, config: Config, env: Environment) -> list[str]:
        targets = [
            t.channel for t in config.digest.targets if t.platform == NAME and not t.webhook_url
        ]
        if targets and not secret(env.discord_bot_token):
            return [
                f"DISCORD_BOT_TOKEN is not set but digest targets post to Discord "
                f"({', '.join(targets)}); set it, give those targets a webhook_url_env, "
                "or remove them"
            ]
        return []

    async def checks(self, config: Config, env: Environment) -> list[Probe]:
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

    def readiness(self, env: Environment) -> Callable[[], Awaitable[Probe]] | None:
        if not secret(env.discord_bot_token):
            return None
        return lambda: discord_me(env)

    def serve(self, services: App) -> tuple[list[Route], list[Component]]:
        if not secret(services.env.discord_bot_token):
            return [], []
        return [], [DiscordGateway(services)]
