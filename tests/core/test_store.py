from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Text, inspect

import bot.alerts.tables  # noqa: F401  (registers the alert tables on the metadata)
from bot.core.models import FileChange, PullRequest
from bot.store import Store
from bot.store.ledger import Outcome, Owner
from bot.store.migrate import alembic_config
from bot.store.tables import metadata
from tests.fakes.databases import postgres_database

T0 = datetime(2026, 6, 1, tzinfo=UTC)


def make_pr(number: int, *, hours: int = 1, files: int = 2, repo: str = "o/r") -> PullRequest:
    return PullRequest(
        repo=repo,
        number=number,
        title=f"[Core] change {number}",
        url=f"https://github.com/{repo}/pull/{number}",
        state="merged",
        created_at=T0 - timedelta(days=1),
        merged_at=T0 + timedelta(hours=hours),
        author=f"user{number % 7}",
        additions=10 * number,
        deletions=number,
        changed_files=files,
        labels=["ready", f"l{number % 3}"],
        files=[FileChange(f"vllm/f{i}.py", i, 1, "MODIFIED") for i in range(files)],
    )


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "sqlite":
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 's.db'}")
        yield store
        await store.close()
        return
    async with postgres_database() as url:
        store = await Store.open(url)
        yield store
        await store.close()


async def test_migrations_create_every_table(store: Store) -> None:
    async with store.engine.connect() as conn:
        tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
    assert {"pull_requests", "pr_files", "pr_labels", "sync_windows", "deliveries"} <= tables
    assert "alembic_version" in tables


async def test_reopening_is_idempotent(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'again.db'}"
    for _ in range(2):
        store = await Store.open(url)
        await store.prs.upsert([make_pr(1)])
        await store.close()
    store = await Store.open(url)
    assert await store.prs.count_merged_between("o/r", T0, T0 + timedelta(days=1)) == 1
    await store.close()


async def test_round_trip_keeps_every_field(store: Store) -> None:
    pr = make_pr(7, files=250)
    await store.prs.upsert([pr])
    loaded = await store.prs.get("o/r", 7)
    assert loaded == pr
    assert loaded.merged_at.tzinfo is not None


async def test_upsert_replaces_files_and_labels(store: Store) -> None:
    await store.prs.upsert([make_pr(3, files=5)])
    changed = make_pr(3, files=2)
    changed.title = "[Core] renamed"
    changed.labels = ["other"]
    await store.prs.upsert([changed])
    loaded = await store.prs.get("o/r", 3)
    assert loaded.title == "[Core] renamed"
    assert loaded.labels == ["other"]
    assert [f.path for f in loaded.files] == ["vllm/f0.py", "vllm/f1.py"]


async def test_window_query_is_half_open_and_ordered(store: Store) -> None:
    prs = [make_pr(n, hours=h) for n, h in [(1, 0), (2, 23), (3, 24), (4, 5)]]
    await store.prs.upsert(prs)
    got = await store.prs.merged_between("o/r", T0, T0 + timedelta(hours=24))
    assert [p.number for p in got] == [1, 4, 2]
    assert await store.prs.get("o/r", 99) is None
    assert await store.prs.merged_between("x/y", T0, T0 + timedelta(days=9)) == []


async def test_coverage_needs_complete_windows_without_gaps(store: Store) -> None:
    day = timedelta(days=1)
    await store.windows.mark("o/r", T0, T0 + 3 * day, complete=True, pr_count=1)
    await store.windows.mark("o/r", T0 + 3 * day, T0 + 7 * day, complete=False, pr_count=1)
    assert await store.windows.is_covered("o/r", T0, T0 + 3 * day)
    assert not await store.windows.is_covered("o/r", T0, T0 + 7 * day)
    await store.windows.mark("o/r", T0 + 3 * day, T0 + 7 * day, complete=True, pr_count=2)
    assert await store.windows.is_covered("o/r", T0, T0 + 7 * day)
    assert not await store.windows.is_covered("o/r", T0 - day, T0 + 7 * day)


async def test_delivery_ledger_records_each_part_once(store: Store) -> None:
    await store.deliveries.record("digest:x", "slack", "C1", 0, 3, "1.0", None)
    await store.deliveries.record("digest:x", "slack", "C1", 1, 3, "1.1", "1.0")
    await store.deliveries.record("digest:x", "slack", "C1", 1, 3, "1.2", "1.0")
    ledger = await store.deliveries.sent("digest:x", "slack", "C1")
    assert sorted(ledger) == [0, 1]
    assert ledger[1].message_id == "1.2"
    assert await store.deliveries.sent("digest:x", "slack", "C2") == {}
    await store.deliveries.forget("digest:x", "slack", "C1")
    assert await store.deliveries.sent("digest:x", "slack", "C1") == {}


