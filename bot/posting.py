"""Post a built digest to a chat channel (CLI `--post`, `/vllm digest post`, the scheduler).

Each platform's poster renders nothing itself: the Document goes through the platform's
formatter, then `bot.delivery.deliver` posts the parts in order and records each in the
delivery ledger, so a restart resumes and a re-run posts nothing new. The trends chart
(PNG, with alt text) is the thread's last part, through the same ledger.

A delivery that could not post every part raises `DeliveryIncomplete`, naming the missing
parts: the CLI exits 1, a scheduled job is retried, a chat command says so.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.delivery import Attachment, DeliveryIncomplete, DeliveryResult
from bot.errors import UsageError

if TYPE_CHECKING:
    from bot.digest.pipeline import BuiltDigest
    from bot.services import Services

log = logging.getLogger(__name__)

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
    """Post `built` to `platform:channel` (with the trends chart unless `chart` is False
    or the target says `chart = false`); raises DeliveryIncomplete unless every part is
    posted."""
    if platform not in PLATFORMS:
        raise UsageError(f"unknown platform {platform!r}: accepted {', '.join(PLATFORMS)}")
    chart = chart and _target_wants_chart(services, platform, channel)
    if platform == "slack":
        result = await _post_slack(services, built, channel, force, chart)
    else:
        result = await _post_discord(services, built, channel, force, chart)
    if not result.complete:
        raise DeliveryIncomplete(result)
    return result


def _target_wants_chart(services: Services, platform: str, channel: str) -> bool:
    for target in services.config.digest.targets:
        if target.platform == platform and target.channel == channel:
            return bool(getattr(target, "chart", True))
    return True


def _chart(built: BuiltDigest) -> Attachment | None:
    """The trends chart, or None (logged) when there is no history or it cannot render:
    the digest is posted without it."""
    digest = built.digest
    if digest.history is None or not digest.history.weeks:
        return None
    try:
        from bot.digest.charts import png_chart

        png = png_chart(digest)
    except Exception as exc:  # matplotlib or a font missing: the text matters more
        log.warning("the trends chart of %s could not be drawn (%s); posting without it",
                    built.document.id, exc)  # fmt: skip
        return None
    name = built.document.id.replace(":", "-").replace("/", "-")
    return Attachment(png.data, f"{name}.png", built.document.title, png.alt_text)


async def _post_slack(
    services: Services,
    built: BuiltDigest,
    channel: str,
    force: bool,
    chart: bool,
) -> DeliveryResult:
    from formatters.slack import render_slack

    poster = services.slack_poster()
    return await poster.post_document(
        services.store,
        document_id=built.document.id,
        channel=channel,
        payloads=render_slack(built.document),
        force=force,
        attachment=_chart(built) if chart else None,
    )


def _discord_webhook_for(services: Services, channel: str) -> str | None:
    for target in services.config.digest.targets:
        if target.platform == "discord" and target.channel == channel and target.webhook_url:
            return target.webhook_url
    return None


async def _post_discord(
    services: Services,
    built: BuiltDigest,
    channel: str,
    force: bool,
    chart: bool,
) -> DeliveryResult:
    from bot.discord.endpoints import DiscordEndpoints
    from bot.discord.poster import post_document

    webhook = _discord_webhook_for(services, channel)
    if webhook is not None:
        if chart:
            log.info("discord:%s posts through a webhook: the chart is not attached", channel)
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
        services.store,
        built.document,
        channel=channel,
        http=await poster.http(),
        force=force,
        attachment=_chart(built) if chart else None,
    )
