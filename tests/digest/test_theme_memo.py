"""Theme facts kept between processes (bot/digest/theme_memo.py, themes.Kept): a
detection that reads kept phrase tables and earlier weeks' results equals one that computes
them; a changed input reads nothing stale; the store's memo round-trips them."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest

from bot.analysis import themes
from bot.analysis.themes import HistoryWeek, Kept, ThemeDoc, ThemeResult, ThemeRules
from bot.core.errors import StoreError
from bot.digest.theme_memo import kept_themes
from bot.store import Store
from tests.conftest import SHARED

TITLES = SHARED / "datasets" / "vllm-titles"
RULES = ThemeRules(
    aliases={"DeepSeek V4": ["DSV4"]},
    stop_terms=frozenset({"vllm"}),
    modules={"rocm": "ROCm", "moe": "Mixture of Experts"},
)


def _weeks() -> list[list[ThemeDoc]]:
    """Six real weeks of vLLM titles, newest first (the window, then its history)."""
    files = sorted(TITLES.glob("*.json"))[-6:]
    if len(files) < 6:
        pytest.skip(f"{TITLES} not available")
    weeks = []
    number = 1
    for path in reversed(files):
        docs = []
        for pr in json.loads(path.read_text())["pullRequests"]:
            docs.append(ThemeDoc(number, str(pr["title"]), f"dev{number % 17}", score=number % 9))
            number += 1
        weeks.append(docs)
    return weeks


@pytest.fixture(autouse=True)
def _cold() -> Iterator[None]:
    # Each detection below stands for a new process: nothing memoised in this one.
    themes._MEMO.clear()
    themes._phrase_table.cache_clear()
    yield
    themes._MEMO.clear()
    themes._phrase_table.cache_clear()


def _detect(
    weeks: list[list[ThemeDoc]], kept: Kept | None, *, keep_window: bool = False
) -> ThemeResult:
    themes._MEMO.clear()
    themes._phrase_table.cache_clear()
    token = themes.keep(kept)
    try:
        history = [HistoryWeek(f"W{i}", i, docs) for i, docs in enumerate(weeks) if i]
        return themes.detect_themes(
            weeks[0], history, RULES, baseline_weeks=3, keep_window=keep_window
        )
    finally:
        themes.forget(token)


def _plain(result: ThemeResult) -> dict[str, object]:
    return dataclasses.asdict(result)


def test_a_detection_from_kept_facts_equals_a_computed_one() -> None:
    weeks = _weeks()
    cold = _detect(weeks, None)
    first = Kept()
    assert _plain(_detect(weeks, first)) == _plain(cold)
    assert cold.themes and cold.last_week == "W1" and any(t.trend != "new" for t in cold.themes)
    # The next run reads everything it can: no phrase table and no earlier week recomputed.
    again = Kept(dict(first.fresh))
    assert _plain(_detect(weeks, again)) == _plain(cold)
    assert again.fresh == {}


def test_a_changed_history_pr_reads_no_stale_detection() -> None:
    weeks = _weeks()
    first = Kept()
    _detect(weeks, first)
    # Last week's PRs now all name one initiative: its detection (and the trends) change.
    changed = [list(w) for w in weeks]
    changed[1] = [dataclasses.replace(d, title=f"[Perf] DeepSeek V4 {d.title}") for d in changed[1]]
    kept = Kept(dict(first.fresh))
    result = _detect(changed, kept)
    assert _plain(result) == _plain(_detect(changed, None))
    assert _plain(result) != _plain(_detect(weeks, None))
    assert kept.fresh  # recomputed facts are kept for the next run


def test_changed_history_of_an_earlier_week_reads_no_stale_detection() -> None:
    weeks = _weeks()
    first = Kept()
    _detect(weeks, first)
    # The oldest weeks are only history (of the detections of weeks 2 and 3): made copies
    # of week 3's titles, nothing of week 3 is unusual any more, and trends follow.
    changed = [list(w) for w in weeks]
    for offset in (4, 5):
        changed[offset] = [
            dataclasses.replace(d, number=d.number + 10_000 * offset) for d in weeks[3]
        ]
    kept = Kept(dict(first.fresh))
    result = _detect(changed, kept)
    assert _plain(result) == _plain(_detect(changed, None))
    assert _plain(result) != _plain(_detect(weeks, None))


def test_changed_rules_read_no_stale_detection() -> None:
    weeks = _weeks()
    first = Kept()
    _detect(weeks, first)
    fewer = dataclasses.replace(RULES, max_groups=2)
    token = themes.keep(Kept(dict(first.fresh)))
    try:
        history = [HistoryWeek(f"W{i}", i, docs) for i, docs in enumerate(weeks) if i]
        kept = themes.detect_themes(weeks[0], history, fewer, baseline_weeks=3)
    finally:
        themes.forget(token)
    themes._MEMO.clear()
    history = [HistoryWeek(f"W{i}", i, docs) for i, docs in enumerate(weeks) if i]
    assert _plain(kept) == _plain(themes.detect_themes(weeks[0], history, fewer, baseline_weeks=3))
    assert len(kept.themes) <= 2


async def test_the_store_keeps_them_between_runs(tmp_path: Path) -> None:
    weeks = _weeks()
    cold = _detect(weeks, None)
    url = f"sqlite+aiosqlite:///{tmp_path / 'memo.db'}"
    async with await Store.open(url) as store, kept_themes(store, "o/r") as kept:
        assert _plain(_detect(weeks, kept)) == _plain(cold)
    async with await Store.open(url) as store:
        async with kept_themes(store, "o/r") as kept:
            assert kept is not None and kept.entries
            assert _plain(_detect(weeks, kept)) == _plain(cold)
            assert kept.fresh == {}
        # Another repository's digest reads nothing of this one's.
        async with kept_themes(store, "o/other") as other:
            assert other is not None and other.entries == {}


class _Unreadable:
    """A store whose memo fails as a locked or read-only database does."""

    class theme_memo:  # the attribute name the store uses
        @staticmethod
        async def load(scope: str, prefixes: object = None) -> dict[str, str]:
            raise StoreError("database is locked")

        @staticmethod
        async def save(scope: str, entries: object) -> None:
            raise StoreError("attempt to write a readonly database")


async def test_without_a_working_memo_themes_are_computed() -> None:
    weeks = _weeks()
    cold = _detect(weeks, None)
    # The store maps its driver's errors (locked, read-only) to StoreError.
    async with kept_themes(cast(Store, _Unreadable()), "o/r") as kept:
        assert _plain(_detect(weeks, kept)) == _plain(cold)
