"""make_digest: store → analysis → digest, offline on a warm store."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.models import Analysis, PullRequest, is_automation
from bot.digest.build import HOUSEKEEPING_KINDS
from bot.digest.prose import summary_of
from bot.digest.service import make_digest
from bot.store import Store
from tests.digest.fixtures import PREVIOUS_WINDOW, REPO, WINDOW, previous_week, this_week


class StubAnalyzer:
    """Returns the fixture's analyses; stands in for bot.analysis in unit tests."""

    def __init__(self) -> None:
        self.analyses = {a.pr.number: a.analysis for a in this_week() + previous_week()}

    def analyze(self, pr: PullRequest) -> Analysis:
        return self.analyses[pr.number]


@pytest.fixture
async def store(tmp_path) -> Store:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'digest.sqlite3'}")
    await store.prs.upsert([a.pr for a in this_week() + previous_week()])
    yield store
    await store.close()


AFTER = datetime(2026, 6, 20, tzinfo=UTC)


async def test_loads_both_weeks_and_reports_completeness(store: Store) -> None:
    digest = await make_digest(
        store,
        StubAnalyzer(),
        REPO,
        WINDOW,
        new_contributors={"mfylcek"},
        now=AFTER,
    )
    assert digest.totals.merged == len(this_week())
    rocm = next(m for m in digest.modules if m.id == "rocm")
    # Last week's stored PRs are not a baseline until last week is synced.
    assert (rocm.count, rocm.previous, rocm.delta) == (5, None, None)
    assert digest.complete is False  # nothing recorded the window as synced
    assert digest.synced is False and digest.in_progress is False
    assert digest.previous_complete is False
    # Caveats come last (issue 21): the summary opens with the news.
    assert summary_of(digest, "en").endswith("PRs may be missing from every figure below.")
    assert "Incomplete: this window is not fully synced" in summary_of(digest, "en")

    for window in (WINDOW, PREVIOUS_WINDOW):
        await store.windows.mark(REPO, window.start_utc, window.end_utc, complete=True, pr_count=0)
    digest = await make_digest(store, StubAnalyzer(), REPO, WINDOW, now=AFTER)
    assert digest.complete and digest.previous_complete
    assert digest.new_contributors == [] and digest.totals.new_contributors is None
    rocm = next(m for m in digest.modules if m.id == "rocm")
    assert (rocm.count, rocm.previous, rocm.delta) == (5, 2, 150.0)


async def test_a_running_week_is_never_complete(store: Store) -> None:
    await store.windows.mark(REPO, WINDOW.start_utc, WINDOW.end_utc, complete=True, pr_count=30)
    midweek = datetime(2026, 6, 4, tzinfo=UTC)
    digest = await make_digest(store, StubAnalyzer(), REPO, WINDOW, now=midweek)
    assert digest.complete is False
    # Synced up to now: the week is running, not missing data.
    assert digest.in_progress and digest.synced
    assert summary_of(digest, "en").endswith("The week is not over yet (figures so far).")
    assert "not fully synced" not in summary_of(digest, "en")


async def test_a_running_unsynced_week_says_both(store: Store) -> None:
    midweek = datetime(2026, 6, 4, tzinfo=UTC)
    digest = await make_digest(store, StubAnalyzer(), REPO, WINDOW, now=midweek)
    assert digest.in_progress and not digest.synced
    assert "本周尚未结束，且数据尚未完全同步" in summary_of(digest, "zh").split("。")[-2]


async def test_with_the_real_analyzer(store: Store) -> None:
    from bot.analysis.analyzer import Analyzer
    from bot.analysis.rules import load_ruleset

    analyzer = Analyzer(load_ruleset("vllm"))
    digest = await make_digest(store, analyzer, REPO, WINDOW, now=AFTER)
    assert digest.totals.merged == len(this_week())
    assert digest.themes == [h.theme_id for h in digest.highlights[:5]]
    assert all(h.theme for h in digest.highlights)
    # Names come from the rule set, in Chinese.
    assert any(m.names[1] and m.names[1] != m.id for m in digest.modules)
    # Every flagged PR is counted, except docs/test/CI-only and bot PRs in the "large" and
    # "dependency" lists (HOUSEKEEPING_KINDS).
    listed = {(f.id, n) for f in digest.flags for n in f.prs}
    for row in digest.prs:
        for flag in row.flags:
            padding = flag in HOUSEKEEPING_KINDS and (
                row.kind in HOUSEKEEPING_KINDS[flag] or is_automation(row.author)
            )
            assert ((flag, row.number) in listed) != padding
