"""SQL helpers shared by the store's repositories: the one dialect switch (an INSERT that
knows ON CONFLICT) and statement chunking."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from sqlalchemy import Table
from sqlalchemy.dialects import sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

# SQLite allows 32,766 bound parameters; keep well under it for multi-row statements.
CHUNK = 500
_T = TypeVar("_T")


def upsert(engine: AsyncEngine, table: Table) -> Any:
    """`INSERT` for `table` with `on_conflict_do_update` / `on_conflict_do_nothing`.

    Any: SQLite's and PostgreSQL's Insert classes share these methods but no base that
    declares them.
    """
    dialect = engine.dialect.name
    if dialect == "postgresql":
        # Lazy: SQLite installs (the default) never load the PostgreSQL dialect (~20 ms).
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(table)
    if dialect == "sqlite":
        return sqlite.insert(table)
    raise NotImplementedError(f"unsupported database {dialect!r}: use SQLite or PostgreSQL")


def chunks(items: Sequence[_T], size: int = CHUNK) -> Iterable[Sequence[_T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
