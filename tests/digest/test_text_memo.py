"""Description sentences and finished windows' theme detections kept between processes
(bot.digest.summary, themes.detect_themes(keep_window=True), in the store's digest memo):
what a run reads back equals what it computes, nothing stale is read, a store that cannot
keep them still answers. And the quoted purposes of a highlight, which no longer parse
descriptions no language would quote."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest

from bot.analysis import themes
from bot.analysis.themes import Kept, ThemeDoc, ThemeResult
from bot.core.models import AnalyzedPR
from bot.digest import summary
from bot.digest.build import build_digest
from bot.digest.prose import quoted_purposes
from bot.digest.theme_memo import kept_themes
from bot.store import Store
from tests.digest.fixtures import WINDOW, _pr
from tests.digest.test_theme_memo import _detect, _Unreadable, _weeks

BODIES = [
    ("## Purpose\n\nMake the scheduler fair between LoRA adapters.\n", "[Core] Fair LoRA"),
    ("Removes the tree attention backend, unused since v0.9.", "[Attention] Drop tree"),
    ("### What this PR does / why we need it?\n支持 A5 上的 MXFP4 分发。\n", "[Quant] MXFP4"),
    ("", "[Misc] No description"),
]


@pytest.fixture(autouse=True)
def _cold() -> Iterator[None]:
    # Each run below stands for a new process: nothing memoised in this one.
    themes._MEMO.clear()
    summary._summarize.cache_clear()
    summary._purpose.cache_clear()
    yield
    themes._MEMO.clear()


def _sentences(kept: Kept | None) -> list[tuple[str, str | None]]:
    summary._summarize.cache_clear()
    summary._purpose.cache_clear()
    token = themes.keep(kept)
    try:
        return [(summary.summarize(b, t), summary.purpose(b, t)) for b, t in BODIES]
    finally:
        themes.forget(token)


def test_kept_sentences_equal_computed_ones_and_are_read_back() -> None:
    computed = _sentences(None)
    first = Kept()
    assert _sentences(first) == computed
    assert first.fresh
    again = Kept(dict(first.fresh))
    assert _sentences(again) == computed
    assert again.fresh == {}  # nothing parsed again


def test_a_changed_description_or_title_reads_no_kept_sentence() -> None:
    first = Kept()
    _sentences(first)
    poisoned = Kept({key: '"stale"' for key in first.fresh})
    summary._summarize.cache_clear()
    token = themes.keep(poisoned)
    try:
        body, title = BODIES[0]
        assert summary.summarize(body + " More.", title) != "stale"
        assert summary.summarize("", title + "!") == title + "!"
        assert summary.purpose(body.replace("fair", "fast"), title) != "stale"
    finally:
        themes.forget(token)


def test_sentences_kept_by_other_code_are_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # A kept sentence is valid only for the code that wrote it (summary.py, markdown-it).
    monkeypatch.setattr(summary, "_code_version", lambda: "an older summary.py")
    old = Kept()
    _sentences(old)
    monkeypatch.undo()
    poisoned = Kept({key: '"stale"' for key in old.fresh})
    assert _sentences(poisoned) == _sentences(None)
    assert len(poisoned.fresh) == len(old.fresh)


async def test_the_store_keeps_sentences_between_runs(tmp_path: Path) -> None:
    computed = _sentences(None)
    url = f"sqlite+aiosqlite:///{tmp_path / 'memo.db'}"
    async with await Store.open(url) as store, kept_themes(store, "o/r"):
        assert _sentences(themes.active()) == computed
    async with await Store.open(url) as store, kept_themes(store, "o/r") as kept:
        summary._summarize.cache_clear()
        summary._purpose.cache_clear()
        assert [(summary.summarize(b, t), summary.purpose(b, t)) for b, t in BODIES] == computed
        assert kept.fresh == {}


async def test_a_store_that_cannot_keep_sentences_still_gives_them() -> None:
    computed = _sentences(None)
    summary._summarize.cache_clear()
    summary._purpose.cache_clear()
    async with kept_themes(cast(Store, _Unreadable()), "o/r"):
        assert [(summary.summarize(b, t), summary.purpose(b, t)) for b, t in BODIES] == computed


# ------------------------------------------------------------ a finished window's themes


def _window_detection(
    weeks: list[list[ThemeDoc]], kept: Kept | None, *, keep_window: bool = True
) -> ThemeResult:
    return _detect(weeks, kept, keep_window=keep_window)


def test_a_kept_window_detection_equals_a_computed_one_with_its_trends() -> None:
    weeks = _weeks()
    cold = _window_detection(weeks, None)
    first = Kept()
    assert dataclasses.asdict(_window_detection(weeks, first)) == dataclasses.asdict(cold)
    assert cold.last_week == "W1" and any(t.trend != "new" for t in cold.themes)
    again = Kept(dict(first.fresh))
    assert dataclasses.asdict(_window_detection(weeks, again)) == dataclasses.asdict(cold)
    assert again.fresh == {}


def test_a_changed_window_pr_reads_no_stale_window_detection() -> None:
    weeks = _weeks()
    first = Kept()
    _window_detection(weeks, first)
    changed = [list(w) for w in weeks]
    changed[0] = [dataclasses.replace(d, title=f"[Perf] DeepSeek V4 {d.title}") for d in weeks[0]]
    result = _window_detection(changed, Kept(dict(first.fresh)))
    assert dataclasses.asdict(result) == dataclasses.asdict(_window_detection(changed, None))
    assert dataclasses.asdict(result) != dataclasses.asdict(_window_detection(weeks, None))


def test_a_running_window_adds_no_kept_detection() -> None:
    weeks = _weeks()
    running, finished = Kept(), Kept()
    _window_detection(weeks, running, keep_window=False)
    _window_detection(weeks, finished)
    # The same phrase tables and earlier weeks; only the finished window's result is more.
    assert set(running.fresh) < set(finished.fresh)
    assert len(finished.fresh) == len(running.fresh) + 1


# ------------------------------------------------------------ quoted purposes


def _theme_week(bodies: list[str]) -> list[AnalyzedPR]:
    return [
        _pr(
            100 + i,
            f"[ROCm] Fix the ROCm attention kernel part {i}",
            f"dev{i}",
            ["rocm"],
            "bugfix",
            9.0 - i * 0.1,
            files=[("vllm/platforms/rocm.py", 10, 2)],
            body=body,
        )
        for i, body in enumerate(bodies)
    ]


# A member's description by kind: an English purpose, a Chinese one, one whose entity
# spells a Chinese character, none.
BODY = {
    "E": "## Purpose\n\nKeeps the {n} paged attention kernel from reading past the block table.",
    "C": "### What this PR does / why we need it?\n修复第 {n} 个 ROCm 注意力内核的越界读取问题。",
    "&": "Fixes &#20013; the kernel {n} bounds, seen in the ROCm nightly runs.",
    "-": "",
}


@pytest.mark.parametrize(
    "kinds",
    [
        "EEEEEEC",  # a Chinese description after many English ones
        "EEEEEEE",
        "CEEEEEE",
        "-E-EC-E",  # some without a purpose
        "ECCEEEC",
        "EEE&EEE",  # an entity may spell a Chinese character
    ],
)
def test_a_highlight_quotes_what_either_language_would_of_all_its_purposes(kinds: str) -> None:
    bodies = [BODY[kind].format(n=i) for i, kind in enumerate(kinds)]
    prs = _theme_week(bodies)
    digest = build_digest(prs, [], repo="o/r", window=WINDOW, timezone="UTC", module_names={})
    highlight = next(h for h in digest.highlights if set(h.prs) == {p.pr.number for p in prs})
    assert highlight.head is not None
    by_number = {p.pr.number: p.pr for p in prs}
    every = [
        (n, why)
        for n in highlight.prs
        if (why := summary.purpose(by_number[n].body, by_number[n].title))
    ]
    for language in ("en", "zh"):
        assert quoted_purposes(highlight.head.purposes, language) == quoted_purposes(
            every, language
        )


async def test_only_rows_this_code_can_use_are_read(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'memo.db'}"
    current = [themes.memo_prefix() + "0" * 56, summary.memo_prefix() + "1" * 56]
    older = "g" * 64  # no hexadecimal key, so no version of this code, starts so
    async with await Store.open(url) as store:
        await store.theme_memo.save("o/r", {key: '"kept"' for key in [*current, older]})
        async with kept_themes(store, "o/r") as kept:
            assert set(kept.entries) == set(current)
