"""Slack as one `bot.platform.Platform`.

Posting: Block Kit from formatters/slack.py, posted by the process's one `SlackPoster`
(its pacing shared by digests, alerts and command replies), a thread per document, the
chart as its last part. Answering `/vllm`: `SlackSurface` (bot/slack/app.py), this
platform's `bot.commands.driver.Responder`. Running it: SLACK_BOT_TOKEN and, per `[slack] mode`,
SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP events); doctor's checks;
/readyz's auth.test; the route or connection `serve` runs.

slack-bolt (the command app, Socket Mode) loads only in `serve`: posting a digest from the
CLI needs slack_sdk's Web API client alone.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.core.config import Config, Environment
from bot.core.document import Document
from bot.core.errors import english
from bot.core.models import JSON
from bot.core.validators import chat_channel_problem
from bot.delivery import DeliveryResult, Sent
from bot.platform import Component, Platform, Post, Route
from bot.probes import Probe, secret
from bot.slack import NAME
from bot.slack.poster import SlackPoster
from bot.slack.probes import slack_app_token, slack_auth, slack_channel
from formatters.slack import render_slack

if TYPE_CHECKING:
    from bot.app import App

Render = Callable[[Document], list[JSON]]


class SlackPlatform(Platform):
    """`poster` is called on first post only, so naming or checking a channel needs no
    token; `missing` says why posting is impossible (no SLACK_BOT_TOKEN), if it is."""

    name = NAME

    def __init__(
        self,
        poster: Callable[[], SlackPoster],
        *,
        missing: str | None = None,
        render: Render | None = None,
    ) -> None:
        self._poster = poster
        self._missing = missing
        self._render = render

    # ------------------------------------------------------------------ posting

    def render(self, document: Document, channel: str | None = None) -> list[JSON]:
        if self._render is not None:
            return self._render(document)
        return render_slack(document, channel)

    def channel_problem(self, channel: str) -> str | None:
        return chat_channel_problem(NAME, channel)

    def available(self) -> str | None:
        return self._missing

    async def post_thread(self, post: Post) -> DeliveryResult:
        return await self._poster().post_document(
            post.store,
            document_id=post.document_id,
            channel=post.channel,
            payloads=post.payloads,
            force=post.force,
            attachment=post.attachment,
        )

    async def post_message(self, channel: str, text: str) -> Sent:
        return await self._poster().post_message(channel, {"text": text})

    # ------------------------------------------------------------------ running it

    @classmethod
    def missing_tokens(cls, config: Config, env: Environment) -> list[str]:
        problems: list[str] = []
        targets = [t.channel for t in config.digest.targets if t.platform == NAME]
        bot_token = bool(secret(env.slack_bot_token))
        if targets and not bot_token:
            problems.append(english("error.tokens.slack_bot", channels=", ".join(targets)))
        if bot_token or targets:
            if config.slack.mode == "socket" and not secret(env.slack_app_token):
                problems.append(english("error.tokens.slack_socket"))
            if config.slack.mode == "http" and not secret(env.slack_signing_secret):
                problems.append(english("error.tokens.slack_http"))
        elif secret(env.slack_app_token) or secret(env.slack_signing_secret):
            problems.append(english("error.tokens.slack_no_bot"))
        return problems

    @classmethod
    async def checks(cls, config: Config, env: Environment) -> list[Probe]:
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

    @classmethod
    def readiness(cls, env: Environment) -> Callable[[], Awaitable[Probe]] | None:
        if not secret(env.slack_bot_token):
            return None
        return lambda: slack_auth(env)

    @classmethod
    def serve(cls, services: App) -> tuple[list[Route], list[Component]]:
        if not secret(services.env.slack_bot_token):
            return [], []
        # Lazy: slack-bolt (the command app, Socket Mode) is for serve alone.
        from bot.slack.app import build_slack_bot
        from bot.slack.http import events_route
        from bot.slack.socket import SlackSocket

        if services.config.slack.mode == "http":
            return [events_route(build_slack_bot(services))], []
        return [], [SlackSocket(services)]
