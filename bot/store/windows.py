"""The sync-window aggregate: which spans of a repository's merged PRs the store holds
completely (`sync_windows`), so a synced week is never fetched again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.store.sql import upsert
from bot.store.tables import sync_windows


@dataclass(frozen=True, slots=True)
class SyncWindow:
    repo: str
    start: datetime
    end: datetime
    complete: bool
    pr_count: int
    fingerprint: str | None
    synced_at: datetime | None
    checked_at: datetime | None


class SyncWindows:
    def __init__(self, session: async_sessionmaker[AsyncSession], engine: AsyncEngine) -> None:
        self.session = session
        self.engine = engine

    async def get(self, repo: str, start: datetime, end: datetime) -> SyncWindow | None:
        async with self.session() as session:
            row = (
                await session.execute(
                    select(sync_windows).where(
                        sync_windows.c.repo == repo,
                        sync_windows.c.start == start,
                        sync_windows.c.end == end,
                    )
                )
            ).first()
        return _window(row) if row else None

    async def overlapping(self, repo: str, start: datetime, end: datetime) -> list[SyncWindow]:
        """Windows of `repo` that overlap [start, end), by start."""
        async with self.session() as session:
            rows = await session.execute(
                select(sync_windows)
                .where(
                    sync_windows.c.repo == repo,
                    sync_windows.c.start < end,
                    sync_windows.c.end > start,
                )
                .order_by(sync_windows.c.start)
            )
            return [_window(r) for r in rows]

    async def is_covered(self, repo: str, start: datetime, end: datetime) -> bool:
        """True when complete windows cover [start, end) without a gap."""
        return not await self.gaps(repo, start, end)

    async def gaps(
        self, repo: str, start: datetime, end: datetime
    ) -> list[tuple[datetime, datetime]]:
        """The parts of [start, end) no complete window covers, in order (none: covered)."""
        missing: list[tuple[datetime, datetime]] = []
        cursor = start
        for window in await self.overlapping(repo, start, end):
            if not window.complete or window.end <= cursor:
                continue
            if window.start > cursor:
                missing.append((cursor, min(window.start, end)))
            cursor = max(cursor, window.end)
            if cursor >= end:
                return missing
        if cursor < end:
            missing.append((cursor, end))
        return missing

    async def mark(
        self,
        repo: str,
        start: datetime,
        end: datetime,
        *,
        complete: bool,
        pr_count: int,
        fingerprint: str | None = None,
        synced: bool = True,
        session: AsyncSession | None = None,
    ) -> None:
        """Record a window's state. `synced=False` records only a confirmation check;
        `session`: the caller's transaction (an import's, with the PRs it writes)."""
        now = datetime.now(UTC)
        values = {
            "repo": repo,
            "start": start,
            "end": end,
            "complete": complete,
            "pr_count": pr_count,
            "fingerprint": fingerprint,
            "checked_at": now,
        }
        if synced:
            values["synced_at"] = now
        stmt = upsert(self.engine, sync_windows).values(values)
        stmt = stmt.on_conflict_do_update(
            index_elements=["repo", "start", "end"],
            set_={k: stmt.excluded[k] for k in values if k not in ("repo", "start", "end")},
        )
        if session is not None:
            await session.execute(stmt)
            return
        async with self.session.begin() as own:
            await own.execute(stmt)


def _window(row: Row[Any]) -> SyncWindow:
    return SyncWindow(
        row.repo,
        row.start,
        row.end,
        row.complete,
        row.pr_count,
        row.fingerprint,
        row.synced_at,
        row.checked_at,
    )
