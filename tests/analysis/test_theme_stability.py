"""Theme stability on real weeks (../shared, skipped when absent): moving the window by two
days keeps most groups. Prints the figure (Jaccard of highlight names and of members)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.analysis.analyzer import Analyzer
from bot.analysis.themes import (
    HistoryWeek,
    ThemeResult,
    detect_themes,
    repo_terms,
    rules_from,
)
from bot.core.models import AnalyzedPR, PullRequest
from bot.digest.build import theme_doc
from bot.digest.service import ruleset_settings
from bot.importer import read_export
from tests.conftest import SHARED
from tests.digest.test_honest_data import _ascend_analyzer

ASCEND = SHARED / "datasets" / "vllm-ascend"
W22 = SHARED / "datasets" / "vllm-ascend-2026-W22.json"
HISTORY = 6  # the Saturday windows' oldest weeks start before the first file: 6 are whole
MONDAY_W14 = datetime(2026, 3, 30, tzinfo=UTC)
REPO = "vllm-project/vllm-ascend"


def _jaccard(a: set[object], b: set[object]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


@pytest.fixture(scope="module")
def ascend() -> tuple[list[AnalyzedPR], Analyzer]:
    files = sorted(ASCEND.glob("vllm-ascend-2026-W*.json"))
    if len(files) < 8 or not W22.exists():
        pytest.skip(f"{ASCEND} not available")
    prs: list[PullRequest] = []
    for path in [*files, W22]:
        _, part = read_export(path)
        prs.extend(part)
    # The rule set the CLI derives for vllm-ascend (labels, package sub-folders).
    analyzer = _ascend_analyzer()
    return [AnalyzedPR(p, analyzer.analyze(p)) for p in prs], analyzer


def _themes(prs: list[AnalyzedPR], analyzer: Analyzer, start: datetime) -> ThemeResult:
    _, auxiliary, _, _ = ruleset_settings(analyzer)
    not_themes = auxiliary | {analyzer.ruleset.fallback_module}
    rules = rules_from(analyzer.ruleset, not_themes)
    rules = replace(rules, stop_terms=rules.stop_terms | repo_terms(REPO))

    def week(offset: int) -> list[AnalyzedPR]:
        lo = start - timedelta(days=7 * offset)
        return [a for a in prs if a.pr.merged_at and lo <= a.pr.merged_at < lo + timedelta(7)]

    history = [
        HistoryWeek(f"-{k}", k, [theme_doc(a, not_themes) for a in week(k)])
        for k in range(1, HISTORY + 2)
    ]
    docs = [theme_doc(a, not_themes) for a in week(0)]
    return detect_themes(docs, history, rules, baseline_weeks=HISTORY)


def test_two_day_shift_keeps_most_groups(ascend) -> None:
    prs, analyzer = ascend
    names, members = [], []
    for k in (6, 7, 8):  # W20-W22 (Mondays), against the windows starting two days before
        monday = MONDAY_W14 + timedelta(days=7 * k)
        a = _themes(prs, analyzer, monday)
        b = _themes(prs, analyzer, monday - timedelta(days=2))
        names.append(_jaccard({t.key for t in a.themes}, {t.key for t in b.themes}))
        pairs_a = {(t.key, n) for t in a.themes for n in t.numbers}
        pairs_b = {(t.key, n) for t in b.themes for n in t.numbers}
        members.append(_jaccard(pairs_a, pairs_b))
        print(
            f"{monday.date()}: names {names[-1]:.2f} members {members[-1]:.2f}",
            sorted(t.name for t in a.themes),
            sorted(t.name for t in b.themes),
        )
    # Most groups survive the shift: at least half the highlight names on average.
    assert sum(names) / len(names) >= 0.5, names


def test_consecutive_weeks_agree_and_the_old_junk_is_gone(ascend) -> None:
    prs, analyzer = ascend
    w21 = _themes(prs, analyzer, MONDAY_W14 + timedelta(days=7 * 7))
    w22 = _themes(prs, analyzer, MONDAY_W14 + timedelta(days=7 * 8))
    shown = {t.key: len(t.members) for t in w21.themes}
    for theme in w22.themes:
        # W22's "last week" is W21's group as W21's digest showed it.
        assert theme.last_week == shown.get(theme.key), theme.name
    by_id = {t.id: len(t.members) for t in w21.themes}
    for fading in w22.fading:
        assert fading.last_week == by_id[fading.id] and fading.this_week * 2 <= fading.last_week
    # The junk groups W21 had before ("install", "weekly", "quant", "NPU", "operator").
    names = {t.name.lower() for t in w21.themes}
    assert not names & {"install", "weekly", "quant", "npu", "operator"}, names
