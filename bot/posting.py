"""Post a built digest to a chat channel (CLI `--post`, `/vllm digest post`, the scheduler).

Each platform's poster renders nothing itself: the Document goes through the platform's
formatter, then `bot.delivery.deliver` posts the parts in order and records each in the
delivery ledger, so a restart resumes and a re-run posts nothing new.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.delivery import DeliveryResult
from bot.errors import UsageError

if TYPE_CHECKING:
    from bot.digest.pipeline import BuiltDigest
    from bot.services import Services

PLATFORMS = ("slack", "discord")


async def post_digest(
    services: Services,
    built: BuiltDigest,
    platform: str,
    channel: str,
    *,
    force: bool = False,
    chart: bool = True,
) -> DeliveryResult:
    if platform == "slack":
        return await _post_slack(services, built, channel, force)
    if platform == "discord":
        return await _post_discord(services, built, channel, force)
    raise UsageError(f"unknown platform {platform!r}: accepted {', '.join(PLATFORMS)}")


async def _post_slack(
    services: Services, built: BuiltDigest, channel: str, force: bool
) -> DeliveryResult:
    from formatters.slack import render_slack

    poster = services.slack_poster()
    return await poster.post_document(
        services.store,
        document_id=built.document.id,
        channel=channel,
        payloads=render_slack(built.document),
        force=force,
    )


def _discord_webhook_for(services: Services, channel: str) -> str | None:
    for target in services.config.digest.targets:
        if target.platform == "discord" and target.channel == channel and target.webhook_url:
            return target.webhook_url
    return None


async def _post_discord(
    services: Services, built: BuiltDigest, channel: str, force: bool
) -> DeliveryResult:
    from bot.discord.endpoints import DiscordEndpoints
    from bot.discord.poster import post_document

    webhook = _discord_webhook_for(services, channel)
    if webhook is not None:
        # Webhook requests go to DISCORD_API_URL like every Discord call (docs/discord.md §3).
        return await post_document(
            services.store,
            built.document,
            channel=channel,
            webhook_url=webhook,
            force=force,
            endpoints=DiscordEndpoints.from_env(services.env),
        )
    # The process's one bot connection, shared with alerts (rate-limit buckets included).
    poster = services.discord_poster()
    return await post_document(
        services.store, built.document, channel=channel, http=await poster.http(), force=force
    )
