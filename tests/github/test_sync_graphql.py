"""Window sync through GraphQL against the fake: completeness, request budget, caching."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.core.errors import GitHubUnavailable, NotFoundError
from bot.core.weeks import Window
from bot.sync import fetch_pr, first_time_contributors, sync_window
from tests.fakes.prdata import make_prs, open_and_closed
from tests.github.conftest import REPO, WEEK
from tests.github.helpers import expected, stored


class Recorder:
    def __init__(self) -> None:
        self.total: int | None = None
        self.pages = self.prs = self.file_pages = 0

    def on_total(self, prs: int) -> None:
        self.total = prs

    def on_page(self) -> None:
        self.pages += 1

    def on_prs(self, n: int) -> None:
        self.prs += n

    def on_file_page(self) -> None:
        self.file_pages += 1


@pytest.fixture
def week_prs(fake):
    prs = make_prs(250, WEEK.start, WEEK.end, seed=1, big={7: 250})
    # Merged just outside the window on both sides: must not be stored.
    edge = make_prs(2, WEEK.start, WEEK.end, seed=2, first_number=30000)
    edge[0].merged_at = WEEK.start - timedelta(seconds=1)
    edge[1].merged_at = WEEK.end
    fake.repos[REPO] = prs + edge
    return prs


async def test_cold_week_every_pr_file_and_label_arrives(fake, store, make_client, week_prs):
    client = make_client()
    progress = Recorder()
    result = await sync_window(store, client, REPO, WEEK, progress=progress)

    assert result.prs_stored == 250
    got = await store.prs.merged_between(REPO, WEEK.start, WEEK.end)
    assert sorted(map(stored, got), key=lambda d: d["number"]) == [
        expected(pr) for pr in sorted(week_prs, key=lambda p: p.number)
    ]
    big = await store.prs.get(REPO, week_prs[7].number)
    assert len(big.files) == big.changed_files == 250
    # 3 search pages + 2 extra file pages (files 101-200, 201-250) of the big PR.
    assert [r.operation for r in fake.log].count("SearchMergedPullRequests") == 3
    assert [r.operation for r in fake.log].count("MorePullRequestFiles") == 2
    assert result.requests == len(fake.log) == 5
    assert (progress.total, progress.pages, progress.prs, progress.file_pages) == (250, 3, 250, 2)
    assert result.rate_remaining == 5000 - 5
    window = await store.windows.get(REPO, WEEK.start_utc, WEEK.end_utc)
    assert window.complete and window.pr_count == 250


async def test_warm_resync_costs_one_probe_then_nothing_within_freshness(
    fake, store, make_client, week_prs
):
    client = make_client()
    await sync_window(store, client, REPO, WEEK)
    sent = len(fake.log)

    fresh = await sync_window(store, client, REPO, WEEK)
    assert fresh.skipped_fresh and fresh.requests == 0 and len(fake.log) == sent

    probed = await sync_window(store, client, REPO, WEEK, freshness=timedelta(0))
    assert probed.confirmed_unchanged and probed.requests == 1
    assert fake.log[-1].operation == "ProbeWindow"
    assert probed.prs_stored == 250


async def test_changed_window_is_fetched_again(fake, store, make_client, week_prs):
    client = make_client()
    await sync_window(store, client, REPO, WEEK)
    fake.touch(REPO, week_prs[3].number, title="[Bugfix] Renamed after merge", labels=["ready"])

    result = await sync_window(store, client, REPO, WEEK, freshness=timedelta(0))

    assert not result.confirmed_unchanged and result.requests == 1 + 5
    pr = await store.prs.get(REPO, week_prs[3].number)
    assert (pr.title, pr.labels) == ("[Bugfix] Renamed after merge", ["ready"])


async def test_window_over_search_cap_is_split_and_exact(fake, store, make_client):
    # 1,100 merges on one Wednesday on top of 300 spread over the week: the week, then the
    # half-week holding Wednesday, then Wednesday itself exceed the cap; hours do not.
    wednesday = WEEK.start + timedelta(days=2)
    prs = make_prs(300, WEEK.start, WEEK.end, seed=3) + make_prs(
        1100, wednesday, wednesday + timedelta(days=1), seed=4, first_number=50000
    )
    fake.repos[REPO] = prs
    result = await sync_window(store, make_client(), REPO, WEEK)

    assert result.prs_stored == 1400
    assert await store.prs.count_merged_between(REPO, WEEK.start, WEEK.end) == 1400
    got = await store.prs.merged_between(REPO, WEEK.start, WEEK.end)
    assert {p.number for p in got} == {p.number for p in prs}
    searches = [r for r in fake.log if r.operation == "SearchMergedPullRequests"]
    assert len(searches) == len(fake.log) <= 1400 / 100 + 6
    window = await store.windows.get(REPO, WEEK.start_utc, WEEK.end_utc)
    assert window.complete and window.fingerprint.startswith("1400|")


async def test_5xx_midway_is_retried_transparently(fake, store, make_client, week_prs, sleeps):
    fake.inject(status=502, after=1, times=2)
    result = await sync_window(store, make_client(), REPO, WEEK)
    assert result.prs_stored == 250
    assert [r.status for r in fake.log].count(502) == 2
    assert len(sleeps.calls) == 2


async def test_failure_mid_sync_leaves_window_incomplete(fake, store, make_client, week_prs):
    fake.inject(status=503, after=1, times=float("inf"))
    with pytest.raises(GitHubUnavailable, match="503"):
        await sync_window(store, make_client(max_retries=1), REPO, WEEK)

    window = await store.windows.get(REPO, WEEK.start_utc, WEEK.end_utc)
    assert window is not None and not window.complete
    # The first page's PRs were complete and stay stored; the rest never arrived.
    assert (
        window.pr_count == await store.prs.count_merged_between(REPO, WEEK.start, WEEK.end) == 100
    )
    assert not await store.windows.is_covered(REPO, WEEK.start_utc, WEEK.end_utc)

    # The next run must not trust the partial window, whatever the freshness.
    fake.faults.clear()
    again = await sync_window(store, make_client(), REPO, WEEK)
    assert again.prs_stored == 250 and not again.skipped_fresh


async def test_failure_in_a_file_page_keeps_that_page_out(fake, store, make_client, week_prs):
    fake.inject(status=500, match="MorePullRequestFiles", times=float("inf"))
    with pytest.raises(GitHubUnavailable):
        await sync_window(store, make_client(max_retries=0), REPO, WEEK)
    # Big PR #7 is on the first page: no truncated copy of it may be stored.
    assert await store.prs.get(REPO, week_prs[7].number) is None
    window = await store.windows.get(REPO, WEEK.start_utc, WEEK.end_utc)
    assert not window.complete


async def test_unknown_repo_is_not_found(fake, store, make_client):
    with pytest.raises(NotFoundError, match="repository nobody/nothing not found"):
        await sync_window(store, make_client(), "nobody/nothing", WEEK)


async def test_fetch_pr_in_any_state_and_cached(fake, store, make_client):
    merged = make_prs(1, WEEK.start, WEEK.end, seed=4, big={0: 130})
    extra = open_and_closed(WEEK.start)
    fake.repos[REPO] = merged + extra
    client = make_client()
    for pr, state in zip(merged + extra, ("merged", "open", "closed"), strict=True):
        got = await fetch_pr(store, client, REPO, pr.number)
        assert got.state == state
        assert stored(got) == expected(pr)
    sent = len(fake.log)
    assert (await fetch_pr(store, client, REPO, merged[0].number)).number == merged[0].number
    assert len(fake.log) == sent  # served from the store


async def test_fetch_pr_not_found(fake, store, make_client):
    fake.repos[REPO] = []
    with pytest.raises(NotFoundError, match=f"PR #4242 not found in {REPO}"):
        await fetch_pr(store, make_client(), REPO, 4242)


async def test_first_time_contributors_batched_and_cached(fake, store, make_client):
    before = datetime(2026, 6, 1, tzinfo=UTC)
    old = make_prs(3, before - timedelta(days=30), before, seed=5)
    for pr, login in zip(old, ("alice", "bob", "carol"), strict=True):
        pr.author = login
    new = make_prs(2, before, before + timedelta(days=7), seed=6, first_number=40000)
    new[0].author, new[1].author = "dave", "alice"
    fake.repos[REPO] = old + new
    client = make_client()
    logins = ["alice", "bob", "dave", "erin"]

    assert await first_time_contributors(store, client, REPO, logins, before) == {"dave", "erin"}
    assert [r.operation for r in fake.log] == ["MergedBefore"]  # one request for all four

    # Regulars are settled by the cache; only the newcomers are asked again.
    assert await first_time_contributors(store, client, REPO, logins, before) == {"dave", "erin"}
    assert len(fake.log) == 2
    # A later week: dave merged in the meantime, so he is no longer new.
    later = before + timedelta(days=8)
    assert await first_time_contributors(store, client, REPO, ["dave"], later) == set()


async def test_window_in_another_timezone_uses_utc_bounds(fake, store, make_client):
    from zoneinfo import ZoneInfo

    tz = ZoneInfo("Asia/Shanghai")
    window = Window(datetime(2026, 6, 1, tzinfo=tz), datetime(2026, 6, 8, tzinfo=tz), "2026-W23")
    prs = make_prs(40, window.start_utc - timedelta(days=1), window.end_utc + timedelta(days=1))
    fake.repos[REPO] = prs
    result = await sync_window(store, make_client(), REPO, window)
    inside = [p for p in prs if window.start_utc <= p.merged_at < window.end_utc]
    assert 0 < result.prs_stored == len(inside) < len(prs)
