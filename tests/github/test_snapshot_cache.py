"""The labelling-rules snapshot is kept in the store: commands of an `auto` repository read
the stored copy (no request), and `sync`/`serve` refresh it once it is a day old, not again
for an hour after a failure."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.github.repo_files import refresh_repo_snapshot
from tests.github.conftest import REPO

LABELER = "rocm:\n- changed-files:\n  - any-glob-to-any-file: csrc/rocm/**\n"


@pytest.fixture
def repo_with_rules(fake):
    fake.repos[REPO] = []
    fake.repo_files[REPO] = {".github/labeler.yml": LABELER, "vllm/__init__.py": ""}


def _later(hours: float) -> datetime:
    return datetime.now(UTC) + timedelta(hours=hours)


async def test_a_fresh_copy_costs_no_request(fake, store, make_client, repo_with_rules):
    client = make_client()
    first = await refresh_repo_snapshot(lambda: client, REPO, store)
    used = client.requests
    assert first.state == "refreshed" and first.changed and used >= 1
    stored = await store.http_cache.snapshot(REPO)
    assert stored is not None and stored[0].files[".github/labeler.yml"] == LABELER
    again = await refresh_repo_snapshot(lambda: client, REPO, store)
    assert again.state == "fresh" and client.requests == used


async def test_a_day_old_copy_is_refreshed_and_kept_when_github_fails(
    fake, store, make_client, repo_with_rules
):
    client = make_client(max_retries=0)
    await refresh_repo_snapshot(lambda: client, REPO, store)
    fake.repo_files[REPO][".github/labeler.yml"] = LABELER + "xpu:\n- changed-files: []\n"
    refreshed = await refresh_repo_snapshot(lambda: client, REPO, store, now=_later(25))
    assert refreshed.state == "refreshed" and refreshed.changed
    stored = await store.http_cache.snapshot(REPO)
    assert stored is not None and "xpu" in (stored[0].files[".github/labeler.yml"] or "")
    fake.inject(status=502, times=10)
    failed = await refresh_repo_snapshot(lambda: client, REPO, store, now=_later(50))
    assert failed.state == "failed" and failed.reason
    assert await store.http_cache.snapshot(REPO) == stored  # the stored rules stay


async def test_after_a_failure_no_request_for_an_hour(fake, store, make_client, repo_with_rules):
    built: list[object] = []

    def factory():
        built.append(make_client(max_retries=0))
        return built[-1]

    fake.inject(status=502, times=10)
    failed = await refresh_repo_snapshot(factory, REPO, store)
    assert failed.state == "failed" and len(built) == 1
    failure = await store.http_cache.snapshot_failure(REPO)
    assert failure is not None and failure.reason == failed.reason
    waiting = await refresh_repo_snapshot(factory, REPO, store, now=_later(0.9))
    assert waiting.state == "waiting" and len(built) == 1  # no client, no request
    fake.faults.clear()
    retried = await refresh_repo_snapshot(factory, REPO, store, now=_later(1.1))
    assert len(built) == 2 and retried.state == "refreshed"
    assert await store.http_cache.snapshot_failure(REPO) is None


async def test_an_unchanged_refresh_says_so(fake, store, make_client, repo_with_rules):
    client = make_client()
    await refresh_repo_snapshot(lambda: client, REPO, store)
    same = await refresh_repo_snapshot(lambda: client, REPO, store, now=_later(25))
    assert same.state == "refreshed" and not same.changed
