"""Release fixtures: a store and GitHub clients pointed at the fake."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store.store import Store


@pytest.fixture
async def store(tmp_path) -> AsyncIterator[Store]:
    db = await Store.open("sqlite+aiosqlite:///" + str(tmp_path / "s.db"))
    yield db
    await db.close()
