"""Async access to the store: `Store` opens the database and holds one repository per
aggregate (`prs`, `windows`, `contributors`, `deliveries`, `analyses`, `http_cache`,
`releases`, `theme_memo`); all reads and writes of the bot go through them."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from bot.core.errors import MessageError, StoreError
from bot.core.tasks import COMMAND_WORKERS
from bot.store.analyses import AnalysisCache
from bot.store.contributors import Contributors
from bot.store.deliveries import Deliveries
from bot.store.http_cache import HTTPCache
from bot.store.ledger import close_liveness
from bot.store.migrate import upgrade
from bot.store.prs import PullRequests
from bot.store.releases import Releases
from bot.store.tables import http_cache
from bot.store.theme_memo import ThemeMemo
from bot.store.windows import SyncWindows


def _sqlite_wal(dbapi_connection: Any, _record: Any) -> None:
    """WAL: readers (a `/vllm pr` answered from the store) never wait for a writer (a
    webhook's alert, a sync), so acknowledgements stay fast under load. A read-only
    database keeps its mode."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
    except Exception:  # read-only file or URI: reading works in any journal mode
        pass
    finally:
        cursor.close()


# Per process: N replicas open up to N × (POOL_SIZE + POOL_OVERFLOW) connections plus one
# each for the scheduler lock and the ledger's liveness lock; PostgreSQL's default
# max_connections (100) leaves room for about four replicas.
POOL_SIZE = COMMAND_WORKERS
POOL_OVERFLOW = 10
POOL_TIMEOUT = 10.0


def _as_store_error(context: Any) -> None:
    """The driver's error (through SQLAlchemy's) as the bot's own StoreError, with the same
    text; the SQLAlchemy exception stays its cause for --debug. What SQLAlchemy does not
    wrap (a cancellation, Ctrl-C, a value the driver cannot bind) goes on as it is: its
    StoreError would read "None". Nor the pool's pre-ping: a connection that fails it is
    replaced, which only SQLAlchemy's own error allows."""
    if context.sqlalchemy_exception is None or context.is_pre_ping:
        return
    raise StoreError(str(context.sqlalchemy_exception)) from context.sqlalchemy_exception


class Store:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        if not event.contains(engine.sync_engine, "handle_error", _as_store_error):
            event.listen(engine.sync_engine, "handle_error", _as_store_error)
        self.session = async_sessionmaker(engine, expire_on_commit=False)
        # One repository per aggregate; each writes only its own tables.
        self.analyses = AnalysisCache(self.session, engine)
        self.http_cache = HTTPCache(self.session, engine)
        self.prs = PullRequests(self.session, engine, self.analyses)
        self.windows = SyncWindows(self.session, engine)
        self.contributors = Contributors(self.session, engine)
        self.deliveries = Deliveries(self.session, engine)
        self.releases = Releases(self.session, engine)
        self.theme_memo = ThemeMemo(self.session, engine)

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True) -> Store:
        parsed = make_url(url)
        database = parsed.database or ""
        # `file:` names an SQLite URI (uri=true): its path is not a directory to create.
        if (
            parsed.get_backend_name() == "sqlite"
            and database not in ("", ":memory:")
            and not (database.startswith("file:"))
        ):
            # A folder named by DATABASE_URL is the user's to make: a typo must not become a
            # new, empty store (the default store's folder is made by default_database_url).
            # Once per process, before any connection exists: blocking here is harmless.
            folder = Path(database).expanduser().parent  # noqa: ASYNC240
            if not folder.is_dir():
                raise MessageError("error.store.no_folder", path=database, folder=str(folder))
        kwargs: dict[str, Any] = {}
        if parsed.get_backend_name() == "sqlite":
            # Writers wait for each other instead of failing with "database is locked".
            kwargs["connect_args"] = {"timeout": 30}
        elif parsed.get_backend_name() == "postgresql":
            # Sized with the command queue (bot.core.tasks.Admission, POOL_SIZE workers):
            # commands wait in that queue, so the pool's own wait is only a backstop for
            # the scheduler, webhooks and the ledger (docs/operations.md §6).
            # Pre-ping: a connection the server ended meanwhile (a restart, an idle
            # timeout) is replaced when checked out, not handed to a query to fail.
            kwargs.update(
                pool_size=POOL_SIZE,
                max_overflow=POOL_OVERFLOW,
                pool_timeout=POOL_TIMEOUT,
                pool_pre_ping=True,
            )
        engine = create_async_engine(url, **kwargs)
        if parsed.get_backend_name() == "sqlite" and database not in ("", ":memory:"):
            event.listen(engine.sync_engine, "connect", _sqlite_wal)
        if migrate:
            await upgrade(engine)
        return cls(engine)

    async def close(self) -> None:
        await close_liveness(self.engine)
        await self.engine.dispose()

    def pool_use(self) -> tuple[int, int] | None:
        """(connections checked out, the most the pool may open), or None for a pool
        that does not count (SQLite in memory)."""
        pool = self.engine.pool
        checked_out = getattr(pool, "checkedout", None)
        size = getattr(pool, "size", None)
        overflow = getattr(pool, "_max_overflow", 0)
        if not callable(checked_out) or not callable(size):
            return None
        return int(checked_out()), int(size()) + max(int(overflow), 0)

    def transaction(self) -> AbstractAsyncContextManager[AsyncSession]:
        """One transaction across aggregates, passed to their writes as `session=` (an
        import's PRs and the windows it marks: an interrupted import leaves nothing)."""
        return self.session.begin()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ health

    async def ping(self) -> None:
        """One round trip to the database; raises what the driver raises."""
        async with self.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    async def probe_write(self) -> None:
        """Insert a row and roll it back: proves write access without leaving anything
        behind (`vllm-bot doctor`); raises what the driver raises."""
        async with self.engine.connect() as connection:
            transaction = await connection.begin()
            try:
                await connection.execute(
                    http_cache.insert().values(
                        url="doctor://write-probe",
                        etag="-",
                        body="",
                        link=None,
                        fetched_at=datetime.now(UTC),
                    )
                )
            finally:
                await transaction.rollback()


def store_location(url: str | URL) -> str:
    """Where the store lives, for people: a SQLite file's path, else the URL without its
    password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return str(Path(parsed.database).resolve()) if parsed.database else "in memory"
    return parsed.render_as_string(hide_password=True)
