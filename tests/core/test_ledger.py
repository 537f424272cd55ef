"""The one claim/lease ledger primitive (bot.store.ledger) as each of its users sees it:
digest parts, alert sends and webhook deliveries."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.alerts.repository import AlertStore, WebhookDeliveries
from bot.alerts.tables import WebhookDeliveryRow
from bot.store import Store
from bot.store.ledger import ERROR_MAX, Outcome, Owner, error_text, owner_gone
from tests.fakes.processes import dead_pid

NOW = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'ledger.db'}") as opened:
        yield opened


def test_who_is_gone() -> None:
    host = socket.gethostname()
    me = Owner.current()
    lease = NOW + timedelta(minutes=5)
    assert not owner_gone(me, lease, NOW)  # this very process
    assert owner_gone(Owner("x", host, dead_pid()), lease, NOW)  # a dead pid, lease or not
    # Our pid with another start time: a previous boot of a container (pid 1 again).
    if me.started is not None:
        assert owner_gone(Owner("x", host, me.pid, me.started + 1), lease, NOW)
    elsewhere = Owner("x", "another-host", 1)
    assert not owner_gone(elsewhere, lease, NOW)
    assert owner_gone(elsewhere, lease, lease)  # other hosts: only the lease tells


async def test_a_webhook_delivery_is_handled_once_unless_its_handler_died(store: Store) -> None:
    db = WebhookDeliveries(store)
    assert await db.claim("d1", "pull_request", NOW)
    # Redelivered while this process is still handling it: a no-op.
    assert not await db.claim("d1", "pull_request", NOW)
    await db.finish("d1")
    assert not await db.claim("d1", "pull_request", NOW + timedelta(days=1))

    # A handler killed mid-way: its claim is taken over by the next redelivery at once.
    ledger = db.ledger
    gone = Owner("crashed", socket.gethostname(), dead_pid())
    first = await ledger.claim(
        {"delivery_id": "d2"}, gone, values={"event": "pull_request", "received_at": NOW}, now=NOW
    )
    assert first.outcome is Outcome.NEW
    assert await db.claim("d2", "pull_request", NOW)
    async with store.session() as session:
        row = await session.get(WebhookDeliveryRow, 2)
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
