"""Theme-detection facts kept in the store between processes (`bot.analysis.themes.Kept`):
the phrase tables of titles and the detections of the weeks before the window.

Every key hashes all of a fact's inputs and the detection code (`themes.memo_key`), so a
kept fact is never stale: a changed PR, rule set or theme code reads no old row, and the
store's rows are only added and expired.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Protocol, runtime_checkable

from sqlalchemy.exc import SQLAlchemyError

from bot.analysis import themes
from bot.core.errors import one_line

log = logging.getLogger(__name__)


@runtime_checkable
class ThemeMemoStore(Protocol):
    """`bot.store.theme_memo.ThemeMemo`, the store's `theme_memo`."""

    async def load(self, scope: str) -> dict[str, str]: ...

    async def save(self, scope: str, entries: Mapping[str, str]) -> None: ...


@asynccontextmanager
async def kept_themes(store: object, scope: str) -> AsyncIterator[themes.Kept | None]:
    """Theme detection inside the block reads the facts `store` keeps for `scope` (a
    repository) and, when the block succeeds, the new ones are saved. Stores without a
    theme memo (test stubs) detect everything."""
    memo = getattr(store, "theme_memo", None)
    if not isinstance(memo, ThemeMemoStore):
        yield None
        return
    try:
        entries = await memo.load(scope)
    except SQLAlchemyError as exc:
        log.info("theme memo not read (%s)", one_line(str(exc), 120))
        entries = {}
    kept = themes.Kept(entries)
    token = themes.keep(kept)
    try:
        yield kept
    finally:
        themes.forget(token)
    if kept.fresh:
        try:
            await memo.save(scope, kept.fresh)
        except SQLAlchemyError as exc:
            # A cache: a read-only (or locked) store still answers, just slower next time.
            log.info("theme memo not saved (%s)", one_line(str(exc), 120))
