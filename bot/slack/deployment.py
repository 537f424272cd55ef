"""What running Slack takes beside posting (`bot.platform.Deployment`): SLACK_BOT_TOKEN
and, per `[slack] mode`, SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP
events); doctor's checks; /readyz's auth.test; the route or connection `serve` runs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.core.config import Config, Environment
from bot.platform import Component, Route
from bot.probes import Probe, secret
from bot.slack import NAME
from bot.slack.app import build_slack_bot
from bot.slack.http import events_route
from bot.slack.probes import slack_app_token, slack_auth, slack_channel
from bot.slack.socket import SlackSocket

if TYPE_CHECKING:
    from bot.app import App


class SlackDeployment:
    name = NAME

    def missing_tokens(self, config: Config, env: Environment) -> list[str]:
        problems: list[str] = []
        targets = [t.channel for t in config.digest.targets if t.platform == NAME]
        bot_token = bool(secret(env.slack_bot_token))
        if targets and not bot_token:
            problems.append(
                f"SLACK_BOT_TOKEN is not set but digest targets post to Slack "
                f"({', '.join(targets)}); set it or remove those targets"
            )
        if bot_token or targets:
            if config.slack.mode == "socket" and not secret(env.slack_app_token):
                problems.append(
                    'SLACK_APP_TOKEN (xapp-…) is not set but [slack] mode = "socket"; set it, '
                    'or use mode = "http" with SLACK_SIGNING_SECRET'
                )
            if config.slack.mode == "http" and not secret(env.slack_signing_secret):
                problems.append(
                    'SLACK_SIGNING_SECRET is not set but [slack] mode = "http" (it verifies '
                    '/slack/events); set it, or use mode = "socket" with SLACK_APP_TOKEN'
                )
        elif secret(env.slack_app_token) or secret(env.slack_signing_secret):
            problems.append(
                "SLACK_APP_TOKEN/SLACK_SIGNING_SECRET is set but SLACK_BOT_TOKEN is not"
            )
        return problems

    async def checks(self, config: Config, env: Environment) -> list[Probe]:
        targets = [t for t in config.digest.targets if t.platform == NAME]
        if not (secret(env.slack_bot_token) or targets):
            return []
        auth = await slack_auth(env)
        results = [auth]
        if config.slack.mode == "socket":
            results.append(await slack_app_token(env))
        elif not secret(env.slack_signing_secret):
            results.append(
                Probe(
                    "slack signing secret",
                    False,
                    "SLACK_SIGNING_SECRET is not set",
                    "copy it from the app's Basic Information page",
                )
            )
        else:
            results.append(Probe("slack signing secret", True, "set (verified per request)"))
        if auth.ok:
            for channel in dict.fromkeys(t.channel for t in targets):
                results.append(await slack_channel(env, channel))
        return results

    def readiness(self, env: Environment) -> Callable[[], Awaitable[Probe]] | None:
        if not secret(env.slack_bot_token):
            return None
        return lambda: slack_auth(env)

    def serve(self, services: App) -> tuple[list[Route], list[Component]]:
        if not secret(services.env.slack_bot_token):
            return [], []
        if services.config.slack.mode == "http":
            return [events_route(build_slack_bot(services))], []
        return [], [SlackSocket(services)]
