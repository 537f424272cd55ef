from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from slack_sdk.http_retry import async_handler, builtin_async_handlers

from bot.slack.poster import SlackPoster, slack_client
from bot.store import Store
from tests.fakes.backend import bench, github_server, migrated_store
from tests.fakes.slack import FakeSlack, VirtualClock


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> VirtualClock:
    """Virtual time for the poster's pacing and for slack_sdk's own retry waits (its
    handlers sleep through their module's `asyncio.sleep`; only that name is replaced)."""
    virtual = VirtualClock()
    for module in (async_handler, builtin_async_handlers):
        monkeypatch.setattr(module, "asyncio", SimpleNamespace(sleep=virtual.sleep))
    return virtual


@pytest.fixture
async def fake_slack(clock: VirtualClock) -> AsyncIterator[FakeSlack]:
    async with FakeSlack(clock=clock) as fake:
        yield fake


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}") as opened:
        yield opened


@pytest.fixture
def poster(fake_slack: FakeSlack, clock: VirtualClock) -> SlackPoster:
    return make_poster(fake_slack, clock)


def make_poster(
    fake: FakeSlack, clock: VirtualClock, token: str | None = None, **retries: int
) -> SlackPoster:
    """`retries`: slack_client's bounds (max_retries, max_rate_limit_waits)."""
    client = slack_client(token or fake.token, fake.api_url, **retries)
    return SlackPoster(client, clock=clock, sleep=clock.sleep)


__all__ = ["bench", "github_server", "migrated_store"]
