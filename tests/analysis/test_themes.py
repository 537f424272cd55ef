"""Theme detection (bot/analysis/themes.py): generic rules, real vLLM weeks, properties."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.analysis.themes import (
    HistoryWeek,
    ThemeDoc,
    ThemeRules,
    detect_themes,
    is_name,
    rules_from,
)
from bot.core.models import AnalyzedPR
from bot.core.weeks import Window
from bot.digest.build import build_digest
from bot.digest.service import ruleset_settings
from bot.importer import read_export
from tests.conftest import SHARED

TITLES = SHARED / "datasets" / "vllm-titles"
SEED_WEEK = SHARED / "datasets" / "vllm-titles-week-ending-2026-06-05.json"


def _docs(titles: list[str], start: int = 1, author: str = "a") -> list[ThemeDoc]:
    return [ThemeDoc(start + i, t, f"{author}{i % 5}") for i, t in enumerate(titles)]


FILLER = [
    "[Bugfix] Fix crash in scheduler",
    "[Misc] Add support for new model",
    "[CI] Fix flaky test",
    "[Doc] Update kernel docs",
    "[Perf] Improve kernel performance",
    "[Frontend] Fix chat template",
]


def test_spellings_and_acronyms_join_one_theme() -> None:
    window = _docs(
        [
            "[DSV4] Refactor sparse MLA metadata",
            "[DSv4] Remove unused classes",
            "fix: keep DeepSeek V4 RoPE cache on device",
            "[Bugfix] DeepSeek-V4 init error",
            "[MRV2] Support breakable CUDA graph",
            "[Model Runner V2] Use FlashInfer sampler",
            "[ModelRunnerV2] Avoid pipeline bubbles",
            *FILLER,
        ]
    )
    history = [HistoryWeek("w-1", 1, _docs(FILLER * 5, 1000))]
    result = detect_themes(window, history, ThemeRules())
    names = {t.name: t for t in result.themes}
    assert len(names["DeepSeek V4"].members) == 4
    assert len(names["Model Runner V2"].members) == 3
    assert names["DeepSeek V4"].trend == "new"


def test_generic_words_never_name_a_theme() -> None:
    window = _docs([*FILLER, *FILLER, *FILLER])
    result = detect_themes(window, [HistoryWeek("w-1", 1, _docs(FILLER, 100))], ThemeRules())
    for theme in result.themes:
        assert theme.kind == "area" or is_name(theme.name), theme.name


def test_series_and_author_runs_are_signals() -> None:
    window = [
        ThemeDoc(i, f"[{i}/N] Migrate {k} kernels to torch stable ABI", "cleonard")
        for i, k in enumerate(["attention", "cache", "quant", "moe"], 1)
    ] + _docs(FILLER, 10)
    result = detect_themes(window, [HistoryWeek("w-1", 1, _docs(FILLER * 3, 100))])
    theme = result.theme_of(1)
    assert theme is not None and len(theme.members) == 4
    assert any("series" in s for s in theme.signals)


def test_no_history_is_said_not_guessed() -> None:
    result = detect_themes(_docs(["[ROCm] a thing", "[ROCm] another thing", *FILLER]))
    assert result.history_weeks == 0
    assert all(t.trend == "unknown" and t.lift is None for t in result.themes)


# ------------------------------------------------------------------ properties


WORDS = ["ROCm", "XPU", "DSV4", "NIXL", "Mooncake", "fix", "support", "LoRA", "EPLB", "Rust"]


@st.composite
def windows(draw: st.DrawFn) -> list[ThemeDoc]:
    n = draw(st.integers(1, 40))
    out = []
    for i in range(n):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4))
        tag = draw(st.sampled_from(["", "[ROCm] ", "[XPU] ", "[Bugfix] "]))
        out.append(
            ThemeDoc(
                i + 1,
                tag + " ".join(words),
                draw(st.sampled_from(["a", "b", "c"])),
                score=draw(st.floats(0, 10)),
                key=draw(st.booleans()),
            )
        )
    return out


@settings(max_examples=60, deadline=None)
@given(windows(), windows(), st.integers(1, 8))
def test_groups_are_disjoint_bounded_and_counted(window, past, groups) -> None:
    result = detect_themes(window, [HistoryWeek("w-1", 1, past)], ThemeRules(max_groups=groups))
    numbers = [n for t in result.themes for n in t.numbers]
    assert len(numbers) == len(set(numbers))  # no PR in two groups
    assert len(result.themes) <= groups
    keys = {d.number for d in window if d.key}
    for theme in result.themes:
        assert set(theme.numbers) <= {d.number for d in window}
        assert len(theme.members) >= 2 or set(theme.numbers) & keys
        assert theme.history == {1: theme.history.get(1, 0)}


# ------------------------------------------------------------------ real vLLM weeks


def _analysed(path: Path, analyzer: Analyzer) -> list[AnalyzedPR]:
    _, prs = read_export(path)
    return [AnalyzedPR(pr, analyzer.analyze(pr)) for pr in prs]


@pytest.fixture(scope="module")
def seed_digest():
    if not SEED_WEEK.exists():
        pytest.skip(f"{SEED_WEEK} not available")
    analyzer = Analyzer(load_ruleset("vllm"))
    names, auxiliary, count, floor = ruleset_settings(analyzer)
    # The titles history ends 2026-03-27: the 8 latest weeks held are the baseline, with a
    # gap before the window (none of them is "last week").
    earlier = sorted(TITLES.glob("*.json"))[-8:]
    history = [
        (p.stem[-10:], offset, _analysed(p, analyzer))
        for offset, p in enumerate(reversed(earlier), start=2)
    ]
    prs = _analysed(SEED_WEEK, analyzer)
    start = min(a.pr.merged_at for a in prs).replace(hour=0, minute=0, second=0)  # type: ignore[union-attr]
    end = datetime(2026, 6, 5, tzinfo=UTC)
    window = Window(start, end, f"{start.date()}..{end.date()}")
    digest = build_digest(
        prs,
        [],
        repo="vllm-project/vllm",
        window=window,
        timezone="UTC",
        language="en",
        module_names=names,
        key_count=count,
        score_floor=floor,
        auxiliary_modules=auxiliary,
        previous_complete=False,
        history=history,
        theme_rules=rules_from(analyzer.ruleset, auxiliary | {"other"}),
    )
    return digest, {a.pr.number: a.pr for a in prs}


# What the seed report names for its week: a title pattern for "is that theme".
SEED_THEMES = {
    "DeepSeek V4": r"ds-?v4|deepseek[- ]?v4",
    "ROCm": r"rocm|amd|aiter|rdna|gfx|mi\d{3}|hip",
    "XPU": r"xpu|intel",
    "Quantization": r"quant|fp8|fp4|nvfp4|mxfp|w4a16|w8a8|wna16|int8|awq|gptq|modelopt|marlin|"
    r"compressed-tensors",
    "Rust frontend": r"rust",
    "Distributed": r"nccl|parallel|distributed|process group|split_group|ray|dp |allreduce|"
    r"numa|executor|supervisor|placement",
}


def test_seed_week_themes_come_out_as_groups(seed_digest) -> None:
    digest, prs = seed_digest
    found = []
    for theme, regex in SEED_THEMES.items():
        pattern = re.compile(regex, re.IGNORECASE)
        best = max(
            digest.highlights,
            key=lambda h, p=pattern: sum(1 for n in h.prs if p.search(prs[n].title)),
        )
        hits = sum(1 for n in best.prs if pattern.search(prs[n].title))
        # A group of that theme: 3+ of its PRs, and they are most of the group.
        if hits >= 3 and hits * 2 >= len(best.prs):
            found.append(theme)
    # Eight slots for the seed's seven themes plus the week's other heavy areas (KV
    # transfer, MoE, the Python frontend): all but one of the six checked here.
    assert len(found) >= len(SEED_THEMES) - 1, (found, [h.theme for h in digest.highlights])


def test_seed_week_highlights_hold_every_member_once(seed_digest) -> None:
    digest, prs = seed_digest
    numbers = [n for h in digest.highlights for n in h.prs]
    assert len(numbers) == len(set(numbers))
    assert len(digest.highlights) <= 8
    for highlight in digest.highlights:
        for n in highlight.prs:
            assert digest.start <= prs[n].merged_at < digest.end  # type: ignore[operator]
        # The count in the theme sentence is the member count.
        assert highlight.text.startswith(f"{len(highlight.prs)} PR")
    names = [h.theme for h in digest.highlights]
    assert "DeepSeek V4" in names and "Rust frontend" in names
    # Dominant themes in the summary are these themes with their counts.
    first = digest.highlights[0]
    assert f"{first.theme} ({len(first.prs)} PRs)" in digest.summary_text
