"""The labelling-rules snapshot is cached in the store: `auto` repos cost no request per
command and keep their rules when GitHub is unreachable."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.core.errors import GitHubUnavailable
from bot.github.repo_files import cached_repo_snapshot
from tests.github.conftest import REPO

LABELER = "rocm:\n- changed-files:\n  - any-glob-to-any-file: csrc/rocm/**\n"


@pytest.fixture
def repo_with_rules(fake):
    fake.repos[REPO] = []
    fake.repo_files[REPO] = {".github/labeler.yml": LABELER, "vllm/__init__.py": ""}


async def test_second_read_costs_no_request(fake, store, make_client, repo_with_rules):
    client = make_client()
    first = await cached_repo_snapshot(lambda: client, REPO, store)
    used = client.requests
    assert used >= 1 and first.files[".github/labeler.yml"] == LABELER
    again = await cached_repo_snapshot(lambda: client, REPO, store)
    assert client.requests == used
    assert again == first


async def test_offline_uses_the_copy_and_none_without_one(
    fake, store, make_client, repo_with_rules
):
    client = make_client()
    assert await cached_repo_snapshot(lambda: client, REPO, store, offline=True) is None
    assert client.requests == 0
    fetched = await cached_repo_snapshot(lambda: client, REPO, store)
    assert await cached_repo_snapshot(lambda: client, REPO, store, offline=True) == fetched


async def test_stale_copy_is_refreshed_and_kept_when_github_fails(
    fake, store, make_client, repo_with_rules
):
    client = make_client(max_retries=0)
    await cached_repo_snapshot(lambda: client, REPO, store)
    fake.repo_files[REPO][".github/labeler.yml"] = LABELER + "xpu:\n- changed-files: []\n"
    refreshed = await cached_repo_snapshot(lambda: client, REPO, store, max_age=timedelta(0))
    assert "xpu" in refreshed.files[".github/labeler.yml"]
    fake.inject(status=502, times=10)
    kept = await cached_repo_snapshot(lambda: client, REPO, store, max_age=timedelta(0))
    assert kept == refreshed


async def test_failure_without_a_copy_raises(fake, store, make_client, repo_with_rules):
    fake.inject(status=502, times=10)
    with pytest.raises(GitHubUnavailable):
        await cached_repo_snapshot(lambda: make_client(max_retries=0), REPO, store)


async def test_no_client_is_built_offline_or_for_a_fresh_copy(
    fake, store, make_client, repo_with_rules
):
    built: list[object] = []

    def factory():
        built.append(make_client())
        return built[-1]

    assert await cached_repo_snapshot(factory, REPO, store, offline=True) is None
    assert built == []
    fetched = await cached_repo_snapshot(factory, REPO, store)
    assert len(built) == 1
    assert await cached_repo_snapshot(factory, REPO, store) == fetched  # fresh copy
    assert await cached_repo_snapshot(factory, REPO, store, offline=True) == fetched
    assert len(built) == 1
