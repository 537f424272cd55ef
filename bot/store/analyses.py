"""The analysis cache aggregate: analyses kept per PR and rule-set content
(`bot.analysis.cache` decides what is valid; `PullRequests.upsert` drops a rewritten PR's
through `forget`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.core.models import JSON
from bot.store.sql import chunks, upsert
from bot.store.tables import pr_analyses, pull_requests


class AnalysisCache:
    def __init__(self, session: async_sessionmaker[AsyncSession], engine: AsyncEngine) -> None:
        self.session = session
        self.engine = engine

    async def cached(self, repo: str, numbers: Sequence[int], key: str) -> dict[int, JSON]:
        """The stored analyses of `numbers` under rule-set `key` (missing ones left out)."""
        found: dict[int, JSON] = {}
        async with self.session() as session:
            for chunk in chunks(list(numbers)):
                rows = await session.execute(
                    select(pull_requests.c.number, pr_analyses.c.data)
                    .join(pr_analyses, pr_analyses.c.pr_id == pull_requests.c.id)
                    .where(
                        pull_requests.c.repo == repo,
                        pull_requests.c.number.in_(chunk),
                        pr_analyses.c.ruleset_key == key,
                    )
                )
                found.update((number, json.loads(data)) for number, data in rows)
        return found

    async def save(self, repo: str, analyses: dict[int, JSON], key: str) -> None:
        """Keep `analyses` (by PR number) under `key`; PRs not in the store are skipped."""
        if not analyses:
            return
        async with self.session.begin() as session:
            ids: dict[int, int] = {}
            for chunk in chunks(list(analyses)):
                rows = await session.execute(
                    select(pull_requests.c.number, pull_requests.c.id).where(
                        pull_requests.c.repo == repo, pull_requests.c.number.in_(chunk)
                    )
                )
                ids.update((number, pr_id) for number, pr_id in rows)
            values = [
                {"pr_id": ids[n], "ruleset_key": key, "data": json.dumps(data)}
                for n, data in analyses.items()
                if n in ids
            ]
            for values_chunk in chunks(values):
                stmt = upsert(self.engine, pr_analyses).values(list(values_chunk))
                stmt = stmt.on_conflict_do_update(
                    index_elements=["pr_id", "ruleset_key"], set_={"data": stmt.excluded.data}
                )
                await session.execute(stmt)

    async def forget(self, session: AsyncSession, pr_ids: Sequence[int]) -> None:
        """Drop every analysis of `pr_ids`, inside the caller's transaction (the one that
        rewrites those PRs, so no reader sees a new PR with an old analysis)."""
        for chunk in chunks(list(pr_ids)):
            await session.execute(delete(pr_analyses).where(pr_analyses.c.pr_id.in_(chunk)))
