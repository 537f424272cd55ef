"""Post a built digest to a chat channel (CLI `--post`, `/vllm digest post`, the scheduler).

Everything goes through the `bot.platform.Platform` of the target: the platform renders the
Document with its formatter and posts the parts in order through `bot.delivery.deliver`,
which records each in the delivery ledger, so a restart resumes and a re-run posts nothing
new. The trends chart (PNG, with alt text) is the thread's last part, through the same
ledger.

A delivery that could not post every part raises `DeliveryIncomplete`, naming the missing
parts: the CLI exits 1, a scheduled job is retried, a chat command says so.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.core.i18n import message
from bot.delivery import Attachment, DeliveryIncomplete, DeliveryResult

if TYPE_CHECKING:
    from bot.core.document import Document
    from bot.digest.pipeline import BuiltDigest
    from bot.platform import Platform, PostingServices
    from bot.store.deliveries import Deliveries

log = logging.getLogger(__name__)


async def post_digest(
    services: PostingServices,
    built: BuiltDigest,
    platform: str | Platform,
    channel: str,
    *,
    force: bool = False,
    chart: bool = True,
) -> DeliveryResult:
    """Post `built` to `platform:channel` (with the trends chart unless `chart` is False
    or the target says `chart = false`); raises DeliveryIncomplete unless every part is
    posted, UsageError for a platform the registry does not know."""
    target = services.platforms.get_platform(platform) if isinstance(platform, str) else platform
    chart = chart and _target_wants_chart(services, target.name, channel)
    if chart and not target.attaches(channel):
        log.info("%s:%s takes no files: the chart is not attached", target.name, channel)
        chart = False
    return await post_document(
        services.store.deliveries,
        target,
        built.document,
        channel,
        force=force,
        attachment=_chart(built) if chart else None,
    )


async def post_document(
    store: Deliveries,
    platform: Platform,
    document: Document,
    channel: str,
    *,
    force: bool = False,
    attachment: Attachment | None = None,
) -> DeliveryResult:
    """Post `document` as a thread on `platform` through the ledger; raises
    DeliveryIncomplete unless every part is posted (another run holding a part included).
    The one path of the CLI, the scheduler and the chat `/vllm digest post`."""
    result = await platform.post_document(
        store, document, channel, force=force, attachment=attachment
    )
    if not result.complete:
        raise DeliveryIncomplete(result)
    return result


def _target_wants_chart(services: PostingServices, platform: str, channel: str) -> bool:
    for target in services.config.digest.targets:
        if target.platform == platform and target.channel == channel:
            return target.chart
    return True


def _chart(built: BuiltDigest) -> Attachment | None:
    """The trends chart, or None (logged) when there is no history or it cannot render:
    the digest is posted without it."""
    digest = built.digest
    if digest.history is None or not digest.history.weeks:
        return None
    try:
        # Lazy: matplotlib only for a digest that has a chart to post.
        from bot.digest.charts import png_chart

        png = png_chart(digest, built.language)
    except Exception as exc:  # matplotlib or a font missing: the text matters more
        log.warning("the trends chart of %s could not be drawn (%s); posting without it",
                    built.document.id, exc)  # fmt: skip
        return None
    name = built.document.id.replace(":", "-").replace("/", "-")
    return Attachment(png.data, f"{name}.png", built.document.title, png.alt_text)


def incomplete_message(result: DeliveryResult, week: str, language: str) -> str:
    """What a chat user reads when a post stopped short, in the channel's language."""
    why = ""
    if result.busy_part is not None:
        why = message(language, "posting.incomplete.busy", part=str(result.busy_part + 1))
    return message(
        language,
        "posting.incomplete",
        week=week,
        done=str(len(result.done)),
        parts=str(result.parts),
        missing=", ".join(str(i + 1) for i in result.missing),
        why=why,
    )
