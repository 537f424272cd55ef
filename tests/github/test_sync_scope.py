"""One search over several repositories: request counts, per-repository completeness."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest

from bot.core.errors import GitHubError
from bot.github import queries as q
from bot.sync import sync_scope, sync_window
from tests.fakes.prdata import make_prs
from tests.github.conftest import WEEK

VLLM, ASCEND = "vllm-project/vllm", "vllm-project/vllm-ascend"


def searches(fake) -> int:
    return sum(r.operation.startswith("SearchMergedPullRequests") for r in fake.log)


def file_pages(fake) -> int:
    return sum(r.operation == "MorePullRequestFiles" for r in fake.log)


@pytest.fixture
def two_repos(fake):
    # Both repositories use the same PR numbers: they must stay apart.
    fake.repos[VLLM] = make_prs(250, WEEK.start, WEEK.end, seed=1, big={3: 180})
    fake.repos[ASCEND] = make_prs(80, WEEK.start, WEEK.end, seed=2, big={5: 130})
    return fake


async def test_two_repositories_one_search(two_repos, store, make_client):
    client = make_client()
    result = await sync_scope(store, client, WEEK, repos=[VLLM, ASCEND])

    assert result.repos == {VLLM: 250, ASCEND: 80}
    # ceil(330 / 100) search pages + one aliased request for both big PRs' second file
    # page... per repository (file pages are asked per repository).
    assert searches(two_repos) == math.ceil(330 / 100)
    assert file_pages(two_repos) == 2
    assert result.requests == 4 + 2
    for repo in (VLLM, ASCEND):
        got = await store.prs.merged_between(repo, WEEK.start, WEEK.end)
        assert sorted(pr.number for pr in got) == sorted(pr.number for pr in two_repos.repos[repo])
        assert {pr.repo for pr in got} == {repo}
        assert await store.windows.is_covered(repo, WEEK.start_utc, WEEK.end_utc)
    big = await store.prs.get(ASCEND, two_repos.repos[ASCEND][5].number)
    assert len(big.files) == 130


async def test_fingerprint_matches_the_single_repository_probe(two_repos, store, make_client):
    client = make_client()
    await sync_scope(store, client, WEEK, repos=[VLLM, ASCEND])
    before = len(two_repos.log)
    # Forced past the freshness period, the per-repository probe confirms the window.
    result = await sync_window(store, client, ASCEND, WEEK, freshness=timedelta(0))
    assert result.confirmed_unchanged
    assert len(two_repos.log) - before == 1


async def test_an_already_synced_repository_costs_nothing(two_repos, store, make_client):
    client = make_client()
    await sync_scope(store, client, WEEK, repos=[ASCEND])
    two_repos.log.clear()
    result = await sync_scope(store, client, WEEK, repos=[VLLM, ASCEND])
    assert result.searched == [VLLM]
    queries = [r for r in two_repos.log if r.operation.startswith("SearchMerged")]
    assert all(f"repo:{ASCEND}" not in (r.variables or {}).get("q", "") for r in queries)
    assert searches(two_repos) == 3
    two_repos.log.clear()
    again = await sync_scope(store, client, WEEK, repos=[VLLM, ASCEND])
    assert again.requests == 0 and two_repos.log == []
    assert again.repos == {VLLM: 250, ASCEND: 80}


async def test_ten_repositories_of_a_hundred(fake, store, make_client):
    names = [f"vllm-project/r{i}" for i in range(10)]
    for i, name in enumerate(names):
        fake.repos[name] = make_prs(100, WEEK.start, WEEK.end, seed=10 + i)
    client = make_client()
    result = await sync_scope(store, client, WEEK, org="vllm-project")
    assert result.repos == dict.fromkeys(sorted(names), 100)
    assert searches(fake) == 10  # ceil(1000 / 100); one sync per repository also costs 10
    assert result.requests == 10


async def test_org_discovers_repositories_and_honours_exclude(fake, store, make_client):
    fake.repos[VLLM] = make_prs(30, WEEK.start, WEEK.end, seed=1)
    fake.repos[ASCEND] = make_prs(20, WEEK.start, WEEK.end, seed=2)
    fake.repos["vllm-project/guidellm"] = make_prs(5, WEEK.start, WEEK.end, seed=3)
    fake.repos["vllm-project/quiet"] = []
    fake.repos["other/repo"] = make_prs(9, WEEK.start, WEEK.end, seed=4)
    client = make_client()
    result = await sync_scope(
        store, client, WEEK, org="vllm-project", exclude=["vllm-project/guidellm"]
    )
    assert result.repos == {VLLM: 30, ASCEND: 20}
    assert result.requests == 1  # 50 PRs of two repositories: one page (vs 2 syncs)
    query = next(r for r in fake.log if r.operation.startswith("SearchMerged")).variables["q"]
    assert query.startswith("org:vllm-project is:public -repo:vllm-project/guidellm ")
    fake.log.clear()
    again = await sync_scope(
        store, client, WEEK, org="vllm-project", exclude=["vllm-project/guidellm"]
    )
    assert again.requests == 0 and again.repos == result.repos


async def test_more_than_a_thousand_results_split_by_date(fake, store, make_client):
    for i in range(3):
        fake.repos[f"vllm-project/r{i}"] = make_prs(500, WEEK.start, WEEK.end, seed=20 + i)
    client = make_client()
    result = await sync_scope(store, client, WEEK, org="vllm-project")
    assert sum(result.repos.values()) == 1500
    assert all(count == 500 for count in result.repos.values())


async def test_a_failed_search_leaves_every_repository_incomplete(two_repos, store, make_client):
    two_repos.inject(status=502, times=100, after=2, match="SearchMergedPullRequestsInScope")
    client = make_client(max_retries=0)
    with pytest.raises(GitHubError):
        await sync_scope(store, client, WEEK, repos=[VLLM, ASCEND])
    for repo in (VLLM, ASCEND):
        assert not await store.windows.is_covered(repo, WEEK.start_utc, WEEK.end_utc)


def test_scope_qualifiers() -> None:
    assert q.scope_qualifiers(repos=[VLLM, ASCEND]) == f"repo:{VLLM} repo:{ASCEND}"
    assert q.scope_qualifiers(org="vllm-project", exclude=[ASCEND]) == (
        f"org:vllm-project is:public -repo:{ASCEND}"
    )
    with pytest.raises(ValueError):
        q.scope_qualifiers()
