"""Digest facts kept in the store between processes (`bot.analysis.themes.Kept`): the
phrase tables of titles, the detections of the weeks before the window, and the summary
and purpose sentences of descriptions (`bot.digest.summary`).

Every key hashes all of a fact's inputs and the code that derives it (`themes.memo_key`,
`summary.text_key`), so a kept fact is never stale: a changed PR, rule set or code reads no
old row, and the store's rows are only added and expired.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from bot.analysis import themes
from bot.core.errors import StoreError, one_line
from bot.digest import summary

if TYPE_CHECKING:
    from bot.store import Store

log = logging.getLogger(__name__)


@asynccontextmanager
async def kept_themes(store: Store, scope: str) -> AsyncIterator[themes.Kept]:
    """Theme detection and description sentences inside the block read the facts `store`
    keeps for `scope` (a repository) and, when the block succeeds, the new ones are saved."""
    memo = store.theme_memo
    try:
        # Only the rows this code wrote: an upgrade's old ones are left to expire unread.
        entries = await memo.load(scope, (themes.memo_prefix(), summary.memo_prefix()))
    except StoreError as exc:
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
        except StoreError as exc:
            # A cache: a read-only (or locked) store still answers, just slower next time.
            log.info("theme memo not saved (%s)", one_line(str(exc), 120))
