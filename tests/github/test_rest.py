"""The REST path (no token): same data as GraphQL, conditional requests, one notice."""

from __future__ import annotations

import pytest

from bot.core.errors import NotFoundError
from bot.github.repo_files import repo_snapshot
from bot.sync import fetch_pr, sync_window
from tests.fakes.prdata import make_prs, open_and_closed
from tests.github.conftest import REPO, WEEK
from tests.github.helpers import expected, stored


@pytest.fixture
def small_week(fake):
    # 5 PRs (one with 130 files, so two file pages) fit the anonymous 60/hour budget twice.
    prs = make_prs(5, WEEK.start, WEEK.end, seed=11, big={2: 130})
    fake.repos[REPO] = prs
    return prs


async def test_rest_sync_is_exact_and_second_run_gets_304s(fake, store, make_client, small_week):
    notices: list[str] = []
    client = make_client(token=None, notice=notices.append, page_size=2)

    first = await sync_window(store, client, REPO, WEEK)
    assert first.prs_stored == 5
    before = sorted(
        map(stored, await store.prs.merged_between(REPO, WEEK.start, WEEK.end)),
        key=lambda d: d["number"],
    )
    assert before == [expected(pr, rest=True) for pr in sorted(small_week, key=lambda p: p.number)]
    # 3 search pages of 2, then per PR pulls/{n} + files (2 pages for the big one).
    assert first.requests == len(fake.log) == 3 + 5 * 2 + 1
    assert not any(r.conditional for r in fake.log)

    sent = len(fake.log)
    again = await sync_window(store, client, REPO, WEEK, force=True)
    second = fake.log[sent:]
    assert again.requests == len(second) == sent
    assert all(r.conditional and r.status == 304 for r in second)
    after = sorted(
        map(stored, await store.prs.merged_between(REPO, WEEK.start, WEEK.end)),
        key=lambda d: d["number"],
    )
    assert after == before
    assert len(notices) == 1 and "60 requests/hour" in notices[0]


async def test_rest_warm_resync_is_one_probe(fake, store, make_client, small_week):
    from datetime import timedelta

    client = make_client(token=None)
    await sync_window(store, client, REPO, WEEK)
    sent = len(fake.log)
    result = await sync_window(store, client, REPO, WEEK, freshness=timedelta(0))
    assert result.confirmed_unchanged and result.requests == 1 and len(fake.log) == sent + 1


async def test_rest_fetch_pr_any_state(fake, store, make_client):
    prs = make_prs(1, WEEK.start, WEEK.end, seed=12) + open_and_closed(WEEK.start)
    fake.repos[REPO] = prs
    client = make_client(token=None)
    for pr in prs:
        assert stored(await fetch_pr(store, client, REPO, pr.number)) == expected(pr, rest=True)
    with pytest.raises(NotFoundError, match=f"PR #77 not found in {REPO}"):
        await fetch_pr(store, client, REPO, 77)


async def test_rest_unknown_repo(fake, store, make_client):
    with pytest.raises(NotFoundError, match="repository nobody/nothing not found"):
        await sync_window(store, make_client(token=None), "nobody/nothing", WEEK)


@pytest.mark.parametrize("token", ["default", None], ids=["graphql", "rest"])
async def test_repo_files_and_top_level_dirs(fake, store, make_client, token):
    fake.repos[REPO] = []
    fake.repo_files[REPO] = {
        ".github/labeler.yml": "rocm:\n- changed-files:\n  - any-glob-to-any-file: csrc/rocm/**\n",
        "vllm/__init__.py": "",
        "csrc/ops.h": "",
        "README.md": "# vLLM\n",
    }
    snapshot = await repo_snapshot(make_client(token=token), REPO, store=store)
    assert snapshot.files == {
        ".github/labeler.yml": fake.repo_files[REPO][".github/labeler.yml"],
        ".github/mergify.yml": None,
    }
    assert snapshot.top_level_dirs == [".github", "csrc", "vllm"]
