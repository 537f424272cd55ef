"""Fenced claims (issue 36): a claim stays its holder's until the holder is known gone.

On PostgreSQL a missing liveness lock is not yet a dead holder: its connection may have been
ended (`pg_terminate_backend`, an idle timeout, a restart) while the process posts on. The
holder keeps the lock's connection alive and watched and takes the lock again; a taker
waits `FENCE` before deciding it is gone. A send cut short settles before a takeover."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.core.models import JSON
from bot.delivery import Sent, deliver
from bot.store import Store
from bot.store import ledger as ledger_module
from bot.store.ledger import (
    LIVENESS_NAMESPACE,
    Outcome,
    Owner,
    _instance_key,
    instance_id,
    liveness_for,
)
from tests.fakes.databases import ADMIN_URL, postgres_database


@pytest.fixture
async def pg_store() -> AsyncIterator[Store]:
    async with postgres_database() as url:
        store = await Store.open(url)
        try:
            yield store
        finally:
            await store.close()


def _dsn(store: Store) -> str:
    return store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


async def _terminate(where: str, *args: object) -> int:
    import asyncpg

    admin = await asyncpg.connect(ADMIN_URL)
    try:
        pids = [
            r[0]
            for r in await admin.fetch(f"SELECT pid FROM pg_stat_activity WHERE {where}", *args)
        ]
        for pid in pids:
            await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
        return len(pids)
    finally:
        await admin.close()


async def _until(check: Any, within: float = 20) -> None:
    async def poll() -> None:
        while not await check():  # noqa: ASYNC110 (a state in another process)
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), within)


async def test_a_lost_liveness_lock_is_taken_again_and_said(
    pg_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    liveness = pg_store.deliveries.ledger.liveness
    owner = Owner.current()
    claim = await pg_store.deliveries.claim("doc", "slack", "C1", 0, 2, owner=owner)
    assert claim.outcome is Outcome.NEW
    assert await liveness.alive(instance_id()) is True
    caplog.set_level(logging.INFO, "bot.store.ledger")
    ended = await _terminate("application_name = $1", f"vllm-bot instance {instance_id()}")
    assert ended == 1
    # Nothing else claims: the holder notices by itself and holds its lock again.
    await _until(lambda: liveness.alive(instance_id()))
    await _until(lambda: _async("held again" in caplog.text))
    assert "lost the liveness lock" in caplog.text


async def _async(value: bool) -> bool:
    return value


async def test_an_idle_liveness_lock_survives_the_servers_idle_timeout(pg_store: Store) -> None:
    import asyncpg

    admin = await asyncpg.connect(ADMIN_URL)
    try:
        database = pg_store.engine.url.database
        await admin.execute(f"ALTER DATABASE \"{database}\" SET idle_session_timeout = '1s'")
    finally:
        await admin.close()
    await pg_store.engine.dispose()  # new sessions take the database's setting
    await pg_store.deliveries.claim("doc", "slack", "C1", 0, 2, owner=Owner.current())
    liveness = pg_store.deliveries.ledger.liveness
    # Idle for longer than the server allows a session (the watch's pings aside).
    await asyncio.sleep(2.5)
    assert getattr(liveness, "losses", 0) == 0
    assert await liveness.alive(instance_id()) is True
    # The pool's connections were ended by the idle timeout meanwhile: pre-ping replaces them.
    assert await pg_store.deliveries.sent("doc", "slack", "C1") == {}


class OtherInstance:
    """Another instance's liveness lock, held on a connection of its own."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.owner = Owner(f"{'ab' * 8}.run", "elsewhere", 1)
        self.connection: Any = None

    async def hold(self) -> None:
        import asyncpg

        assert self.owner.instance is not None
        self.connection = await asyncpg.connect(self.dsn)
        await self.connection.execute(
            "SELECT pg_advisory_lock_shared($1, $2)",
            LIVENESS_NAMESPACE,
            _instance_key(self.owner.instance),
        )

    async def end(self) -> None:
        await _terminate("pid = $1", self.connection.get_server_pid())
        await _until(lambda: _async(self.connection.is_closed()))

    async def close(self) -> None:
        if self.connection is not None and not self.connection.is_closed():
            await self.connection.close()


