"""The one claim/lease ledger primitive (bot.store.ledger) as each of its users sees it:
digest parts, alert sends and webhook deliveries."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import nullcontext
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from bot.alerts.repository import AlertStore, WebhookDeliveries
from bot.alerts.tables import webhook_deliveries
from bot.store import Store
from bot.store.ledger import ERROR_MAX, Outcome, Owner, error_text, owner_gone
from tests.fakes.processes import gone_owner, live_instance

NOW = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'ledger.db'}") as opened:
        yield opened


def test_who_is_gone() -> None:
    lease = NOW + timedelta(minutes=5)
    me = Owner.current()
    assert me.instance is not None and len(me.instance) == 16
    assert not owner_gone(me, lease, lease, alive=False)  # this very process, always
    # Our own host and pid (pid 1 in two containers): only the instance's lock tells.
    twin = Owner(f"{'0' * 16}.run", socket.gethostname(), me.pid)
    assert owner_gone(twin, lease, NOW, alive=False)
    assert not owner_gone(twin, lease, lease + timedelta(days=1), alive=True)
    # Liveness unknown (a database error) or a token from before instance ids: the lease.
    assert not owner_gone(twin, lease, NOW)
    assert owner_gone(twin, lease, lease)
    assert owner_gone(Owner("legacy", "another-host", 1), lease, lease, alive=True)


@pytest.mark.parametrize("alive", [True, False])
async def test_a_claim_naming_our_host_and_pid_is_decided_by_its_instance(
    store: Store, alive: bool
) -> None:
    ledger = WebhookDeliveries(store).ledger
    values = {"event": "pull_request", "received_at": NOW}
    me = Owner.current()
    database = Path(str(store.engine.url.database))
    with live_instance(database, pid=me.pid) if alive else nullcontext(gone_owner(me.pid)) as twin:
        assert (twin.host, twin.pid) == (me.host, me.pid) and twin.instance != me.instance
        first = await ledger.claim({"delivery_id": "d1"}, twin, values=values, now=NOW)
        assert first.outcome is Outcome.NEW
        second = await ledger.claim({"delivery_id": "d1"}, me, values=values, now=NOW)
    assert second.outcome is (Outcome.BUSY if alive else Outcome.DOUBT)
    assert second.holder is not None and second.holder.token == twin.token


async def test_a_webhook_delivery_is_handled_once_unless_its_handler_died(store: Store) -> None:
    db = WebhookDeliveries(store)
    assert await db.claim("d1", "pull_request", NOW)
    # Redelivered while this process is still handling it: a no-op.
    assert not await db.claim("d1", "pull_request", NOW)
    await db.finish("d1")
    assert not await db.claim("d1", "pull_request", NOW + timedelta(days=1))

    # A handler killed mid-way: its claim is taken over by the next redelivery at once.
    ledger = db.ledger
    gone = gone_owner()
    first = await ledger.claim(
        {"delivery_id": "d2"}, gone, values={"event": "pull_request", "received_at": NOW}, now=NOW
    )
    assert first.outcome is Outcome.NEW
    assert await db.claim("d2", "pull_request", NOW)
    async with store.session() as session:
        row = (
            await session.execute(select(webhook_deliveries).where(webhook_deliveries.c.id == 2))
        ).first()
        assert row is not None and row.delivery_id == "d2" and row.owner_pid != gone.pid


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=5000))
def test_a_stored_error_is_one_line_under_300_characters(text: str) -> None:
    stored = error_text(RuntimeError(text))
    assert len(stored) <= ERROR_MAX < 300
    assert "\n" not in stored and "\r" not in stored


async def test_migration_0005_keeps_rows_and_their_meaning(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy.ext.asyncio import create_async_engine

    from bot.store.migrate import alembic_config

    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    engine = create_async_engine(url)

    def to_0004(connection: object) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")

    async with engine.begin() as connection:
        await connection.run_sync(to_0004)
        await connection.exec_driver_sql(
            "INSERT INTO alerts_sent (subscription_id, repo, pr_number, platform, channel, "
            "state, claim_token, claimed_at) VALUES (1, 'o/r', 7, 'slack', 'C1', 'sent', NULL, "
            "'2026-06-01 00:00:00')"
        )
        await connection.exec_driver_sql(
            "INSERT INTO webhook_deliveries (delivery_id, event, received_at) "
            "VALUES ('d-old', 'pull_request', '2026-06-01 00:00:00')"
        )
    await engine.dispose()

    async with await Store.open(url) as store:
        db = AlertStore(store)
        assert await db.sends.handled([1], "o/r", 7, now=NOW) == {1}
        # A delivery handled before the upgrade stays handled.
        assert not await db.webhooks.claim("d-old", "pull_request", NOW)


async def test_a_closed_store_leaves_no_liveness_file_behind(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'l.db'}"
    async with await Store.open(url) as store:
        ledger = WebhookDeliveries(store).ledger
        values = {"event": "pull_request", "received_at": NOW}
        await ledger.claim({"delivery_id": "d1"}, Owner.current(), values=values, now=NOW)
        assert [p.name for p in (tmp_path / "l.db.instances").iterdir()] != []
    assert list((tmp_path / "l.db.instances").iterdir()) == []
