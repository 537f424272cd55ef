"""SQL helpers of the store: its one dialect switch (an INSERT that knows ON CONFLICT)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import sqlite
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import DeclarativeBase


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


def table_of(row: type[DeclarativeBase]) -> Table:
    """A mapped class's Table (SQLAlchemy types `__table__` as the wider FromClause)."""
    table = row.__table__
    assert isinstance(table, Table)
    return table
