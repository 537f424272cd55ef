"""The HTTP cache aggregate: GitHub REST bodies by URL with their ETag (conditional GETs
cost no rate limit) and repository snapshots (`bot.github.repo_files`)."""

from __future__ import annotations

from dataclasses import dataclass
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
