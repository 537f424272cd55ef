"""Build a command's `Context` over the running bot's services (every chat adapter)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.commands.context import Backend, Context, channel_language

if TYPE_CHECKING:
    from bot.alerts.subscriptions import SubscriptionService
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
    return Context(
        platform=platform,
        config=services.config,
        backend=Backend(services),
        channel=channel,
        user=user,
        language=language or channel_language(services.config, platform, channel),
        subscriptions=subscriptions
        if subscriptions is not None
        else getattr(services, "subscriptions", None),
    )
