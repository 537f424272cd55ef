"""The App builds only what a command uses, through the real CLI entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import App
from bot.core.config import Environment, load_config
from bot.store import Store
from bot.store.migrate import head_revision

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "vllm-sample-2026-W22-W23.json"

# Run `vllm-bot ARGS` in this process's interpreter and report what it loaded.
PROBE = """
import sys
from bot.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {
    "bot", "alembic", "slack_sdk", "slack_bolt", "discord", "apscheduler", "aiohttp"})
print("\\n" + __import__("json").dumps({"code": code, "loaded": loaded}))
"""


def _cli(args: list[str], db: Path) -> dict[str, object]:
    env = {"DATABASE_URL": f"sqlite:///{db}", "PATH": "/usr/bin:/bin", "HOME": str(db.parent)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def warm_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("app") / "bot.sqlite3"
    args = ["import", str(SAMPLE), "--since", "2026-05-25", "--until", "2026-06-08"]
    assert _cli([*args, "--complete"], db)["code"] in (0, None)
    return db


@pytest.mark.subprocess  # what a fresh interpreter loads
def test_a_pr_lookup_loads_no_alerts_platform_scheduler_or_migrations(warm_store: Path) -> None:
    result = _cli(["pr", "43001"], warm_store)
    assert result["code"] in (0, None)
    loaded = set(result["loaded"])  # type: ignore[call-overload]
    assert "bot.analysis" in loaded  # it did analyse the PR
    unwanted = {
        "bot.alerts",
        "bot.alerts.wiring",
        "bot.serve",
        "bot.runtime.scheduler",
        "apscheduler",
        "slack_sdk",
        "slack_bolt",
        "discord",
        "alembic",  # the store is at the newest revision
    }
    assert loaded & unwanted == set()


@pytest.mark.subprocess  # what a fresh interpreter loads
def test_help_in_chat_builds_no_alerts_runtime(warm_store: Path) -> None:
    result = _cli(["chat", "/vllm help"], warm_store)
    assert result["code"] in (0, None)
    loaded = set(result["loaded"])  # type: ignore[call-overload]
    assert {"bot.alerts.wiring", "bot.alerts.pipeline", "discord", "slack_bolt"} & loaded == set()
    # Help is answered from the config alone: the store is not even imported.
    assert {"bot.store", "bot.app"} & loaded == set()


@pytest.mark.subprocess  # what a fresh interpreter loads
def test_a_one_repository_digest_loads_no_organisation_digest(warm_store: Path) -> None:
    result = _cli(["digest", "--week", "2026-W23", "--no-sync", "--format", "json"], warm_store)
    assert result["code"] in (0, None)
    loaded = set(result["loaded"])  # type: ignore[call-overload]
    assert "bot.digest.pipeline" in loaded and "bot.digest.org" not in loaded


async def test_subscriptions_need_no_alerts_runtime_but_reach_a_running_one(
    tmp_path: Path,
) -> None:
    from bot.core.filters import SubscriptionFilters

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    app = App(config=load_config(), env=Environment(), store=store)
    try:
        # Reading (every command does, for the channel's language) and changing need the
        # store only: no alerts pipeline is built for a chat command.
        found = await app.subscriptions.list(platform="slack", channel="C0123")
        assert list(found) == [] and app._alerts is None
        removed = await app.subscriptions.unsubscribe(
            platform="slack", channel="C0123", user=None, target="all", kind="all"
        )
        assert removed == 0 and app._alerts is None
        early = app.subscriptions
        runtime = app.alerts()
        assert app.subscriptions is runtime.subscriptions
        # A service handed out before the runtime was built still invalidates its index.
        index = await runtime.pipeline.index()
        await early.subscribe(
            platform="slack",
            channel="C0123",
            user=None,
            modules=["rocm"],
            filters=SubscriptionFilters(),
        )
        assert runtime.pipeline._index is None
        assert index.size == 0 and (await runtime.pipeline.index()).size == 1
    finally:
        await app.close()


def test_the_fast_schema_check_knows_alembics_head() -> None:
    from alembic.script import ScriptDirectory

    from bot.store.migrate import alembic_config

    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()


async def test_a_store_behind_head_is_still_upgraded(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import Connection, inspect, text

    from bot.store.migrate import alembic_config

    def downgrade(connection: Connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.downgrade(config, "0003")

    def columns(connection: Connection) -> set[str]:
        return {c["name"] for c in inspect(connection).get_columns("deliveries")}

    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    store = await Store.open(url)
    async with store.engine.begin() as connection:
        await connection.run_sync(downgrade)
        assert "state" not in await connection.run_sync(columns)
    await store.close()
    store = await Store.open(url)
    try:
        async with store.engine.connect() as connection:
            version = await connection.execute(text("SELECT version_num FROM alembic_version"))
            assert [row[0] for row in version] == [head_revision()]
            assert "state" in await connection.run_sync(columns)
    finally:
        await store.close()


async def test_a_weekly_subscription_goes_through_the_app_as_weekly(tmp_path: Path) -> None:
    from bot.core.filters import SubscriptionFilters

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    app = App(config=load_config(), env=Environment(), store=store)
    try:
        info = await app.subscriptions.subscribe(
            platform="slack",
            channel="C0123",
            user=None,
            modules=["rocm"],
            filters=SubscriptionFilters(),
            weekly=True,
        )
        assert info.weekly
        listed = await app.subscriptions.list(platform="slack", channel="C0123")
        assert [s.weekly for s in listed] == [True]
    finally:
        await app.close()
