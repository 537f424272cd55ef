"""Theme detection (bot/analysis/themes.py): generic rules, real vLLM weeks, properties."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.analysis.themes import (
    RISE_MIN,
    RISE_RATIO,
    HistoryWeek,
    ThemeDoc,
    ThemeRules,
    detect_themes,
    is_name,
    main_module,
    rules_from,
    trend_of,
)
from bot.core.models import AnalyzedPR, ModuleMatch, PullRequest
from bot.core.weeks import Window
from bot.digest.build import build_digest
from bot.digest.prose import digest_json, highlight_text, summary_of, theme_name
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
        # The count follows the sentence on what the group changed (branch prose).
        assert f"{len(highlight.prs)} PR" in highlight_text(highlight, "en", digest.span)
    names = [h.theme for h in digest.highlights]
    assert "DeepSeek V4" in names and "Rust frontend" in names
    # Dominant themes in the summary are these themes with their counts.
    first = digest.highlights[0]
    assert f"{first.theme} ({len(first.prs)} PRs)" in summary_of(digest, "en")


# ------------------------------------------------------------------ names, membership, trends


def _week(titles: list[str], start: int, author: str = "a") -> list[ThemeDoc]:
    return _docs(titles, start, author)


BACKGROUND = HistoryWeek("w-1", 1, _docs(FILLER * 4, 5000))


@pytest.mark.parametrize(
    ("written", "name"),
    [
        ("DeepSeek V4", True),
        ("AutoWeightsLoader", True),
        ("MRV2", True),
        ("Ascend950", True),
        ("Mooncake", True),
        ("split_group", True),
        ("install", False),
        ("weekly", False),
        ("Router", False),
        ("quant", False),
        ("Cache", False),
        ("Spplement", False),  # a misspelling of "Supplement"
        ("embedding", False),
        ("v2", False),  # a bare version
    ],
)
def test_a_name_is_an_identifier_never_a_common_word(written: str, name: bool) -> None:
    assert is_name(written) is name


def test_common_words_and_misspellings_never_make_a_group() -> None:
    # The junk groups of a real week (install, weekly, router, quant, a typo) repeated far
    # more than in the history weeks: still no theme.
    junk = [
        "Fix install script",
        "Update install docs",
        "[Install] pin torch",
        "weekly release notes",
        "weekly sync of main",
        "Router timeout fix",
        "Router retry on 503",
        "fix quant scale",
        "quant kernel fallback",
        "Spplement UT for ops",
        "Spplement e2e for sampler",
    ]
    rules = rules_from(load_ruleset("generic"))
    result = detect_themes(_week(junk * 2, 1), [BACKGROUND], rules)
    assert [t.name for t in result.themes] == []


def test_members_need_the_whole_word() -> None:
    titles = [
        "[Mamba] prefix caching",
        "[Mamba] chunked prefill",
        "Mamba state copy on device",
        "Fix mambaext import",  # another word that starts with the name
        "Drop MambaLike shim",  # CamelCase part without a version
    ]
    result = detect_themes(_week(titles, 1), [BACKGROUND], ThemeRules())
    mamba = next(t for t in result.themes if t.name == "Mamba")
    assert sorted(mamba.numbers) == [1, 2, 3]


def test_a_keyword_inside_another_word_is_no_main_subject() -> None:
    # The real case: an XPU kernel-test PR whose title holds "awq" inside awq_triton joined
    # Quantization on a title-only week.
    pr = PullRequest(
        "o/r",
        1,
        "[Kernel][Test] Extend lightning_attn and awq_triton kernel tests to XPU",
        "",
        "merged",
        datetime(2026, 6, 1, tzinfo=UTC),
        files_known=False,
    )
    assert main_module(pr, [ModuleMatch("quantization", "title word 'awq'")]) is None
    assert main_module(
        replace(pr, title="Fix AWQ scales"), [ModuleMatch("quantization", "title word 'awq'")]
    ) == ("quantization", "title")


def _area_doc(number: int, title: str, modules: tuple[str, ...], main: str | None) -> ThemeDoc:
    return ThemeDoc(
        number, title, f"u{number}", modules=modules, main_module=main, main_why="lines"
    )


def test_a_catch_all_module_whose_prs_are_about_other_things_gives_no_group() -> None:
    rules = ThemeRules(modules={"kernels": "CUDA kernels", "rocm": "ROCm", "moe": "MoE"})
    docs = [
        # Every PR touches kernels; only 2 of 12 are mainly about them.
        *(_area_doc(i, f"Tune path {i}", ("moe", "kernels"), "moe") for i in range(1, 6)),
        *(_area_doc(i, f"Port op {i}", ("rocm", "kernels"), "rocm") for i in range(6, 11)),
        _area_doc(11, "Refine csrc build", ("kernels",), "kernels"),
        _area_doc(12, "Split csrc headers", ("kernels",), "kernels"),
    ]
    result = detect_themes(docs, [BACKGROUND], rules)
    assert {t.module for t in result.themes} == {"moe", "rocm"}
    assert all(t.kind == "area" and t.named_by_module for t in result.themes)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 200), st.integers(0, 200))
def test_trend_words_need_a_real_change(now: int, last: int) -> None:
    word = trend_of(now, last)
    if word == "rising":
        assert now >= RISE_RATIO * last and now - last >= RISE_MIN
    elif word == "falling":
        assert now * RISE_RATIO <= last and last - now >= RISE_MIN
    else:
        assert word == "continuing"
    assert trend_of(now, None) == "new"


def test_real_week_trends_from_the_issue() -> None:
    assert trend_of(12, 11) == "continuing"  # 11 -> 12 was called a clear rise
    assert trend_of(4, 12) == "falling"  # 12 -> 4 was called continuing


def _series(weeks: list[list[str]]) -> list[list[ThemeDoc]]:
    return [_docs(titles, 1000 * (i + 1)) for i, titles in enumerate(weeks)]


def test_consecutive_digests_agree_and_fading_is_listed() -> None:
    w1, w2, w3 = _series(
        [
            FILLER * 3,
            [*(f"[DSV4] part {i}" for i in range(9)), *(f"Mooncake store {i}" for i in range(6))]
            + FILLER * 3,
            [*(f"[DSV4] part {i}" for i in range(8)), "Mooncake store x"] + FILLER * 3,
        ]
    )
    second = detect_themes(w2, [HistoryWeek("w1", 1, w1)])
    third = detect_themes(w3, [HistoryWeek("w2", 1, w2), HistoryWeek("w1", 2, w1)])
    shown = {t.key: len(t.members) for t in second.themes}
    assert third.last_week == "w2"
    for theme in third.themes:
        # "last week" is last week's group as its digest showed it.
        assert theme.last_week == shown.get(theme.key)
    dsv4 = next(t for t in third.themes if t.name == "DSV4")
    assert (dsv4.trend, dsv4.last_week) == ("continuing", 9)
    fading = {f.name: f for f in third.fading}
    assert fading["Mooncake"].last_week == 6 and fading["Mooncake"].this_week == 1
    assert not fading["Mooncake"].highlight
    assert "DSV4" not in fading


# ------------------------------------------------------------------ in the digest


def test_areas_take_the_module_name_in_the_digest_language() -> None:
    from tests.digest.fixtures import MODULE_NAMES
    from tests.digest.helpers import fixture_digest

    for language, index in (("en", 0), ("zh", 1)):
        digest = fixture_digest()
        areas = [h for h in digest.highlights if h.module]
        assert areas
        for highlight in areas:
            assert theme_name(highlight, language) == MODULE_NAMES[highlight.module][index]


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Fading since last week: Mooncake (6 → 1 PR)."),
        ("zh", "较上周明显减少的主题：Mooncake（6 个 → 1 个 PR）。"),
    ],
)
def test_fading_themes_are_in_the_json_and_one_plain_line(language: str, line: str) -> None:
    from bot.digest.document import digest_document
    from bot.digest.model import FadingTheme
    from bot.digest.prose import summary_text
    from bot.digest.render import render_markdown
    from tests.digest.helpers import fixture_digest

    fading = FadingTheme("mooncake", "Mooncake", last_week=6, this_week=1, highlight=False)
    digest = replace(fixture_digest(), fading=[fading])
    assert digest_json(digest, language)["fading"] == [
        {
            "id": "mooncake",
            "name": "Mooncake",
            "last_week": 6,
            "this_week": 1,
            "highlight": False,
            "module": None,
        }
    ]
    markdown = render_markdown(digest_document(digest, language))
    assert line in markdown
    # The summary names them too, as part of the week's news (before the totals).
    summary = summary_text(digest, language)
    assert line in summary and summary.index(line) < summary.index(str(digest.totals.merged))


def test_a_snake_case_identifier_is_one_word() -> None:
    titles = [
        "[AWQ] fuse dequant",
        "AWQ scales on device",
        "[AWQ] zero points",
        "[XPU] Extend lightning_attn and awq_triton kernel tests",  # not an AWQ PR
        "Fix npu_awq_gemm import",
    ]
    result = detect_themes(_week(titles, 1), [BACKGROUND], ThemeRules())
    awq = next(t for t in result.themes if t.name == "AWQ")
    assert sorted(awq.numbers) == [1, 2, 3]


def test_a_path_label_does_not_make_a_pr_an_area_member() -> None:
    rules = ThemeRules(modules={"ops": "Ops"})
    # Every PR carries the labeler's "module:ops" (it touched ops/); only 3 are about ops.
    docs = [
        *(
            ThemeDoc(i, f"[Ops] kernel {i}", f"u{i}", ("module:ops",), ("ops",), "ops", "named")
            for i in range(1, 4)
        ),
        *(
            ThemeDoc(i, f"Tune scheduler {i}", f"u{i}", ("module:ops",), ("ops",))
            for i in range(4, 10)
        ),
    ]
    result = detect_themes(docs, [BACKGROUND], rules)
    assert [t.module for t in result.themes] == []  # 3 of 9 PRs touching ops: not coherent
