"""A throw-away PostgreSQL database per test, when a server is reachable; skip otherwise."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

# Tests own this variable (the bot's DATABASE_URL is pointed at SQLite for every test).
ADMIN_URL = os.environ.get(
    "VLLM_BOT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"
)


@asynccontextmanager
async def postgres_database() -> AsyncIterator[str]:
    asyncpg = pytest.importorskip("asyncpg")
    try:
        admin = await asyncpg.connect(ADMIN_URL, timeout=3)
    except (OSError, asyncpg.PostgresError) as exc:
        pytest.skip(f"PostgreSQL not available at {ADMIN_URL}: {exc}")
    name = f"vllm_bot_test_{uuid.uuid4().hex[:12]}"
    await admin.execute(f'CREATE DATABASE "{name}"')
    base = ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    try:
        yield f"{base}/{name}"
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def database_at(url: str, revision: str, *statements: str) -> None:
    """A database as an older release left it: migrated up to `revision` only, then
    `statements` (its rows) run; the next `Store.open(url)` upgrades it."""
    from alembic import command
    from sqlalchemy.engine import Connection
    from sqlalchemy.ext.asyncio import create_async_engine

    from bot.store.migrate import alembic_config

    def upgrade(connection: Connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(upgrade)
            for statement in statements:
                await connection.exec_driver_sql(statement)
    finally:
        await engine.dispose()
