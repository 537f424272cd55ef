"""The real command backend (`bot.commands.Backend` over `bot.app.App`) on a throwaway SQLite
store and the fake GitHub, for the platform and command tests.

The fake GitHub runs once per session on its own thread (`BackgroundFake`) and is emptied
for each test; each test gets a copy of one migrated store (migrating takes ~0.5 s, a copy
~1 ms). Import the fixtures into a directory's conftest to use them.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.app import App
from bot.commands.context import Backend
from bot.core.config import Config, Environment, GitHubConfig, RepoConfig
from bot.core.models import PullRequest
from bot.store import Store
from tests.fakes.background import BackgroundFake
from tests.fakes.github import TOKEN, FakeGitHub
from tests.fakes.prdata import FakeFile, FakePR, make_prs

REPO = "vllm-project/vllm"
NOW = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)  # Wednesday of 2026-W24


def make_pr(number: int, *, title: str | None = None, repo: str = REPO) -> PullRequest:
    """A merged PR of 2026-W23 (merged on Wednesday 2026-06-03)."""
    return PullRequest(
        repo=repo,
        number=number,
        title=title or f"[Attention] Faster kernels, part {number}",
        url=f"https://github.com/{repo}/pull/{number}",
        state="merged",
        created_at=datetime(2026, 6, 1, tzinfo=UTC),
        merged_at=datetime(2026, 6, 3, tzinfo=UTC),
        closed_at=datetime(2026, 6, 3, tzinfo=UTC),
        author="octocat",
        additions=120,
        deletions=30,
        changed_files=1,
        files=[],
        files_known=False,
    )


def fake_pr(pr: PullRequest) -> FakePR:
    """GitHub's copy of `pr` (what a fetch finds)."""
    merged = pr.merged_at
    return FakePR(
        number=pr.number,
        title=pr.title,
        author=pr.author,
        created_at=pr.created_at,
        updated_at=merged or pr.created_at,
        state="MERGED" if merged else pr.state.upper(),
        merged_at=merged,
        closed_at=pr.closed_at or merged,
        labels=list(pr.labels),
        files=[FakeFile("vllm/attention/backends/flash_attn.py", pr.additions, pr.deletions)],
    )


@dataclass
class Bench:
    """What a command test drives: the real backend over `store` and `github`."""

    github: FakeGitHub
    store: Store
    app: App

    @property
    def backend(self) -> Backend:
        return Backend(self.app)

    async def add(self, pr: PullRequest, *, cached: bool) -> None:
        """`pr` on GitHub, and in the store too when `cached`."""
        self.github.repos.setdefault(pr.repo, []).append(fake_pr(pr))
        if cached:
            await self.store.prs.upsert([pr])

    def fetches(self) -> list[tuple[str, int]]:
        """The PRs GitHub was asked for, in order (the GraphQL lookups of one PR)."""
        return [
            (f"{v['owner']}/{v['name']}", v["number"])
            for r in self.github.requests()
            if (v := r.variables) and "number" in v and "owner" in v
        ]


@pytest.fixture(scope="session")
def github_server() -> Iterator[FakeGitHub]:
    with BackgroundFake(FakeGitHub()) as fake:
        yield fake


@pytest.fixture(scope="session")
def migrated_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One migrated SQLite file, copied by each test that needs a store."""
    import asyncio

    path = tmp_path_factory.mktemp("store-template") / "bot.sqlite3"

    async def migrate() -> None:
        await (await Store.open(f"sqlite+aiosqlite:///{path}")).close()

    asyncio.run(migrate())
    return path


def bench_config(*repos: str) -> Config:
    return Config(
        repos=[RepoConfig(name=r) for r in (repos or (REPO,))],
        github=GitHubConfig(max_retries=0),
    )


@pytest.fixture
async def bench(
    github_server: FakeGitHub, migrated_store: Path, tmp_path: Path
) -> AsyncIterator[Bench]:
    github = github_server
    github.token = TOKEN
    github.repos.clear()
    github.repos[REPO] = []  # watched, with no PRs yet
    github.tags.clear()
    github.faults.clear()
    github.holds.clear()
    github.log.clear()
    for budget in github.budgets.values():
        budget.remaining = budget.limit
    copy = tmp_path / "bot.sqlite3"
    shutil.copyfile(migrated_store, copy)
    store = await Store.open(f"sqlite+aiosqlite:///{copy}", migrate=False)
    env = Environment(
        github_token=github.token,
        github_api_url=github.api_url,
        github_graphql_url=github.graphql_url,
    )
    app = App(config=bench_config(), env=env, store=store)
    try:
        yield Bench(github, store, app)
    finally:
        for gate in github.gates:
            gate.release()  # a hold the test left: the server's handler must not wait on it
        github.gates.clear()
        if (client := app.github_if_started) is not None:
            await client.aclose()
        await store.close()


W23 = (datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC))


def seed_week(bench: Bench, count: int = 10) -> list[FakePR]:
    """`count` PRs merged in 2026-W23 on GitHub (a digest-sized week), not in the store."""
    prs = make_prs(count, *W23, seed=7, first_number=30_000)
    bench.github.repos.setdefault(REPO, []).extend(prs)
    return prs
