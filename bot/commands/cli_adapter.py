"""`vllm-bot chat "/vllm …"`: the command layer with a terminal as the platform."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.commands.backend import ServicesBackend
from bot.commands.context import Context, SubscriptionService
from bot.commands.dispatch import handle

if TYPE_CHECKING:
    from bot.services import Services


def services_context(
    services: Services,
    *,
    platform: str,
    channel: str | None,
    user: str | None,
    language: str | None = None,
    subscriptions: SubscriptionService | None = None,
) -> Context:
    """A Context over the running bot's services (used by every adapter)."""
    from bot.commands.context import channel_language

    return Context(
        platform=platform,
        config=services.config,
        backend=ServicesBackend(services),
        channel=channel,
        user=user,
        language=language or channel_language(services.config, platform, channel),
        subscriptions=subscriptions
        if subscriptions is not None
        else getattr(services, "subscriptions", None),
    )


async def run_chat(
    services: Services, text: str, *, channel: str | None, user: str | None
) -> tuple[str, bool]:
    """The reply as terminal text, and whether the command succeeded."""
    ctx = services_context(services, platform="cli", channel=channel, user=user)
    reply = await handle(text, ctx)
    if reply.document is None:
        return reply.text, reply.ok
    from bot.digest.render import render_markdown

    body = render_markdown(reply.document)
    if reply.post_to_channel:
        # A terminal has no channel to post in; say so instead of silently dropping 'post'.
        body += "\n\n(not posted: `vllm-bot chat` only prints; use `vllm-bot digest --post`)"
    return body, reply.ok
