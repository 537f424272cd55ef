"""Flag and score reasons: one catalogue, both languages, rendered in the card's language."""

from __future__ import annotations

import re
import string
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.analysis.cache import from_dict, to_dict
from bot.analysis.reasons import (
    by_weight,
    contribution_text,
    flag_text,
    make_contribution,
    render,
)
from bot.cards import pr_text
from bot.core.i18n import MESSAGES
from tests.analysis.analysis_factory import ANALYZER, make_pr

# The analysis reasons are the catalogue's "reason.*" entries.
REASONS = {k: v for k, v in MESSAGES.items() if k.startswith("reason.")}


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
    assert REASONS["reason.score.core-path"] == REASONS["reason.flag.core-path"]


def test_one_catalogue_one_meaning_per_key() -> None:
    # The flag's name and the flag's reason are different messages with different ids.
    assert MESSAGES["flag.core-path"]["en"] == "Core-path change"
    assert MESSAGES["reason.flag.core-path"]["en"] == "touches {names}"
    assert len(REASONS) >= 30
    # One plural mechanism: the inline "{count:one|other}", as for every other message.
    assert render("score.activity.reviews", {"count": 1}, "en") == "1 review"
    assert render("score.activity.reviews", {"count": 1302}, "en") == "1,302 reviews"
    nested = {"key": "reason.verb.bumps", "params": {}}
    text = render("flag.dependency.pin", {"verb": nested, "what": "torch", "to": "2.9"}, "zh")
    assert text == "升级 torch 至 2.9"


def test_i18n_imports_nothing_above_core() -> None:
    import ast
    from pathlib import Path

    import bot.core.i18n

    tree = ast.parse(Path(bot.core.i18n.__file__).read_text(encoding="utf-8"))
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert not {m for m in imported if m.startswith("bot") and not m.startswith("bot.core.")}


@given(
    st.lists(
        st.tuples(
            st.sampled_from([-1.0, 0.5, 1.0, 2.5]),
            st.sampled_from(["size", "module", "claim"]),
            st.sampled_from(["score.size", "score.module", "score.label"]),
            st.integers(1, 3),
        ),
        max_size=8,
    )
)
def test_contributions_are_ordered_as_by_points_feature_and_english_reason(
    rows: list[tuple[float, str, str, int]],
) -> None:
    contributions = [
        make_contribution(feature, points, key, lines=n, module="m", label=f"l{n}")
        for points, feature, key, n in rows
    ]
    expected = sorted(
        contributions, key=lambda c: (-c.points, c.feature, render(c.key, c.params, "en"))
    )
    assert [(c.feature, c.points, c.reason) for c in by_weight(contributions)] == [
        (c.feature, c.points, c.reason) for c in expected
    ]


def test_a_reason_is_kept_as_data_and_read_in_english() -> None:
    analysis = ANALYZER.analyze(
        make_pr("[Core] Rework the scheduler", [("vllm/v1/core/sched/scheduler.py", 1_300, 4)])
    )
    stored = to_dict(analysis)
    assert stored["f"] and stored["c"]  # core-path, large, missing-tests; their points
    # The cache keeps key and parameters; the English text is what a reader gets.
    assert all(text == "" for _, text, key, _ in stored["f"] if key)
    assert all(text == "" for _, _, text, key, _ in stored["c"] if key)
    again = from_dict(stored)
    assert again == analysis
    assert [f.reason for f in again.flags] == [render(f.key, f.params) for f in analysis.flags]
