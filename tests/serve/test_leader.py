"""Exactly one instance runs the scheduler: a PostgreSQL advisory lock decides."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.core.metrics import Metrics
from bot.core.settings import ServeConfig
from bot.runtime.integrations import Integrations
from bot.runtime.leader import (
    AlwaysLeader,
    FileLock,
    LeaderLoop,
    PostgresAdvisoryLock,
    asyncpg_dsn,
    leadership_for,
)
from bot.serve import Server
from bot.store import Store
from tests.fakes.databases import ADMIN_URL, postgres_database
from tests.serve.conftest import FakeServices, make_config

RETRY = 0.05  # seconds between attempts; tests wait on events, never on this


@pytest.fixture
async def dsn() -> AsyncIterator[str]:
    async with postgres_database() as url:
        yield asyncpg_dsn(url)


class Instance:
    """One bot instance's leader loop, recording elections (also in `log`, shared)."""

    def __init__(
        self, dsn: str, key: int, retry: float = RETRY, log: list[str] | None = None, name: str = ""
    ) -> None:
        self.lock = PostgresAdvisoryLock(dsn, key=key)
        self.events: list[str] = []
        self.log = log if log is not None else []
        self.name = name
        self.deposed = asyncio.Event()
        self.loop = LeaderLoop(self.lock, self._elected, self._deposed, retry)
        self.task: asyncio.Task[None] | None = None

    async def _elected(self) -> None:
        self.events.append("elected")
        self.log.append(f"{self.name} elected")

    async def _deposed(self) -> None:
        self.events.append("deposed")
        self.log.append(f"{self.name} deposed")
        self.deposed.set()

    def start(self) -> Instance:
        self.task = asyncio.create_task(self.loop.run())
        return self

    async def stop(self) -> None:
        await self.loop.stop()
        if self.task is not None:
            await self.task
        await self.loop.release()


def unique_key() -> int:
    # Tests share one PostgreSQL server; advisory locks are server-wide, not per database.
    import random

    return random.randrange(1, 2**62)


def test_sqlite_locks_its_file_and_postgres_uses_the_lock() -> None:
    sqlite = leadership_for("sqlite+aiosqlite:////data/x.db")
    assert isinstance(sqlite, FileLock) and str(sqlite.path) == "/data/x.db.scheduler"
    assert isinstance(leadership_for("sqlite+aiosqlite:///:memory:"), AlwaysLeader)
    lock = leadership_for("postgresql+asyncpg://u:p%40ss@h:5432/d")
    assert isinstance(lock, PostgresAdvisoryLock)
    assert lock.dsn == "postgresql://u:p%40ss@h:5432/d"


async def test_only_one_holder_until_it_releases(dsn: str) -> None:
    key = unique_key()
    first, second = PostgresAdvisoryLock(dsn, key=key), PostgresAdvisoryLock(dsn, key=key)
    try:
        assert await first.try_acquire() is True
        assert await second.try_acquire() is False
        assert await first.still_held() is True
        await first.release()
        assert await second.try_acquire() is True
        assert await first.try_acquire() is False
    finally:
        await first.release()
        await second.release()


async def test_standby_takes_over_when_the_leader_releases(dsn: str) -> None:
    key = unique_key()
    a = Instance(dsn, key).start()
    await asyncio.wait_for(a.loop.elected.wait(), 10)
    b = Instance(dsn, key).start()
    try:
        await asyncio.wait_for(b.loop.standby.wait(), 10)  # b asked and was refused
        assert not b.loop.is_leader and b.events == []
        await a.stop()
        await asyncio.wait_for(b.loop.elected.wait(), 10)
        assert b.events == ["elected"] and a.events == ["elected"]
    finally:
        await a.stop()
        await b.stop()


async def _kill_session(lock: PostgresAdvisoryLock) -> None:
    import asyncpg

    pid = lock._connection.get_server_pid()
    admin = await asyncpg.connect(ADMIN_URL)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()


async def test_standby_takes_over_when_the_leader_dies(dsn: str) -> None:
    key = unique_key()
    a = Instance(dsn, key).start()
    await asyncio.wait_for(a.loop.elected.wait(), 10)
    b = Instance(dsn, key).start()
    try:
        await asyncio.wait_for(b.loop.standby.wait(), 10)
        assert not b.loop.is_leader
        # The leader's process dies: no clean-up runs, its database session goes away.
        assert a.task is not None
        a.task.cancel()
        await _kill_session(a.lock)
        await asyncio.wait_for(b.loop.elected.wait(), 10)
        assert b.events == ["elected"]
    finally:
        await b.stop()
        await a.lock.release()


