"""Fixtures: a fake Discord on 127.0.0.1, discord.py pointed at it, and a ledger store."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from discord.http import HTTPClient

from bot.discord.endpoints import DiscordEndpoints, override_endpoints
from bot.store import Store
from tests.fakes.backend import bench, github_server, migrated_store
from tests.fakes.discord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server
    # Every test must also respect Discord's rate limits: a 429 the client earned by
    # ignoring the bucket headers (or a global limit) fails it, whatever it checked.
    assert server.violations == [], f"rate limits broken: {server.violations}"


@pytest.fixture
def endpoints(fake: FakeDiscord) -> Iterator[DiscordEndpoints]:
    # Only the API URL, as a user of a local fake would set it: the gateway comes from it.
    chosen = DiscordEndpoints(api_url=fake.api_url, gateway_url=None)
    with override_endpoints(chosen):
        yield chosen


@pytest.fixture
async def http(fake: FakeDiscord, endpoints: DiscordEndpoints) -> AsyncIterator[HTTPClient]:
    client = HTTPClient(asyncio.get_running_loop())
    await client.static_login(fake.token)
    try:
        yield client
    finally:
        await client.close()


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'ledger.sqlite3'}")
    try:
        yield opened
    finally:
        await opened.close()


__all__ = ["bench", "github_server", "migrated_store"]
