from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.slack.poster import SlackPoster, slack_client
from bot.store import Store
from tests.fakes.slack import FakeSlack, VirtualClock


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


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
    fake: FakeSlack, clock: VirtualClock, token: str | None = None, **kw
) -> SlackPoster:
    client = slack_client(token or fake.token, fake.api_url)
    return SlackPoster(client, clock=clock, sleep=clock.sleep, **kw)
