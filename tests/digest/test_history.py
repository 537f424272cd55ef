"""Trends over weeks: series equal counts over the store, incomplete weeks are unknown."""

from __future__ import annotations

import itertools
import json
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.digest.document import digest_document
from bot.digest.history import direction, history_of, load_timeline, module_name, sparkline
from bot.digest.render import render_json, render_markdown
from bot.digest.service import make_digest
from bot.store import Store
from tests.digest.history_helpers import NAMES, NOW, REPO, LabelAnalyzer, fill, pr, weeks_ending

MODULES = ("rocm", "attention", "tests", "docs")
_SEQ = itertools.count()  # one fresh database per example

# One PR: (week index, seconds into the week, its modules, author index).
PR_SPEC = st.tuples(
    st.integers(0, 7),
    st.integers(0, 7 * 24 * 3600 - 1),
    st.lists(st.sampled_from(MODULES), unique=True, max_size=3),
    st.integers(0, 5),
)


async def _open(tmp_path: Path, name: str) -> Store:
    return await Store.open(f"sqlite+aiosqlite:///{tmp_path / name}")


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(specs=st.lists(PR_SPEC, max_size=40), synced=st.lists(st.booleans(), min_size=8, max_size=8))
async def test_series_equal_the_counts_over_the_store(tmp_path: Path, specs, synced) -> None:
    windows = weeks_ending("2026-W23", 8)
    prs = [
        pr(1000 + i, windows[w].start_utc + timedelta(seconds=s), mods, f"dev{a}")
        for i, (w, s, mods, a) in enumerate(specs)
    ]
    complete = [w for w, ok in zip(windows, synced, strict=True) if ok]
    store = await _open(tmp_path, f"h{next(_SEQ)}.db")
    try:
        await fill(store, prs, complete)
        timeline = await load_timeline(store, LabelAnalyzer(), REPO, windows, now=NOW)
        history = history_of(timeline, module_names=NAMES)
    finally:
        await store.close()

    assert history.weeks == [w.label for w in windows]
    assert history.complete == synced
    for i, window in enumerate(windows):
        inside = [p for p in prs if window.start_utc <= p.merged_at < window.end_utc]
        if not synced[i]:
            # Unknown, never a zero that would read as a quiet week.
            assert history.merged[i] is None and history.contributors[i] is None
            assert all(m.series[i] is None for m in history.modules)
            continue
        assert history.merged[i] == len(inside)
        assert history.contributors[i] == len({p.author for p in inside})
        for module in history.modules:
            assert module.series[i] == sum(module.id in p.labels for p in inside)
    seen = {m for p in prs for m in p.labels}
    assert {m.id for m in history.modules} == seen
    assert history.incomplete == [w.label for w, ok in zip(windows, synced, strict=True) if not ok]


async def test_an_incomplete_week_is_flagged_everywhere(tmp_path: Path) -> None:
    windows = weeks_ending("2026-W23", 8)
    prs = [pr(100 + i, w.start_utc + timedelta(days=1), ("rocm",)) for i, w in enumerate(windows)]
    # Week 5 holds only part of its PRs (one of them) and was never marked complete.
    store = await _open(tmp_path, "bot.db")
    try:
        await fill(store, prs, [w for i, w in enumerate(windows) if i != 5])
        digest = await make_digest(
            store,
            LabelAnalyzer(),
            REPO,
            windows[-1],
            history_weeks=8,
            now=NOW,
            module_names=NAMES,
        )
    finally:
        await store.close()
    history = digest.history
    assert history is not None
    assert history.merged[5] is None and history.complete[5] is False
    assert history.incomplete == [windows[5].label]
    assert sparkline(history.merged)[5] == "·"
    data = json.loads(render_json(digest, "en"))["history"]
    assert data["merged"][5] is None and data["incomplete"] == [windows[5].label]
    assert {"weeks", "merged", "modules"} <= set(data)
    assert set(data["modules"][0]) >= {"id", "series", "direction"}
    markdown = render_markdown(digest_document(digest, "en"))
    assert "Trends over the last 8 weeks" in markdown
    assert f"not fully synced ({windows[5].label})" in markdown


async def test_the_digest_weeks_series_ends_with_the_digest_itself(tmp_path: Path) -> None:
    windows = weeks_ending("2026-W23", 4)
    prs = [
        pr(10 + i, w.start_utc + timedelta(hours=3), ("attention",)) for i, w in enumerate(windows)
    ]
    store = await _open(tmp_path, "bot.db")
    try:
        await fill(store, prs, windows)
        digest = await make_digest(
            store,
            LabelAnalyzer(),
            REPO,
            windows[-1],
            history_weeks=4,
            now=NOW,
            module_names=NAMES,
        )
    finally:
        await store.close()
    assert digest.history is not None
    assert digest.history.merged[-1] == digest.totals.merged == 1
    assert module_name(digest.history.modules[0].names, "zh") == "注意力机制"
    assert "近 4 周趋势" in render_markdown(digest_document(digest, "zh"))


def test_direction_rule() -> None:
    assert direction([2, 2, 2, 2, 2, 2, 2, 2]) == ("steady", 2.0, 2.0)
    assert direction([0, 0, 0, 5, 5, 5, 5, 5])[0] == "rising"
    assert direction([8, 8, 8, 1, 1, 1, 1, 1])[0] == "falling"
    # Small numbers: 1 → 2 PRs a week is +100% but only 1 PR: not enough to call it.
    assert direction([0, 0, 0, 1, 1, 1, 1, 2])[0] == "steady"
    # Unknown weeks are left out; too few complete weeks: no direction.
    assert direction([None, None, None, 1, 1, 1, 1, 1])[0] is None
    assert direction([None] * 8) == (None, None, None)


def test_sparkline_scales_to_the_peak_and_marks_unknown() -> None:
    assert sparkline([0, 4, 8, None]) == "▁▅█·"
    assert sparkline([]) == ""
    assert sparkline([0, 0]) == "▁▁"


async def test_fifty_two_weeks_are_one_pr_query(tmp_path: Path) -> None:
    windows = weeks_ending("2026-W23", 52)
    prs = [
        pr(5000 + i, w.start_utc + timedelta(days=2), ("rocm", "tests"))
        for i, w in enumerate(windows)
    ]
    store = await _open(tmp_path, "bot.db")
    calls = []
    original = store.prs.merged_between

    async def counting(*args, **kwargs):
        calls.append(args)
        return await original(*args, **kwargs)

    store.prs.merged_between = counting  # type: ignore[method-assign]
    try:
        await fill(store, prs, windows)
        timeline = await load_timeline(store, LabelAnalyzer(), REPO, windows, now=NOW)
    finally:
        await store.close()
    assert len(calls) == 1
    history = history_of(timeline)
    assert history.merged == [1] * 52
