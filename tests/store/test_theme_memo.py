"""The store's theme memo (bot/store/theme_memo.py) on SQLite and PostgreSQL: entries
round-trip per scope (all of them, or those of some key prefixes), saving a key twice is
harmless, old rows expire, and the table is the one its migration (0009) creates."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection

from bot.store import Store
from bot.store.theme_memo import KEEP

NOW = datetime(2026, 6, 8, tzinfo=UTC)


async def test_entries_round_trip_per_scope(store: Store) -> None:
    text = '[["deepseekv4","DeepSeek V4",true],["ß","中文 \\u0000",false]]'
    await store.theme_memo.save("o/a", {"k1": text, "k2": "{}"}, now=NOW)
    await store.theme_memo.save("o/b", {"k1": "other"}, now=NOW)
    assert await store.theme_memo.load("o/a") == {"k1": text, "k2": "{}"}
    assert await store.theme_memo.load("o/b") == {"k1": "other"}
    assert await store.theme_memo.load("o/c") == {}


async def test_loading_by_prefix_reads_only_the_keys_that_start_with_one(store: Store) -> None:
    # Keys start with their code version: rows an earlier version left are not read.
    keys = ["0a1b" + "0" * 60, "0a1bf" + "f" * 59, "0a1c" + "0" * 60, "ff00" + "9" * 60]
    await store.theme_memo.save("o/a", {k: k[:5] for k in keys}, now=NOW)
    await store.theme_memo.save("o/b", {keys[0]: "other scope"}, now=NOW)
    assert await store.theme_memo.load("o/a", ["0a1b"]) == {keys[0]: "0a1b0", keys[1]: "0a1bf"}
    assert await store.theme_memo.load("o/a", ["0a1c", "ff00"]) == {
        keys[2]: "0a1c0",
        keys[3]: "ff009",
    }
    assert await store.theme_memo.load("o/a", ["0a1d"]) == {}
    assert await store.theme_memo.load("o/a", []) == {}
    assert len(await store.theme_memo.load("o/a")) == 4


async def test_saving_a_kept_key_again_keeps_one_row(store: Store) -> None:
    # Two runs racing on the same week compute the same value under the same key.
    await store.theme_memo.save("o/a", {"k": "v"}, now=NOW)
    await store.theme_memo.save("o/a", {"k": "v", "k2": "w"}, now=NOW)
    assert await store.theme_memo.load("o/a") == {"k": "v", "k2": "w"}


async def test_rows_older_than_keep_expire_when_new_ones_are_saved(store: Store) -> None:
    await store.theme_memo.save("o/a", {"old": "1"}, now=NOW - KEEP - timedelta(days=1))
    await store.theme_memo.save("o/a", {"recent": "2"}, now=NOW - KEEP + timedelta(days=1))
    await store.theme_memo.save("o/b", {"old": "3"}, now=NOW - KEEP - timedelta(days=1))
    await store.theme_memo.save("o/a", {"new": "4"}, now=NOW)
    assert await store.theme_memo.load("o/a") == {"recent": "2", "new": "4"}
    assert await store.theme_memo.load("o/b") == {"old": "3"}  # another scope's own business


async def test_table_matches_its_declaration(store: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from bot.store.tables import metadata

    def diff(connection: Connection) -> list[object]:
        return list(compare_metadata(MigrationContext.configure(connection), metadata))

    async with store.engine.connect() as connection:
        changes = await connection.run_sync(diff)
    assert [c for c in changes if "theme_memo" in repr(c)] == []
