"""The HTTP cache aggregate: GitHub REST bodies by URL with their ETag (conditional GETs
cost no rate limit) and repository snapshots (`bot.github.repo_files` fetches them; every
command of a `modules = "auto"` repository reads the stored copy, here, without the GitHub
client)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.store.sql import upsert
from bot.store.tables import http_cache


@dataclass(frozen=True, slots=True)
class CachedResponse:
    url: str
    etag: str
    body: str
    link: str | None  # the Link header, for pagination
    fetched_at: datetime


@dataclass(slots=True)
class RepoSnapshot:
    files: dict[str, str | None] = field(default_factory=dict)  # path -> text, None: absent
    top_level_dirs: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SnapshotFailure:
    at: datetime
    reason: str


def _snapshot_key(repo: str) -> str:
    return f"snapshot:{repo}"


def _failure_key(repo: str) -> str:
    return f"snapshot-failed:{repo}"


class HTTPCache:
    def __init__(self, session: async_sessionmaker[AsyncSession], engine: AsyncEngine) -> None:
        self.session = session
        self.engine = engine

    async def get(self, url: str) -> CachedResponse | None:
        async with self.session() as session:
            row = (await session.execute(select(http_cache).where(http_cache.c.url == url))).first()
        return None if row is None else CachedResponse(**row._mapping)

    async def put(self, url: str, etag: str, body: str, link: str | None) -> None:
        values = {
            "url": url,
            "etag": etag,
            "body": body,
            "link": link,
            "fetched_at": datetime.now(UTC),
        }
        stmt = upsert(self.engine, http_cache).values(values)
        stmt = stmt.on_conflict_do_update(
            index_elements=["url"], set_={k: stmt.excluded[k] for k in values if k != "url"}
        )
        async with self.session.begin() as session:
            await session.execute(stmt)

    # ------------------------------------------------------------ repository snapshots

    async def snapshot(self, repo: str) -> tuple[RepoSnapshot, datetime] | None:
        """The stored snapshot of `repo` and when it was fetched; None before the first."""
        row = await self.get(_snapshot_key(repo))
        if row is None:
            return None
        data = json.loads(row.body)
        return RepoSnapshot(files=data["files"], top_level_dirs=data["dirs"]), row.fetched_at

    async def put_snapshot(self, repo: str, snapshot: RepoSnapshot) -> None:
        body = json.dumps({"files": snapshot.files, "dirs": snapshot.top_level_dirs})
        await self.put(_snapshot_key(repo), "", body, None)

    async def snapshot_failed(self, repo: str, reason: str) -> None:
        """Remember a failed refresh (when and why), so the next waits (`bot.github.repo_files`)."""
        await self.put(_failure_key(repo), "", reason, None)

    async def snapshot_failure(self, repo: str) -> SnapshotFailure | None:
        """The last failed refresh of `repo`'s snapshot, if it came after the last success."""
        failed = await self.get(_failure_key(repo))
        if failed is None:
            return None
        stored = await self.get(_snapshot_key(repo))
        if stored is not None and stored.fetched_at >= failed.fetched_at:
            return None
        return SnapshotFailure(failed.fetched_at, failed.body)
