"""Run Alembic migrations programmatically, so every start brings the schema up to date.

A store already at the newest revision (every run but the first after an upgrade) is
recognised by one query, without loading Alembic: Alembic and the migration scripts
cost more than a whole `vllm-bot pr N` answered from the store.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect, text
from sqlalchemy.ext.asyncio import AsyncEngine

if TYPE_CHECKING:
    from alembic.config import Config as AlembicConfig

_REVISION = re.compile(r"^(down_)?revision\s*(?::[^=]*)?=\s*(?:[\"'](\w+)[\"']|None)", re.M)


def alembic_config() -> AlembicConfig:
    # Lazy: Alembic is needed only when the schema is behind (see the module docstring).
    from alembic.config import Config as AlembicConfig

    config = AlembicConfig()
    config.set_main_option("script_location", "bot.store:migrations")
    return config


@cache
def head_revision() -> str:
    """The newest revision of bot/store/migrations/versions, read from the scripts' own
    `revision` / `down_revision` lines (the one no other script names as its parent)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    versions = resources.files("bot.store.migrations") / "versions"
    for script in versions.iterdir():
        if not script.name.endswith(".py") or script.name.startswith("_"):
            continue
        for down, value in _REVISION.findall(script.read_text(encoding="utf-8")):
            if value:
                (parents if down else revisions).add(value)
    heads = revisions - parents
    if len(heads) != 1:
        raise RuntimeError(f"migrations have {len(heads)} heads: {sorted(heads)}")
    return heads.pop()


def _current_revisions(connection: Connection) -> set[str]:
    if not inspect(connection).has_table("alembic_version"):
        return set()
    rows = connection.execute(text("SELECT version_num FROM alembic_version"))
    return {str(row[0]) for row in rows}


# pg_advisory_xact_lock's key for schema upgrades (beside bot.runtime.leader's scheduler key).
MIGRATION_LOCK_KEY = 0x766C6C6D_626F7402  # "vllmbot" + 2


def _upgrade(connection: Connection) -> None:
    if _current_revisions(connection) == {head_revision()}:
        return
    if connection.dialect.name == "postgresql":
        # N replicas starting at once on an empty database: one upgrades, the others wait
        # here, then find the schema at head. Transaction-scoped, so a replica that dies
        # mid-upgrade frees it with its rolled-back transaction. (SQLite serialises writers
        # on the file already.)
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        if _current_revisions(connection) == {head_revision()}:
            return
    # Lazy: see alembic_config.
    from alembic import command

    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


async def upgrade(engine: AsyncEngine) -> None:
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade)


async def schema_revision(engine: AsyncEngine) -> str | None:
    """The store's Alembic revision, as `/vllm version` shows it; raises what the driver
    raises (no `alembic_version` table included)."""
    async with engine.connect() as connection:
        result = await connection.execute(text("SELECT version_num FROM alembic_version"))
        revision: str | None = result.scalar_one_or_none()
        return revision