async def test_a_delivery_part_is_claimed_by_one_runner_only(store: Store) -> None:
    # A second Store is a second process's connection pool over the same database; the
    # owners live on another host, so only their leases (5 minutes) say when they are gone.
    other = await Store.open(store.engine.url.render_as_string(hide_password=False))
    a, b = Owner("a", "host-a", 1), Owner("b", "host-b", 2)
    try:
        claim = await store.deliveries.claim("digest:x", "slack", "C1", 0, 2, owner=a, now=T0)
        assert claim.outcome is Outcome.NEW
        busy = await other.deliveries.claim("digest:x", "slack", "C1", 0, 2, owner=b, now=T0)
        assert busy.outcome is Outcome.BUSY and busy.holder == a
        # A claim is not a post: the ledger (and the scheduler's catch-up) ignore it.
        assert await store.deliveries.sent("digest:x", "slack", "C1") == {}

        late = T0 + timedelta(minutes=6)
        taken = await other.deliveries.claim("digest:x", "slack", "C1", 0, 2, owner=b, now=late)
        assert taken.outcome is Outcome.DOUBT and taken.holder == a
        again = await store.deliveries.claim("digest:x", "slack", "C1", 0, 2, owner=a, now=late)
        assert again.outcome is Outcome.BUSY
        # The run that lost its claim cannot release the one that took it over.
        await store.deliveries.release("digest:x", "slack", "C1", 0, owner=a)
        again = await store.deliveries.claim("digest:x", "slack", "C1", 0, 2, owner=a, now=late)
        assert again.outcome is Outcome.BUSY

        await other.deliveries.record("digest:x", "slack", "C1", 0, 2, "1.0", None)
        assert list(await store.deliveries.sent("digest:x", "slack", "C1")) == [0]
        # A sent part never becomes claimable again, however old.
        much_later = T0 + timedelta(days=30)
        done = await store.deliveries.claim(
            "digest:x", "slack", "C1", 0, 2, owner=a, now=much_later
        )
        assert done.outcome is Outcome.DONE
        await other.deliveries.release("digest:x", "slack", "C1", 0, owner=b)
        assert list(await store.deliveries.sent("digest:x", "slack", "C1")) == [0]
    finally:
        await other.close()


async def test_stored_errors_are_redacted_one_line_and_short(store: Store) -> None:
    from bot.core.secrets import register

    secret = "ghp_" + "s" * 36
    register([secret])
    owner = Owner.current()
    await store.deliveries.claim("digest:x", "slack", "C1", 0, 1, owner=owner)
    error = RuntimeError(f"Illegal header value b'Bearer {secret}\\n'\n" + "detail " * 200)
    await store.deliveries.fail("digest:x", "slack", "C1", 0, owner=owner, error=error)
    stored = (await store.deliveries.errors("digest:x", "slack", "C1"))[0]
    assert secret not in stored and "\n" not in stored and len(stored) < 300


async def test_migration_0004_keeps_earlier_deliveries_as_sent(tmp_path: Path) -> None:
    from tests.fakes.databases import database_at

    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    await database_at(
        url,
        "0003",
        "INSERT INTO deliveries (document, platform, channel, part, parts, message_id, "
        "posted_at, attempt) VALUES ('digest:x', 'slack', 'C1', 0, 1, '1.0', "
        "'2026-06-01 00:00:00', 1)",
    )

    async with await Store.open(url) as store:
        ledger = await store.deliveries.sent("digest:x", "slack", "C1")
        assert [(d.part, d.message_id) for d in ledger.values()] == [(0, "1.0")]


async def test_migrations_build_exactly_the_tables_the_code_declares(store: Store) -> None:
    """Autogenerate against the freshly migrated database finds nothing to do: every table
    (the alerts' included), column, type, nullability, default, key, index and constraint
    of bot.store.tables and bot.alerts.tables is what the migrations made."""

    def diff(connection) -> list:
        context = MigrationContext.configure(connection, opts={"compare_server_default": True})
        return compare_metadata(context, metadata)

    async with store.engine.connect() as connection:
        changes = await connection.run_sync(diff)
    # Migration 0008 widened these to TEXT on PostgreSQL only: SQLite never enforced the
    # VARCHAR length, so its columns keep the old declared type (and mean the same).
    widened = ScriptDirectory.from_config(alembic_config()).get_revision("0008").module.COLUMNS
    expected = (
        {(table, column, f"VARCHAR({length})") for table, column, length in widened}
        if store.engine.dialect.name == "sqlite"
        else set()
    )
    found: set[object] = set()
    for group in changes:
        for change in group if isinstance(group, list) else [group]:
            if change[0] == "modify_type" and isinstance(change[-1], Text):
                found.add((change[2], change[3], str(change[-2])))
            else:
                found.add(repr(change))
    assert found == expected


async def test_naive_datetimes_are_rejected(store: Store) -> None:
    pr = make_pr(1)
    pr.merged_at = datetime(2026, 6, 1)
    with pytest.raises(Exception, match="naive datetime"):
        await store.prs.upsert([pr])


@given(
    title=st.text(st.characters(codec="utf-8") | st.sampled_from(["\x00", "\ufffe", "0"])),
)
@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_text_escaping_is_lossless(title: str) -> None:
    from bot.store.text import load_text, store_text

    stored = store_text(title)
    assert "\x00" not in stored
    assert load_text(stored) == title


async def test_nul_bytes_and_lone_surrogates_do_not_fail_the_week(store: Store) -> None:
    from dataclasses import replace

    nasty = replace(
        make_pr(7),
        title="Fix\x00 NUL \ufffe in title",
        body="body\x00with\x00nuls \ud800 and a lone surrogate",
        author="al\x00ice",
        labels=["ready\x00"],
    )
    others = [make_pr(n) for n in (8, 9)]
    await store.prs.upsert([*others, nasty])
    back = await store.prs.get("o/r", 7)
    assert back is not None
    assert back.title == nasty.title and back.author == "al\x00ice"
    assert back.body == "body\x00with\x00nuls \ufffd and a lone surrogate"
    assert back.labels == ["ready\x00"]
    assert await store.prs.get("o/r", 8) is not None and await store.prs.get("o/r", 9) is not None
