"""The PR lookup's one freshness policy, on a real store and the fake GitHub, and the chat's
acknowledgement path over the real `bot.commands.Backend`."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import App
from bot.commands import cached_reply, dispatch, parse
from bot.commands.backend import services_context
from bot.core.config import Config, Environment, GitHubConfig, RepoConfig
from bot.core.errors import NeedsNetwork, PrUnreachable
from bot.store import Store
from bot.usecases.lookup import look_up_pr, look_up_pr_locally
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import make_prs, open_and_closed

REPO = "vllm-project/vllm"
START = datetime(2026, 6, 1, tzinfo=UTC)
OPEN = 90_000


@pytest.fixture
async def github() -> AsyncIterator[FakeGitHub]:
    async with FakeGitHub() as server:
        opened = open_and_closed(START, first_number=OPEN)[0]
        server.repos[REPO] = [*make_prs(3, START, START + timedelta(days=7), seed=1), opened]
        yield server


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    db = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 's.db'}")
    yield db
    await db.close()


@contextlib.asynccontextmanager
async def services(
    store: Store, github: FakeGitHub, *, reachable: bool = True, freshness: int = 60
) -> AsyncIterator[App]:
    """The real services over `store`: GitHub is the fake, or nothing listening."""
    api = github.api_url if reachable else "http://127.0.0.1:9"
    env = Environment(
        github_token=github.token, github_api_url=api, github_graphql_url=f"{api}/graphql"
    )
    config = Config(
        repos=[RepoConfig(name=REPO)],
        github=GitHubConfig(freshness_minutes=freshness, max_retries=0),
    )
    app = App(config=config, env=env, store=store)
    try:
        yield app
    finally:
        if (client := app.github_if_started) is not None:
            await client.aclose()  # the store is the fixture's to close


async def up(store: Store, github: FakeGitHub, number: int) -> None:
    """Look `number` up once with GitHub reachable: it is stored."""
    async with services(store, github) as online:
        await look_up_pr(online, REPO, number)


async def test_an_open_pr_is_used_while_fresh_then_fetched_again(
    store: Store, github: FakeGitHub
) -> None:
    await up(store, github, OPEN)
    github.touch(REPO, OPEN, title="[Model] Add a new model")
    async with services(store, github) as online:
        fresh = await look_up_pr(online, REPO, OPEN)
        assert fresh.pr.title == "[WIP] Add a new model"  # within the freshness window
        later = datetime.now(UTC) + timedelta(minutes=61)
        again = await look_up_pr(online, REPO, OPEN, now=later)
    assert again.pr.title == "[Model] Add a new model"
    stored = await store.prs.get(REPO, OPEN)
    assert stored is not None and stored.title == again.pr.title


async def test_github_down_falls_back_to_the_stored_copy_with_a_warning(
    store: Store, github: FakeGitHub, caplog: pytest.LogCaptureFixture
) -> None:
    await up(store, github, OPEN)
    later = datetime.now(UTC) + timedelta(hours=2)
    async with services(store, github, reachable=False) as offline:
        found = await look_up_pr(offline, REPO, OPEN, now=later)
    assert found.pr.title == "[WIP] Add a new model"
    assert f"showing stored {REPO}#{OPEN}: GitHub failed" in caplog.text


async def test_not_stored_and_unreachable_says_what_the_store_holds(
    store: Store, github: FakeGitHub
) -> None:
    await up(store, github, github.repos[REPO][0].number)
    async with services(store, github, reachable=False) as offline:
        with pytest.raises(PrUnreachable) as caught:
            await look_up_pr(offline, REPO, OPEN)
    assert (caught.value.elsewhere, caught.value.held) == ([], 1)


async def test_the_local_lookup_never_asks_github(store: Store, github: FakeGitHub) -> None:
    merged = github.repos[REPO][0].number
    async with services(store, github, reachable=False) as offline:
        with pytest.raises(NeedsNetwork):
            await look_up_pr_locally(offline, REPO, OPEN)  # not stored
        await up(store, github, merged)
        await up(store, github, OPEN)
        assert (await look_up_pr_locally(offline, REPO, merged)).pr.number == merged
        later = datetime.now(UTC) + timedelta(hours=2)
        with pytest.raises(NeedsNetwork):
            await look_up_pr_locally(offline, REPO, OPEN, now=later)  # open and stale
        assert offline.github_if_started is None


async def test_the_chat_ack_answers_from_the_store_only_when_the_policy_allows(
    store: Store, github: FakeGitHub
) -> None:
    merged = github.repos[REPO][0].number
    async with services(store, github, freshness=0) as online:  # stored open PRs: stale
        ctx = services_context(online, platform="slack", channel="C1", user="U1")
        assert await cached_reply(parse(f"pr {merged}"), ctx) is None  # not stored yet
        answered = await dispatch(parse(f"pr {merged}"), ctx)
        assert answered.ok and answered.document is not None
        quick = await cached_reply(parse(f"pr {merged}"), ctx)
        assert quick is not None and quick.document == answered.document
        assert (await dispatch(parse(f"pr {OPEN}"), ctx)).ok
        assert await cached_reply(parse(f"pr {OPEN}"), ctx) is None  # open: GitHub is asked
