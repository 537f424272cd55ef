"""A release fetched from the fake GitHub: tags, compare pages, PRs in batches of 100."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.errors import UsageError
from bot.github.client import GitHubClient
from bot.releases.fetch import fetch_release
from tests.fakes.github import FakeCommit, FakeGitHub, FakeTag
from tests.fakes.prdata import FakePR
from tests.releases.helpers import merged, squash

REPO = "vllm-project/vllm-ascend"
START = datetime(2026, 5, 1, tzinfo=UTC)


def _history(count: int, first: int = 1000) -> tuple[list[FakePR], list[FakeCommit]]:
    prs = [
        merged(first + i, f"[Feature] Change {first + i}", START + timedelta(hours=i))
        for i in range(count)
    ]
    return prs, [squash(pr) for pr in prs]


@pytest.fixture
async def client_for() -> AsyncIterator:
    clients: list[GitHubClient] = []

    def make(fake: FakeGitHub, token: str | None = "default") -> GitHubClient:
        client = GitHubClient(
            token=fake.token if token == "default" else token,
            api_url=fake.api_url,
            graphql_url=fake.graphql_url,
            timeout=5.0,
            max_retries=0,
        )
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()


def _tags(commits: list[FakeCommit], cut: int) -> list[FakeTag]:
    return [
        FakeTag("v0.20.2rc1", commits[:cut]),
        FakeTag("v0.21.0rc1", commits),
        FakeTag("nightly", commits, release=False),
    ]


async def test_a_250_commit_release_costs_its_lower_bound(store, client_for):
    prs, commits = _history(300)
    async with FakeGitHub({REPO: prs}, tags={REPO: _tags(commits, 50)}) as fake:
        release, requests = await fetch_release(store, client_for(fake), REPO, "v0.21.0rc1")
        compare_pages = len(fake.requests("compare"))
        graphql = len(fake.requests("PullRequestsByNumber"))
    assert release.base == "v0.20.2rc1"  # by the version rule; "nightly" is no base
    assert [n for n, _ in release.entries] == [p.number for p in prs[50:]]
    assert compare_pages == math.ceil(250 / 100)
    assert graphql == math.ceil(250 / 100)
    assert requests.used == requests.lower_bound
    stored = await store.prs.many(REPO, [p.number for p in prs[50:]])
    assert len(stored) == 250


async def test_prs_already_stored_cost_no_request(store, client_for):
    prs, commits = _history(120)
    async with FakeGitHub({REPO: prs}, tags={REPO: _tags(commits, 0)}) as fake:
        client = client_for(fake)
        await fetch_release(store, client, REPO, "v0.21.0rc1", base="v0.20.2rc1")
        first = len(fake.requests("PullRequestsByNumber"))
        _, requests = await fetch_release(store, client, REPO, "v0.21.0rc1", base="v0.20.2rc1")
        second = len(fake.requests("PullRequestsByNumber")) - first
    assert (first, second) == (2, 0)
    assert requests.lower_bound == math.ceil(120 / 100) + 1


async def test_a_cherry_pick_is_reported_as_its_original_pr(store, client_for):
    prs, commits = _history(3)
    when = START + timedelta(days=3)
    prs.append(merged(11217, "[0.21.0] Fix DSv4 (from #10600)", when))
    commits.append(FakeCommit("pick", "[0.21.0] Fix DSv4 (from #10600) (#11217)", when))
    commits.append(FakeCommit("push", "Bump version", when))
    async with FakeGitHub({REPO: prs}, tags={REPO: _tags(commits, 1)}) as fake:
        release, _ = await fetch_release(store, client_for(fake), REPO, "v0.21.0rc1")
    assert (10600, 11217) in release.entries
    assert release.unmapped == ["push"]
    assert release.url == f"https://github.com/{REPO}/releases/tag/v0.21.0rc1"


async def test_an_unknown_tag_names_the_tags_there_are(store, client_for):
    prs, commits = _history(2)
    async with FakeGitHub({REPO: prs}, tags={REPO: _tags(commits, 1)}) as fake:
        with pytest.raises(UsageError, match=r"no tag 'v9.9'.*v0.21.0rc1, v0.20.2rc1"):
            await fetch_release(store, client_for(fake), REPO, "v9.9")
        with pytest.raises(UsageError, match=r"no release tag before v0\.20\.2rc1"):
            await fetch_release(store, client_for(fake), REPO, "v0.20.2rc1")


async def test_a_release_error_reads_in_the_chat_language_and_english_on_the_cli(store, client_for):
    prs, commits = _history(2)
    async with FakeGitHub({REPO: prs}, tags={REPO: _tags(commits, 1)}) as fake:
        with pytest.raises(UsageError) as unknown:
            await fetch_release(store, client_for(fake), REPO, "v9.9")
        with pytest.raises(UsageError) as first:
            await fetch_release(store, client_for(fake), REPO, "v0.20.2rc1")
    assert str(unknown.value) == (f"{REPO} has no tag 'v9.9'; newest tags: v0.21.0rc1, v0.20.2rc1")
    assert unknown.value.message("zh") == (
        f"{REPO} 没有标签 'v9.9'；最新的标签：v0.21.0rc1, v0.20.2rc1"
    )
    assert first.value.message("zh") == "v0.20.2rc1 之前没有版本标签；请用 `--base TAG` 指定"


async def test_a_repository_without_version_tags_says_none_in_each_language(store, client_for):
    prs, commits = _history(2)
    tags = {REPO: [FakeTag("nightly", commits, release=False)]}
    async with FakeGitHub({REPO: prs}, tags=tags) as fake:
        with pytest.raises(UsageError) as refused:
            await fetch_release(store, client_for(fake), REPO, "v1.0.0")
    assert str(refused.value) == f"{REPO} has no tag 'v1.0.0'; newest tags: none"
    assert refused.value.message("zh").endswith("最新的标签：无")


async def test_without_a_token_missing_prs_come_from_rest(store, client_for):
    prs, commits = _history(4)
    async with FakeGitHub({REPO: prs}, tags={REPO: _tags(commits, 1)}) as fake:
        release, _ = await fetch_release(store, client_for(fake, token=None), REPO, "v0.21.0rc1")
        assert len(fake.requests("pulls")) == 3
    assert len(await store.prs.many(REPO, [n for n, _ in release.entries])) == 3


async def test_a_final_tagged_after_the_next_candidate_is_not_its_base(store, client_for):
    prs, commits = _history(4)
    late = START + timedelta(days=30)
    fix = merged(2000, "[BugFix] Fix on the release branch", late)
    tags = [
        FakeTag("v0.23.0rc1", commits[:2]),
        # The final is tagged on its branch after v0.24.0rc1: not in v0.24.0rc1's history.
        FakeTag("v0.23.0", [*commits[:2], squash(fix)]),
        FakeTag("v0.24.0rc1", commits),
    ]
    async with FakeGitHub({REPO: [*prs, fix]}, tags={REPO: tags}) as fake:
        release, _ = await fetch_release(store, client_for(fake), REPO, "v0.24.0rc1")
    assert release.base == "v0.23.0rc1"
    assert [n for n, _ in release.entries] == [1002, 1003]
