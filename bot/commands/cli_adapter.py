"""`vllm-bot chat "/vllm …"`: the command layer with a terminal as the platform."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.commands.context import channel_language
from bot.commands.dispatch import parse_error
from bot.commands.driver import Responder, drive
from bot.commands.registry import help_text, parse
from bot.commands.reply import Reply
from bot.commands.syntax import Command, CommandError, HelpCommand
from bot.core.errors import MessageError
from bot.core.i18n import message
from bot.core.validators import CHAT_PLATFORMS, chat_channel_problem, echo

if TYPE_CHECKING:
    from bot.core.config import Config
    from bot.services import Services


TERMINAL = "cli"  # `--channel`'s default: the terminal itself


def chat_address(channel: str | None) -> tuple[str, str | None]:
    """`--channel slack:C0123` or `discord:1234` acts for that channel; `cli` (or none) is
    the terminal. A bare id (`C0123`) names no platform: it is refused, not taken for the
    terminal, whose answers (no subscriptions there) would silently differ."""
    if not channel or channel == TERMINAL:
        return TERMINAL, channel
    platform, sep, rest = channel.partition(":")
    if not (sep and platform in CHAT_PLATFORMS and rest):
        raise MessageError("error.cli.channel_platform", value=echo(channel))
    if (problem := chat_channel_problem(platform, rest)) is not None:
        raise MessageError("error.cli.channel", problem=problem)
    return platform, rest


class TerminalSurface(Responder):
    """`vllm-bot chat` as a surface: nothing to acknowledge, the answer is printed.

    The progress line is handed to `progress` (stderr in a terminal), so the printed
    reply stays the command's one answer and scripts can read it."""

    platform = "cli"

    def __init__(self, language: str, progress: Callable[[str], None] | None = None) -> None:
        self.language = language
        self.progress = progress
        self.output: list[str] = []

    async def respond(self, reply: Reply, command: Command | None) -> Reply:
        self.output.append(self.text(reply))
        return reply

    async def acknowledge(self, text: str, *, public: bool) -> None:
        if self.progress is not None:
            self.progress(text)

    async def follow_up(self, reply: Reply, command: Command) -> Reply:
        return await self.respond(reply, command)

    def text(self, reply: Reply) -> str:
        if reply.document is None:
            return reply.text
        # Lazy: bot.cards pulls in the analysis; `chat "/vllm help"` should not pay for it.
        from bot.cards import document_text

        body = document_text(reply.document)
        if reply.post_to_channel:
            # A terminal has no channel to post in; say so instead of silently dropping 'post'.
            body += "\n\n" + message(self.language, "cmd.chat_not_posted")
        return body


def reply_without_store(text: str, channel: str | None, config: Config) -> tuple[str, int] | None:
    """Help and malformed commands typed at the terminal, answered from the config alone
    as `drive` answers them; None for every other command (it needs the store).

    A terminal channel has no subscriptions (they are refused there), so its language is
    the config's or its digest target's, and `chat "/vllm help"` opens no store."""
    platform, address = chat_address(channel)
    if platform != "cli":
        return None
    language = channel_language(config, platform, address) or config.language
    try:
        command = parse(text)
    except CommandError as exc:
        reply = parse_error(exc, language)
    else:
        if not isinstance(command, HelpCommand):
            return None
        reply = Reply(text=help_text(command.topic, language))
    return TerminalSurface(language).text(reply), reply.exit_code


async def run_chat(
    services: Services,
    text: str,
    *,
    channel: str | None,
    user: str | None,
    progress: Callable[[str], None] | None = None,
) -> tuple[str, int]:
    """The reply as terminal text and the CONTRACT exit status (0, 2 bad input, 1 failure)."""
    # Lazy: the store behind the services (~75 ms of tables and queries) stays off the
    # replies above, which need none (measured with bench/bench_cold_start.py).
    from bot.commands.backend import services_context

    platform, address = chat_address(channel)
    ctx = services_context(services, platform=platform, channel=address, user=user)
    surface = TerminalSurface(ctx.lang, progress)
    reply = await drive(text, ctx, surface, quick_timeout=None)
    return "\n".join(surface.output), reply.exit_code
