"""The theme memo aggregate: facts of theme detection kept between processes, by scope (a
repository) and a key that hashes their inputs (`bot.digest.theme_memo` decides what
is valid: a key never names two different values, so rows are only added and expired)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.store.sql import chunks, table_of, upsert
from bot.store.tables import ThemeMemoRow

# Rows older than this are dropped when new ones are saved: the weeks a digest reads are
# the last ten or so, and whatever expires is recomputed (and kept again) when needed.
KEEP = timedelta(days=120)


class ThemeMemo:
    def __init__(self, session: async_sessionmaker[AsyncSession], engine: AsyncEngine) -> None:
        self.session = session
        self.engine = engine

    async def load(self, scope: str) -> dict[str, str]:
        """Every kept entry of `scope`, key -> data."""
        async with self.session() as session:
            rows = await session.execute(
                select(ThemeMemoRow.key, ThemeMemoRow.data).where(ThemeMemoRow.scope == scope)
            )
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
                delete(ThemeMemoRow).where(
                    ThemeMemoRow.scope == scope, ThemeMemoRow.created_at < now - KEEP
                )
            )
            for chunk in chunks(values):
                stmt = upsert(self.engine, table_of(ThemeMemoRow)).values(list(chunk))
                # Same key, same value: a concurrent run's row is as good as ours.
                await session.execute(stmt.on_conflict_do_nothing(index_elements=["scope", "key"]))
