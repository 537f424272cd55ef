"""Fixtures for ingestion tests: a store, a fake GitHub and clients pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime

import pytest

from bot.core.weeks import Window
from bot.github.client import GitHubClient
from bot.store.store import Store
from tests.fakes.github import FakeGitHub

REPO = "vllm-project/vllm"
WEEK = Window(datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC), "2026-W23")


class Sleeps:
    """Injected instead of asyncio.sleep: records every wait asked for, waits for none."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


@pytest.fixture
async def store(tmp_path) -> AsyncIterator[Store]:
    db = await Store.open("sqlite+aiosqlite:///" + str(tmp_path / "s.db"))
    yield db
    await db.close()


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
async def fake() -> AsyncIterator[FakeGitHub]:
    async with FakeGitHub() as server:
        yield server


@pytest.fixture
async def make_client(
    fake: FakeGitHub, sleeps: Sleeps
) -> AsyncIterator[Callable[..., GitHubClient]]:
    clients: list[GitHubClient] = []

    def make(*, token: str | None = "default", **kwargs) -> GitHubClient:
        options = {"timeout": 5.0, "max_retries": 3, "sleep": sleeps} | kwargs
        client = GitHubClient(
            token=fake.token if token == "default" else token,
            api_url=fake.api_url,
            graphql_url=fake.graphql_url,
            **options,
        )
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()
