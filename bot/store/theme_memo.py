"""The theme memo aggregate: facts of theme detection kept between processes, by scope (a
repository) and a key that hashes their inputs (`bot.digest.theme_memo` decides what
is valid: a key never names two different values, so rows are only added and expired)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, delete, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.store.sql import chunks, upsert
from bot.store.tables import theme_memo

# Rows older than this are dropped when new ones are saved: the weeks a digest reads are
# the last ten or so, and whatever expires is recomputed (and kept again) when needed.
KEEP = timedelta(days=120)


class ThemeMemo:
    def __init__(self, session: async_sessionmaker[AsyncSession], engine: AsyncEngine) -> None:
        self.session = session
        self.engine = engine

    async def load(self, scope: str, prefixes: Sequence[str] | None = None) -> dict[str, str]:
        """The kept entries of `scope`, key -> data: every one, or those whose key starts
        with one of `prefixes` (hexadecimal, as the digest's keys)."""
        where = [theme_memo.c.scope == scope]
        if prefixes is not None and not prefixes:
            return {}
        if prefixes is not None:
            # A range of the primary key per prefix: both databases read it from the index.
            where.append(
                or_(*(and_(theme_memo.c.key >= p, theme_memo.c.key < p + "g") for p in prefixes))
            )
        async with self.session() as session:
            rows = await session.execute(select(theme_memo.c.key, theme_memo.c.data).where(*where))
            return {key: data for key, data in rows}

    async def save(
        self, scope: str, entries: Mapping[str, str], now: datetime | None = None
    ) -> None:
        """Keep `entries` (key -> data) under `scope`, and drop the scope's expired rows."""
        if not entries:
            return
        now = now or datetime.now(UTC)
        values = [
            {"scope": scope, "key": key, "data": data, "created_at": now}
            for key, data in entries.items()
        ]
        async with self.session.begin() as session:
            await session.execute(
                delete(theme_memo).where(
                    theme_memo.c.scope == scope, theme_memo.c.created_at < now - KEEP
                )
            )
            for chunk in chunks(values):
                stmt = upsert(self.engine, theme_memo).values(list(chunk))
                # Same key, same value: a concurrent run's row is as good as ours.
                await session.execute(stmt.on_conflict_do_nothing(index_elements=["scope", "key"]))
