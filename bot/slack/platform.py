"""Slack behind the `bot.platform.Platform` interface: Block Kit from formatters/slack.py,
posted by the process's one `SlackPoster` (its pacing shared by digests, alerts and
command replies), a thread per document, the chart as its last part."""

from __future__ import annotations

from collections.abc import Callable

from bot.core.document import Document
from bot.core.models import JSON
from bot.core.validators import chat_channel_problem
from bot.delivery import DeliveryResult, Sent
from bot.platform import PlatformBase, Post
from bot.slack import NAME
from bot.slack.poster import SlackPoster
from formatters.slack import render_slack

Render = Callable[[Document], list[JSON]]


class SlackPlatform(PlatformBase):
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
