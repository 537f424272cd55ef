"""The terminal behind the `bot.platform.Platform` interface: a document is printed as
markdown, one message is printed as a line. The terminal keeps no history, so nothing is
recorded in the delivery ledger: every post prints (a re-run is expected to print again).
It has one channel, standard output ("-")."""

from __future__ import annotations

import sys
from typing import TextIO

from bot.core.document import Document
from bot.core.models import JSON
from bot.core.validators import echo
from bot.delivery import DeliveryResult, Sent
from bot.platform import PlatformBase, Post

NAME = "terminal"
STDOUT = "-"


class TerminalPlatform(PlatformBase):
    name = NAME

    def __init__(self, out: TextIO | None = None) -> None:
        # None: the stream at the time of printing (pytest and the CLI swap sys.stdout).
        self._out = out

    @property
    def out(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def render(self, document: Document, channel: str | None = None) -> list[JSON]:
        # Lazy: jinja2 and the templates only when something is printed.
        from bot.digest.render import render_markdown

        return [{"text": render_markdown(document)}]

    def channel_problem(self, channel: str) -> str | None:
        if channel in (STDOUT, "stdout"):
            return None
        return (
            f"bad terminal channel {echo(channel)}: the terminal has one channel, "
            f"{STDOUT!r} (standard output)"
        )

    async def post_thread(self, post: Post) -> DeliveryResult:
        for payload in post.payloads:
            self.out.write(str(payload["text"]))
        parts = len(post.payloads)
        if post.attachment is not None:
            # A terminal shows no image: the chart's alt text says what it shows.
            self.out.write(f"[{post.attachment.filename}] {post.attachment.alt_text}\n")
            parts += 1
        self.out.flush()
        return DeliveryResult(
            post.document_id, NAME, post.channel, parts=parts, sent=list(range(parts))
        )

    async def post_message(self, channel: str, text: str) -> Sent:
        self.out.write(text.rstrip("\n") + "\n")
        self.out.flush()
        return Sent(message_id=STDOUT)