async def test_leader_steps_down_when_its_session_is_lost(dsn: str) -> None:
    key = unique_key()
    a = Instance(dsn, key).start()
    try:
        await asyncio.wait_for(a.loop.elected.wait(), 10)
        await _kill_session(a.lock)
        # It notices at its next check and stops its scheduler (the lock went with it).
        await asyncio.wait_for(a.deposed.wait(), 10)
        assert a.events[:2] == ["elected", "deposed"]
        # Nobody else holds the lock, so it takes it back on a later round.
        await asyncio.wait_for(a.loop.elected.wait(), 10)
        assert a.events == ["elected", "deposed", "elected"]
    finally:
        await a.stop()


async def server(url: str) -> tuple[Server, Store]:
    """A started `Server` on a store of its own (one engine per "machine") at `url`."""
    store = await Store.open(url)

    async def sync(_: object) -> None:
        return None

    instance = Server(
        FakeServices(make_config(), store),
        integrations=Integrations(),
        metrics=Metrics(),
        sync=sync,
        settings=ServeConfig(leader_retry_seconds=RETRY, sync_minutes=60),
    )
    await instance.start()
    return instance, store


async def test_two_servers_share_one_scheduler(dsn: str) -> None:
    url = dsn.replace("postgresql://", "postgresql+asyncpg://", 1)
    a, store_a = await server(url)
    await asyncio.wait_for(a.leader.elected.wait(), 10)
    b, store_b = await server(url)
    try:
        await asyncio.wait_for(b.leader.standby.wait(), 10)
        assert a.scheduler.running and not b.scheduler.running
        assert sorted(j.id for j in a.scheduler.get_jobs()) == [
            "digest:retry",
            "releases:poll",  # the release poll (releases.poll_minutes, docs/releases.md)
            "sync:periodic",
            "weekly:0 9 * * MON",
        ]
        assert "vllm_bot_scheduler_leader 0" in b.metrics.render()
        await a.shutdown()  # a clean stop hands the scheduler over
        await asyncio.wait_for(b.leader.elected.wait(), 10)
        assert b.scheduler.running
        assert "vllm_bot_scheduler_leader 1" in b.metrics.render()
    finally:
        await b.shutdown()
        await store_a.close()
        await store_b.close()


async def test_a_leader_that_lost_its_lock_stops_before_the_next_one_starts(dsn: str) -> None:
    """The old leader checks its lock only every 30 s, as a standby would; still it stops
    (within a watch) before the new holder starts (after its takeover delay)."""
    key = unique_key()
    order: list[str] = []
    a = Instance(dsn, key, retry=30, log=order, name="a").start()
    await asyncio.wait_for(a.loop.elected.wait(), 10)
    b = Instance(dsn, key, log=order, name="b").start()
    try:
        await asyncio.wait_for(b.loop.standby.wait(), 10)
        await _kill_session(a.lock)
        await asyncio.wait_for(b.loop.elected.wait(), 20)
        assert order == ["a elected", "a deposed", "b elected"]
    finally:
        await b.stop()
        await a.stop()


async def test_the_lock_outlives_the_servers_idle_timeout(dsn: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(dsn)
    try:
        database = await admin.fetchval("SELECT current_database()")
        await admin.execute(f"ALTER DATABASE \"{database}\" SET idle_session_timeout = '1s'")
    finally:
        await admin.close()
    lock = PostgresAdvisoryLock(dsn, key=unique_key())
    try:
        assert await lock.try_acquire() is True
        await asyncio.sleep(2.5)  # idle for longer than the server lets a session be
        assert await lock.still_held() is True
    finally:
        await lock.release()


async def test_a_second_instance_on_one_sqlite_file_stands_by(
    tmp_path, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'one.sqlite3'}"
    a, store_a = await server(url)
    await asyncio.wait_for(a.leader.elected.wait(), 10)
    b, store_b = await server(url)
    try:
        await asyncio.wait_for(b.leader.standby.wait(), 10)
        assert a.scheduler.running and not b.scheduler.running
        # One line, naming the file and what to do.
        said = [r.getMessage() for r in caplog.records if getattr(r, "event", "") == "standby"]
        assert len(said) == 1, said
        assert str(tmp_path / "one.sqlite3") in said[0] and "stands by" in said[0]
        assert "use PostgreSQL for several" in said[0]
        await a.shutdown()  # the first one stops: the second takes over
        await asyncio.wait_for(b.leader.elected.wait(), 10)
        assert b.scheduler.running
    finally:
        await b.shutdown()
        await store_a.close()
        await store_b.close()
