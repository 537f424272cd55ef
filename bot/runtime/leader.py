"""Which instance runs the scheduler.

With PostgreSQL, any number of instances serve commands and webhooks, and the one holding
a session-level advisory lock runs the scheduler. The lock lives on a dedicated connection
(not the pool: a pooled connection would be handed to other work and returned with the lock
still held), with the server's idle timeouts turned off for it. When the holder dies,
PostgreSQL ends its session and frees the lock; the others try again every `retry_seconds`
and one takes over. The holder pings its connection every `WATCH_SECONDS` and steps down
(stopping the work its scheduler started) as soon as it is lost, because the lock went with
it; a new holder waits `takeover_delay`, longer than that, before it starts the scheduler,
so that two instances never run it at once.

SQLite is one file on one machine: one instance runs the scheduler, the one holding an
exclusive `flock` on `DATABASE.scheduler`; a second `serve` on the same file stands by.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from sqlalchemy.engine import make_url

from bot.store.ledger import PING_TIMEOUT, WATCH_SECONDS, keep_session

if TYPE_CHECKING:
    # asyncpg ships no type information: to mypy its Connection is untyped.
    from asyncpg import Connection

log = logging.getLogger("bot.leader")

# pg_try_advisory_lock takes a bigint: a fixed, arbitrary key reserved for vllm-bot's scheduler.
SCHEDULER_LOCK_KEY = 0x766C6C6D_626F7401  # "vllmbot" + 1


class Leadership(Protocol):
    """Who runs the scheduler: `AlwaysLeader` (an in-memory database), `FileLock` (a
    SQLite file) or `PostgresAdvisoryLock`."""

    # Seconds a new holder waits before starting: how long a holder that lost the lock
    # may take to notice and stop (0 when the lock cannot be lost while its holder lives).
    takeover_delay: float
    # Seconds between checks of a held lock.
    watch_seconds: float

    async def try_acquire(self) -> bool: ...
    async def still_held(self) -> bool: ...
    async def release(self) -> None: ...
    def standby_line(self, retry_seconds: float) -> tuple[int, str]:
        """The log level and line of an instance finding the scheduler run elsewhere."""
        ...


def _standby_line(retry_seconds: float) -> tuple[int, str]:
    return (
        logging.INFO,
        f"another instance runs the scheduler; checking every {retry_seconds:.0f} s",
    )


class AlwaysLeader:
    """A single-instance set-up (an in-memory database)."""

    takeover_delay = 0.0
    watch_seconds = 60.0
    standby_line = staticmethod(_standby_line)

    async def try_acquire(self) -> bool:
        return True

    async def still_held(self) -> bool:
        return True

    async def release(self) -> None:
        return None


def asyncpg_dsn(sqlalchemy_url: str) -> str:
    """postgresql+asyncpg://… → postgresql://… (asyncpg takes libpq URLs)."""
    url = make_url(sqlalchemy_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class FileLock:
    """SQLite: an exclusive `flock` on `DATABASE.scheduler`, freed by the kernel when its
    holder dies, so a second `serve` on the same file stands by instead of running the
    scheduler beside the first."""

    takeover_delay = 0.0
    watch_seconds = 60.0

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    async def try_acquire(self) -> bool:
        if self._fd is not None:
            return True
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            # Nothing to lock beside the database: run as the only instance, as before.
            log.warning("scheduler lock: cannot open %s: %s", self.path, exc.strerror)
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def standby_line(self, retry_seconds: float) -> tuple[int, str]:
        # A set-up the docs advise against: one warning, naming the file and the way out.
        return logging.WARNING, (
            f"another vllm-bot serve runs the scheduler on this SQLite database ({self.path} "
            f"is locked); this one stands by, checking every {retry_seconds:.0f} s: SQLite is "
            "for one instance, use PostgreSQL for several"
        )

    async def still_held(self) -> bool:
        return self._fd is not None

    async def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


class PostgresAdvisoryLock:
    # A lost connection is noticed within a watch and a ping; the new holder waits longer.
    watch_seconds = WATCH_SECONDS
    takeover_delay = 2 * WATCH_SECONDS + PING_TIMEOUT + 1
    standby_line = staticmethod(_standby_line)

    def __init__(self, dsn: str, key: int = SCHEDULER_LOCK_KEY, timeout: float = 10) -> None:
        self.dsn = dsn
        self.key = key
        self.timeout = timeout
        self._connection: Connection | None = None
        self.held = False

    async def _connect(self) -> Connection:
        # Lazy: asyncpg, the PostgreSQL driver, loads only with a postgresql DATABASE_URL.
        import asyncpg

        if self._connection is None or self._connection.is_closed():
            connection = await asyncpg.connect(
                self.dsn,
                timeout=self.timeout,
                server_settings={"application_name": "vllm-bot scheduler lock"},
            )
            try:
                await keep_session(connection)
            except BaseException:
                connection.terminate()
                raise
            self._connection = connection
        return self._connection

    async def try_acquire(self) -> bool:
        try:
            connection = await self._connect()
            self.held = bool(
                await connection.fetchval(
                    "SELECT pg_try_advisory_lock($1)", self.key, timeout=self.timeout
                )
            )
        except Exception as exc:
            # Any failure means "not leader now"; the next round tries again.
            log.warning("scheduler lock: cannot ask PostgreSQL: %s", type(exc).__name__)
            await self._drop()
            self.held = False
        return self.held

    async def still_held(self) -> bool:
        if not self.held or self._connection is None:
            return False
        try:
            await self._connection.fetchval("SELECT 1", timeout=PING_TIMEOUT)
        except Exception as exc:  # the session, and its lock with it, is gone
            log.warning("scheduler lock: lost the connection: %s", type(exc).__name__)
            await self._drop()
            self.held = False
        return self.held

    async def release(self) -> None:
        if self._connection is not None and self.held:
            with contextlib.suppress(Exception):
                await self._connection.fetchval(
                    "SELECT pg_advisory_unlock($1)", self.key, timeout=self.timeout
                )
        self.held = False
        await self._drop()

    async def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.close(), timeout=self.timeout)
            if not connection.is_closed():
                connection.terminate()


