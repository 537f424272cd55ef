"""A release's card or its full notes, from GitHub or, while GitHub is down, the store.

Called by `/vllm release` (bot.commands handlers); `vllm-bot digest --release` builds the
notes through bot.releases.pipeline with the CLI's own sync choice.
"""

from __future__ import annotations

import logging

from bot.core.document import Document
from bot.core.errors import GitHubError, UsageError
from bot.services import Services

log = logging.getLogger(__name__)


async def release_document(
    services: Services, repo: str, tag: str | None, language: str, *, card: bool = True
) -> Document:
    """The card of `tag` (the newest release when None), or with `card=False` its full
    notes; raises UsageError for an unknown tag."""
    # Lazy: the release pipeline loads only for a release.
    from bot.digest.archive_paths import release_url
    from bot.releases.pipeline import build_release

    try:
        built = await build_release(services, repo, tag, language)
    except GitHubError as exc:
        # The stored release while GitHub is down, when the store has it.
        log.warning("release %s of %s from the store: GitHub failed: %s", tag, repo, exc)
        try:
            built = await build_release(services, repo, tag, language, sync=False)
        except UsageError:
            raise exc from None
    if not card:
        return built.document
    base = services.config.web.archive_url()
    return built.card(release_url(base, repo, built.digest.tag, language))
