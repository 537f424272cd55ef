"""Build the static archive's pages (index, week pages, module pages, Atom feeds) from
the store as it is.

Called by `vllm-bot archive` (bot.cli); the web server serves the same pages through
bot.digest.archive's cache.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.errors import MessageError
from bot.services import Services


async def build_archive(
    services: Services, repos: Sequence[str] | None, *, weeks: int, languages: Sequence[str]
) -> dict[str, str]:
    """Path -> page of the archive of `repos` (None: every configured repository); raises
    UsageError when the store holds nothing to archive."""
    # Lazy: the archive site builder (~130 ms) loads only for the archive.
    from bot.digest.archive import archive_pages

    pages = await archive_pages(services, repos, weeks=weeks, languages=languages)
    if len(pages) <= 1:
        raise MessageError("error.archive.empty")
    return pages
