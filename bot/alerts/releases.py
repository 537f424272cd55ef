"""Release notes to the channels that follow a repository's releases.

A channel follows releases through `[[releases.targets]]` or `/vllm subscribe releases`.
When GitHub publishes a release (the `release` webhook, action `published`, or the poll of
releases in `serve`) the release is built once, its notes written in each channel's language
and posted through the delivery ledger (`bot.posting.post_document`), so a re-delivered webhook, a
poll after the webhook, or a restart in the middle posts nothing twice: the ledger key is
the notes' document id (repository, tag, base, language).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.alerts.repository import Subscriptions
from bot.core.errors import BotError
from bot.delivery import DeliveryResult
from bot.posting import post_document
from bot.releases.pipeline import BuiltRelease, build_release

if TYPE_CHECKING:
    from bot.platform import PostingServices

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ReleaseChannel:
    platform: str
    channel: str
    language: str


async def release_channels(services: PostingServices, repo: str) -> list[ReleaseChannel]:
    """Every channel following `repo`'s releases, each once (a config target wins over a
    subscription of the same channel: it names the language)."""
    config = services.config
    found: dict[tuple[str, str], ReleaseChannel] = {}
    for target in config.releases.targets:
        if target.repo is not None and target.repo.lower() != repo.lower():
            continue
        language: str = target.language or config.language
        found.setdefault(
            (target.platform, target.channel),
            ReleaseChannel(target.platform, target.channel, language),
        )
    for sub in await Subscriptions(services.store).find():
        if not sub.releases or (sub.repo is not None and sub.repo.lower() != repo.lower()):
            continue
        language = sub.language or sub.filters.language or str(config.language)
        found.setdefault(
            (sub.platform, sub.channel), ReleaseChannel(sub.platform, sub.channel, language)
        )
    return list(found.values())


async def post_release(
    services: PostingServices, repo: str, tag: str, *, force: bool = False
) -> list[DeliveryResult]:
    """Post `tag`'s notes to every channel following `repo`; one channel failing does not
    stop the others (each is retried by the next webhook delivery or poll)."""
    channels = await release_channels(services, repo)
    built: dict[str, BuiltRelease] = {}
    results = []
    failed = False
    for target in channels:
        if target.language not in built:
            if built:
                built[target.language] = next(iter(built.values())).in_language(target.language)
            else:
                built[target.language] = await build_release(services, repo, tag, target.language)
        try:
            platform = services.platforms.get_platform(target.platform)
            results.append(
                await post_document(
                    services.store.deliveries,
                    platform,
                    built[target.language].document,
                    target.channel,
                    force=force,
                )
            )
        except BotError as exc:
            failed = True
            log.warning(
                "release %s of %s not posted to %s:%s: %s",
                tag,
                repo,
                target.platform,
                target.channel,
                exc,
            )
    if built and not failed:
        # Every channel has it: the poll stops asking GitHub for this release. Until then
        # each poll tries again, and the ledger skips the channels already done.
        digest = next(iter(built.values())).digest
        await services.store.releases.mark_announced(repo, digest.tag, digest.base)
    return results


async def poll_releases(services: PostingServices) -> str:
    """`serve`'s poll: post each repository's newest published release not announced yet
    (the webhook's may have come first: the ledger then posts nothing). Returns the log
    line's summary ("" when nothing was new)."""
    # Lazy: GitHub listings load only when the poll runs.
    from bot.github.releases import list_tags
    from bot.releases.versions import newest_tag

    posted = 0
    for repo in services.config.repos:
        if not await release_channels(services, repo.name):
            continue
        tags = await list_tags(services.github(), repo.name)
        newest = newest_tag(list(tags.release_urls))
        if newest is None:
            continue
        stored = await services.store.releases.get(repo.name, newest)
        if stored is not None and stored.announced:
            continue
        await post_release(services, repo.name, newest)
        posted += 1
    return f"{posted} new releases posted" if posted else ""