def leadership_for(database_url: str) -> Leadership:
    url = make_url(database_url)
    if url.get_backend_name() == "postgresql":
        return PostgresAdvisoryLock(asyncpg_dsn(database_url))
    database = url.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        return AlwaysLeader()
    return FileLock(Path(database + ".scheduler"))


class LeaderLoop:
    """Acquire, hold and hand back leadership; calls `on_elected` / `on_deposed`."""

    def __init__(
        self,
        leadership: Leadership,
        on_elected: Callable[[], Awaitable[None]],
        on_deposed: Callable[[], Awaitable[None]],
        retry_seconds: float,
    ) -> None:
        self.leadership = leadership
        self.on_elected = on_elected
        self.on_deposed = on_deposed
        self.retry_seconds = retry_seconds
        self.is_leader = False
        self.elected = asyncio.Event()  # set while this instance leads
        self.standby = asyncio.Event()  # set once another instance was found leading
        self._stop = asyncio.Event()

    async def run(self) -> None:
        while not self._stop.is_set():
            if self.is_leader:
                if not await self.leadership.still_held():
                    await self._depose("lost the scheduler lock")
            elif await self.leadership.try_acquire() and await self._settled():
                self.is_leader = True
                self.standby.clear()
                log.info("this instance now runs the scheduler", extra={"event": "leader"})
                try:
                    await self.on_elected()
                except Exception:
                    log.exception("starting the scheduler failed; stepping down")
                    await self._depose("start failed")
                    await self.leadership.release()
                else:
                    self.elected.set()
            elif not self.standby.is_set():
                self.standby.set()
                level, line = self.leadership.standby_line(self.retry_seconds)
                log.log(level, "%s", line, extra={"event": "standby"})
            wait = self.retry_seconds
            if self.is_leader:
                wait = min(wait, self.leadership.watch_seconds)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=wait)

    async def _settled(self) -> bool:
        """After taking the lock: wait out a previous holder that may not have noticed it
        lost it, then check the lock is still ours."""
        delay = self.leadership.takeover_delay
        if delay <= 0:
            return True
        log.info(
            "took the scheduler lock; starting the scheduler in %.0f s, once any previous "
            "holder has stopped",
            delay,
            extra={"event": "leader", "outcome": "waiting"},
        )
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._stop.wait(), timeout=delay)
        if self._stop.is_set():
            await self.leadership.release()
            return False
        return await self.leadership.still_held()

    async def _depose(self, reason: str) -> None:
        self.is_leader = False
        self.elected.clear()
        log.warning("scheduler stopped on this instance: %s", reason, extra={"event": "deposed"})
        await self.on_deposed()

    async def stop(self) -> None:
        """Stop trying; the caller stops the scheduler before `release()` hands it over."""
        self._stop.set()

    async def release(self) -> None:
        if self.is_leader:
            self.is_leader = False
            self.elected.clear()
        await self.leadership.release()
