"""The contributor aggregate: per repository and login, a merge known to exist
(`contributors`), so telling regulars from newcomers costs no GitHub request next time."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.store.sql import chunks, upsert
from bot.store.tables import contributors
from bot.store.text import load_text, store_text


class Contributors:
    def __init__(self, session: async_sessionmaker[AsyncSession], engine: AsyncEngine) -> None:
        self.session = session
        self.engine = engine

    async def first_merged(self, repo: str, logins: Iterable[str]) -> dict[str, datetime | None]:
        """Known first-merge times; a login missing from the result was never looked up."""
        # Stored as bot.store.text keeps every string (a NUL in a login included).
        logins = [store_text(login) for login in logins]
        found: dict[str, datetime | None] = {}
        async with self.session() as session:
            for chunk in chunks(logins):
                rows = await session.execute(
                    select(contributors.c.login, contributors.c.first_merged_at).where(
                        contributors.c.repo == repo, contributors.c.login.in_(chunk)
                    )
                )
                found.update({load_text(login): at for login, at in rows})
        return found

    async def set_first_merged(self, repo: str, values: dict[str, datetime | None]) -> None:
        """Keep a merge time known per login: an upper bound of its first merge in `repo`."""
        if not values:
            return
        rows = [
            {"repo": repo, "login": store_text(k), "first_merged_at": v} for k, v in values.items()
        ]
        async with self.session.begin() as session:
            for chunk in chunks(rows):
                stmt = upsert(self.engine, contributors).values(list(chunk))
                stmt = stmt.on_conflict_do_update(
                    index_elements=["repo", "login"],
                    set_={"first_merged_at": stmt.excluded.first_merged_at},
                )
                await session.execute(stmt)
