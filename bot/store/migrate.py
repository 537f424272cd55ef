"""Run Alembic migrations programmatically, so every start brings the schema up to date."""

from __future__ import annotations

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy.ext.asyncio import AsyncEngine


def alembic_config() -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", "bot.store:migrations")
    return config


def _upgrade(connection) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


async def upgrade(engine: AsyncEngine) -> None:
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade)