async def test_a_claim_whose_holder_lost_its_lock_for_a_moment_is_not_taken(
    pg_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = OtherInstance(_dsn(pg_store))
    await other.hold()
    try:
        first = await pg_store.deliveries.claim("doc", "slack", "C1", 1, 3, owner=other.owner)
        assert first.outcome is Outcome.NEW
        await other.end()  # its lock is gone, the process posting the part is not
        liveness = liveness_for(pg_store.engine)
        asked = asyncio.Event()
        alive = liveness.alive

        async def watched(instance: str) -> bool | None:
            found = await alive(instance)
            if found is False:
                asked.set()
            return found

        monkeypatch.setattr(liveness, "alive", watched)
        taking = asyncio.create_task(
            pg_store.deliveries.claim("doc", "slack", "C1", 1, 3, owner=Owner.current())
        )
        await asyncio.wait_for(asked.wait(), 10)
        # The holder takes its lock back (its watch does so within a second or two).
        await other.hold()
        claim = await asyncio.wait_for(taking, 30)
        assert claim.outcome is Outcome.BUSY
    finally:
        await other.close()


async def test_a_claim_of_a_holder_gone_for_good_is_taken_after_the_fence(
    pg_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ledger_module, "FENCE", 0.5)
    other = OtherInstance(_dsn(pg_store))
    await other.hold()
    await pg_store.deliveries.claim("doc", "slack", "C1", 1, 3, owner=other.owner)
    await other.end()
    claim = await pg_store.deliveries.claim("doc", "slack", "C1", 1, 3, owner=Owner.current())
    assert claim.outcome is Outcome.DOUBT


async def test_the_holder_stops_its_posts_when_its_lock_does_not_come_back(
    pg_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncpg

    monkeypatch.setattr(ledger_module, "SELF_FENCE", 1.0)
    await pg_store.deliveries.claim("doc", "slack", "C1", 0, 1, owner=Owner.current())
    liveness = pg_store.deliveries.ledger.liveness

    connect = asyncpg.connect

    async def unreachable(*args: Any, **kwargs: Any) -> Any:
        # PostgreSQL is away for the lock's connection (the test's admin still gets in).
        if kwargs.get("server_settings", {}).get("application_name", "").startswith("vllm-bot"):
            raise OSError("connection refused")
        return await connect(*args, **kwargs)

    posting = asyncio.Event()

    async def post() -> None:
        async with liveness.fenced():
            posting.set()
            await asyncio.Event().wait()  # a send that never ends

    task = asyncio.create_task(post())
    await posting.wait()
    monkeypatch.setattr(asyncpg, "connect", unreachable)
    await _terminate("application_name = $1", f"vllm-bot instance {instance_id()}")
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 20)


async def test_pre_ping_replaces_connections_the_server_ended(pg_store: Store) -> None:
    assert await pg_store.deliveries.sent("doc", "slack", "C1") == {}  # one pooled
    database = pg_store.engine.url.database
    ended = await _terminate(
        "datname = $1 AND pid <> pg_backend_pid() AND application_name NOT LIKE 'vllm-bot%'",
        database,
    )
    assert ended >= 1
    assert await pg_store.deliveries.sent("doc", "slack", "C1") == {}


# --------------------------------------------------------------------------- settle (SQLite)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'fence.db'}") as opened:
        yield opened


async def test_a_send_cut_short_is_not_posted_again_before_it_could_land(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ledger_module, "SETTLE", timedelta(seconds=1))
    monkeypatch.setattr("bot.delivery.SETTLE", timedelta(seconds=1))
    channel: list[tuple[int, str]] = []  # what the platform shows
    loop = asyncio.get_running_loop()
    sending = asyncio.Event()

    async def slow_send(index: int, payload: JSON, thread: str | None) -> Sent:
        if index == 1:
            # The request is on its way: it lands shortly, whatever becomes of its sender.
            loop.call_later(0.3, channel.append, (index, f"m{index}"))
            sending.set()
            await asyncio.Event().wait()
        channel.append((index, f"m{index}"))
        return Sent(f"m{index}")

    async def send(index: int, payload: JSON, thread: str | None) -> Sent:
        channel.append((index, f"m{index}"))
        return Sent(f"m{index}")

    async def find(index: int, payload: JSON, thread: str | None) -> Sent | None:
        return next((Sent(m) for i, m in channel if i == index), None)

    payloads: list[JSON] = [{"text": "a"}, {"text": "b"}, {"text": "c"}]
    args: dict[str, Any] = {
        "document_id": "doc",
        "platform": "slack",
        "channel": "C1",
        "payloads": payloads,
        "find": find,
    }
    first = asyncio.create_task(deliver(store.deliveries, send=slow_send, **args))
    await sending.wait()
    first.cancel()  # a shutdown, or a fence, cuts the send short
    with pytest.raises(asyncio.CancelledError):
        await first
    result = await deliver(store.deliveries, send=send, **args)
    assert result.complete and result.reconciled == [1]
    assert sorted(i for i, _ in channel) == [0, 1, 2]
