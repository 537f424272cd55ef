"""The releases aggregate: which PRs each release (tag against base tag) holds."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.store.sql import upsert
from bot.store.tables import releases


@dataclass(slots=True)
class StoredRelease:
    repo: str
    tag: str
    base: str
    base_date: datetime | None
    head_date: datetime | None
    # (reported PR, cherry-pick PR or None), in compare order
    entries: list[tuple[int, int | None]]
    commits: int
    unmapped: list[str] = field(default_factory=list)
    between: list[str] | None = None  # None: the tags were not listed (unknown)
    url: str | None = None
    announced: bool = False  # posted to every channel following the repository's releases


class Releases:
    def __init__(self, session: async_sessionmaker[AsyncSession], engine: AsyncEngine) -> None:
        self.session = session
        self.engine = engine

    async def put(self, release: StoredRelease, *, session: AsyncSession | None = None) -> None:
        """Store `release` (in the caller's `session` when given: an import's, with its PRs)."""
        data = {
            "entries": [list(e) for e in release.entries],
            "commits": release.commits,
            "unmapped": release.unmapped,
            "between": release.between,
            "url": release.url,
            "announced": release.announced,
        }
        values = {
            "repo": release.repo,
            "tag": release.tag,
            "base": release.base,
            "base_date": release.base_date,
            "head_date": release.head_date,
            "data": json.dumps(data),
            "fetched_at": datetime.now(UTC),
        }
        keys = ("repo", "tag", "base")
        stmt = upsert(self.engine, releases).values(values)
        stmt = stmt.on_conflict_do_update(
            index_elements=list(keys),
            set_={k: stmt.excluded[k] for k in values if k not in keys},
        )
        if session is not None:
            await session.execute(stmt)
            return
        async with self.session.begin() as own:
            await own.execute(stmt)

    async def mark_announced(self, repo: str, tag: str, base: str) -> None:
        release = await self.get(repo, tag, base)
        if release is not None and not release.announced:
            release.announced = True
            await self.put(release)

    async def get(self, repo: str, tag: str, base: str | None = None) -> StoredRelease | None:
        """The stored release `tag` (against `base`, or the one stored last)."""
        query = select(releases).where(releases.c.repo == repo, releases.c.tag == tag)
        if base is not None:
            query = query.where(releases.c.base == base)
        async with self.session() as session:
            row = (await session.execute(query.order_by(releases.c.fetched_at.desc()))).first()
        return None if row is None else _release(row)

    async def of_tag(self, repo: str, tag: str) -> list[StoredRelease]:
        """Every stored comparison of `tag` (one per base), the one stored last first."""
        query = select(releases).where(releases.c.repo == repo, releases.c.tag == tag)
        async with self.session() as session:
            rows = await session.execute(query.order_by(releases.c.fetched_at.desc()))
            return [_release(row) for row in rows]

    async def all(self, repo: str) -> list[StoredRelease]:
        """Every stored release of `repo` (one per tag: the one stored last)."""
        async with self.session() as session:
            rows = await session.execute(
                select(releases)
                .where(releases.c.repo == repo)
                .order_by(releases.c.fetched_at.desc())
            )
            newest: dict[str, StoredRelease] = {}
            for row in rows:
                newest.setdefault(row.tag, _release(row))
        return list(newest.values())

    async def tags(self, repo: str) -> list[str]:
        """Every stored release tag and base of `repo` (the offline list of tags)."""
        async with self.session() as session:
            rows = await session.execute(
                select(releases.c.tag, releases.c.base).where(releases.c.repo == repo)
            )
            return sorted({name for row in rows for name in row})


def _release(row: Row[Any]) -> StoredRelease:
    data = json.loads(row.data)
    return StoredRelease(
        repo=row.repo,
        tag=row.tag,
        base=row.base,
        base_date=row.base_date,
        head_date=row.head_date,
        entries=[(int(a), None if b is None else int(b)) for a, b in data["entries"]],
        commits=int(data.get("commits", len(data["entries"]))),
        unmapped=list(data.get("unmapped") or []),
        between=data.get("between"),
        url=data.get("url"),
        announced=bool(data.get("announced")),
    )
