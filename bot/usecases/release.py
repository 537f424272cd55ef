"""A release's notes or its card, from GitHub or the store: the one home of the release use
case for `vllm-bot digest --release` (`release_notes`) and `/vllm release`
(`release_document`), so both name the same PRs in the same sections.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.core.document import Document
from bot.core.errors import GitHubError, UsageError
from bot.digest.archive_paths import release_url
from bot.services import Services

if TYPE_CHECKING:
    from bot.releases.pipeline import BuiltRelease

log = logging.getLogger(__name__)


async def release_notes(
    services: Services,
    repo: str | None,
    tag: str | None,
    language: str,
    *,
    base: str | None = None,
    sync: bool = True,
    store_when_down: bool = False,
) -> BuiltRelease:
    """The release digest of `tag` (the newest release when None) against `base` (the
    previous tag when None), its notes in `language`. `sync=False` reads the store only;
    with `store_when_down` a GitHub failure falls back to the stored release when the store
    has it (the chat), else it is raised (the CLI: its line says how to run offline)."""
    # Lazy: the release pipeline (analysis, themes, renderers) is ~345 ms of imports on top
    # of the chat's commands (-X importtime), paid only by a release.
    from bot.releases.pipeline import build_release

    try:
        return await build_release(services, repo, tag, language, base=base, sync=sync)
    except GitHubError as exc:
        if not (sync and store_when_down):
            raise
        log.warning(
            "%s of %s from the store: GitHub failed: %s",
            f"release {tag}" if tag else "the newest release",
            repo or services.config.repo(None).name,
            exc,
        )
        try:
            return await build_release(services, repo, tag, language, base=base, sync=False)
        except UsageError:
            raise exc from None


async def release_document(
    services: Services, repo: str, tag: str | None, language: str, *, card: bool = True
) -> Document:
    """The card of `tag` (the newest release when None), or with `card=False` its full
    notes; raises UsageError for an unknown tag. While GitHub is down: the stored release."""
    built = await release_notes(services, repo, tag, language, store_when_down=True)
    if not card:
        return built.document
    base = services.config.web.archive_url()
    return built.card(release_url(base, repo, built.digest.tag, language))
