"""Build the static archive's pages (index, week pages, module pages, Atom feeds) from
the store as it is.

Called by `vllm-bot archive` (bot.cli, which imports this module for that command only);
the web server serves the same pages through
bot.digest.archive's cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bot.core.errors import MessageError
from bot.digest.archive import archive_pages, write_site
from bot.services import Services


async def build_archive(
    services: Services, repos: Sequence[str] | None, *, weeks: int, languages: Sequence[str]
) -> dict[str, str]:
    """Path -> page of the archive of `repos` (None: every configured repository); raises
    UsageError when the store holds nothing to archive."""
    pages = await archive_pages(services, repos, weeks=weeks, languages=languages)
    if len(pages) <= 1:
        raise MessageError("error.archive.empty")
    return pages


async def write_archive(
    services: Services,
    repos: Sequence[str] | None,
    out_dir: Path,
    *,
    weeks: int,
    languages: Sequence[str],
) -> int:
    """`build_archive` written into `out_dir`: the number of files written. UsageError
    when the store holds nothing to archive or the folder cannot be written."""
    pages = await build_archive(services, repos, weeks=weeks, languages=languages)
    try:
        return write_site(pages, out_dir)
    except OSError as exc:
        raise MessageError(
            "error.cannot_write", path=str(out_dir), reason=str(exc.strerror)
        ) from None
