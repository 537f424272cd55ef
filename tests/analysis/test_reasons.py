"""Flag and score reasons: one catalogue, both languages, rendered in the card's language."""

from __future__ import annotations

import re
import string
import unicodedata

import pytest

from bot.analysis.cache import from_dict, to_dict
from bot.analysis.reasons import REASONS, contribution_text, flag_text, render
from bot.cards import pr_text
from tests.analysis.analysis_factory import ANALYZER, make_pr


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("key", sorted(REASONS))
def test_every_reason_has_both_languages_with_the_same_placeholders(key: str) -> None:
    entry = REASONS[key]
    assert set(entry) == {"en", "zh"}
    assert _fields(entry["en"]) == _fields(entry["zh"])


def _big_pr():  # type: ignore[no-untyped-def]
    files = [("vllm/v1/core/sched/scheduler.py", 900, 402), ("requirements/cuda.txt", 1, 1)]
    pr = make_pr(
        "[Perf] Bump flashinfer to v0.6.12 and rework scheduling",
        files,
        body="2.2x throughput. BREAKING: removes --foo.",
        reviews=3,
        comments=1,
    )
    return pr


def test_analysis_reasons_all_have_keys_and_english_matches_reason() -> None:
    analysis = ANALYZER.analyze(_big_pr())
    items = [*analysis.flags, *analysis.contributions]
    assert {f.id for f in analysis.flags} >= {"core-path", "breaking", "dependency", "large"}
    for item in items:
        assert item.key in REASONS, item
        assert render(item.key, item.params, "en") == item.reason
    large = next(f for f in analysis.flags if f.id == "large")
    assert large.reason == "1,304 lines changed (> 1,000)"
    assert flag_text(large, "zh") == "改动 1,304 行（超过 1,000）"
    kind = next(c for c in analysis.contributions if c.feature == "kind")
    assert (kind.reason, contribution_text(kind, "zh")) == ("kind performance", "类型：性能优化")


def test_reason_keys_survive_the_cache() -> None:
    analysis = ANALYZER.analyze(_big_pr())
    assert from_dict(to_dict(analysis)) == analysis


def test_chinese_card_has_no_english_reasons_and_aligned_labels() -> None:
    pr = _big_pr()
    text = pr_text(pr, ANALYZER.analyze(pr), "zh")
    for english in ("lines changed", "touches", "kind performance", "claim", "reviews"):
        assert english not in text
    assert "涉及调度器" in text
    # Facts labels: every value starts in the same terminal column.
    card = text.split("\n\n")[1].splitlines()[1:]
    columns = set()
    for line in card:
        label, value = re.match(r"^  (.+?)( {2,})\S", line).groups()  # type: ignore[union-attr]
        width = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in label)
        columns.add(width + len(value))
    assert len(columns) == 1


def test_core_path_score_reuses_the_flag_template() -> None:
    # score.reuse_flag keeps the flag's English text, which is only right while they match.
    assert REASONS["score.core-path"] == REASONS["flag.core-path"]
