"""Which instance runs the scheduler.

With PostgreSQL, any number of instances serve commands and webhooks, and the one holding
a session-level advisory lock runs the scheduler. The lock lives on a dedicated connection
(not the pool: a pooled connection would be handed to other work and returned with the lock
still held). When the holder dies, PostgreSQL ends its session and frees the lock; the
others try again every `retry_seconds` and one takes over. The holder checks its connection
on the same period and steps down as soon as it is lost, because the lock went with it.

SQLite is one file on one machine: a single instance, always the leader.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    # asyncpg ships no type information: to mypy its Connection is untyped.
    from asyncpg import Connection

log = logging.getLogger("bot.leader")

# pg_try_advisory_lock takes a bigint: a fixed, arbitrary key reserved for vllm-bot's scheduler.
SCHEDULER_LOCK_KEY = 0x766C6C6D_626F7401  # "vllmbot" + 1


class Leadership(Protocol):
    """Who runs the scheduler: `AlwaysLeader` (SQLite) or `PostgresAdvisoryLock`."""

    async def try_acquire(self) -> bool: ...
    async def still_held(self) -> bool: ...
    async def release(self) -> None: ...


class AlwaysLeader:
    """SQLite (or any single-instance set-up)."""

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


class PostgresAdvisoryLock:
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
            self._connection = await asyncpg.connect(
                self.dsn,
                timeout=self.timeout,
                server_settings={"application_name": "vllm-bot scheduler lock"},
            )
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
            await self._connection.fetchval("SELECT 1", timeout=self.timeout)
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
    if make_url(database_url).get_backend_name() == "postgresql":
        return PostgresAdvisoryLock(asyncpg_dsn(database_url))
    return AlwaysLeader()


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
            elif await self.leadership.try_acquire():
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
                log.info(
                    "another instance runs the scheduler; checking every %.0f s",
                    self.retry_seconds,
                    extra={"event": "standby"},
                )
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=self.retry_seconds)

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
