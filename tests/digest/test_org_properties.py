"""Limits and counts of the organisation digest's pure parts (hypothesis)."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import example, given
from hypothesis import strategies as st

from bot.digest.model import Digest, Highlight, KeyPR, Totals
from bot.digest.org import HISTORY_BUDGET, RepoPart, cross_themes, history_weeks, rank_key_prs

START, END = datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC)


def _digest(repo: str, scores: list[float], highlights: list[Highlight] = ()) -> Digest:
    keys = [
        KeyPR(
            number=i + 1, title="t", author="a", score=s, modules=[], summary="", claims=[], url="u"
        )
        for i, s in enumerate(scores)
    ]
    return Digest(
        repo=repo, week="2026-W23", start=START, end=END, timezone="UTC",
        totals=Totals(len(scores), len(scores), 1, 0, 0, 0), modules=[], kinds=[], flags=[],
        key_prs=keys, highlights=list(highlights), recommendations=[], prs=[],
    )  # fmt: skip


scores = st.lists(st.floats(min_value=0.1, max_value=10, allow_nan=False), max_size=30)


@given(st.lists(scores, min_size=1, max_size=8), st.integers(min_value=1, max_value=60))
# Found by hypothesis: a busy repository's tied top scores (share 1) once filled the list.
@example([[5.0, 5.0, 5.0], [1.0]], 2)
def test_key_prs_normalised_per_repository(per_repo: list[list[float]], count: int) -> None:
    parts = [
        RepoPart(f"o/r{i}", f"r{i}", _digest(f"o/r{i}", s), None) for i, s in enumerate(per_repo)
    ]
    ranked = rank_key_prs(parts, count)
    total = sum(len(s) for s in per_repo)
    assert len(ranked) == min(count, total)
    assert all(0 < k.share <= 1 for k in ranked)
    assert [k.share for k in ranked] == sorted((k.share for k in ranked), reverse=True)
    active = {p.repo for p, s in zip(parts, per_repo, strict=True) if s}
    if count >= len(active):
        # No repository is drowned: each one's best PR (share 1) makes the list.
        assert active <= {k.repo for k in ranked}


@given(st.integers(min_value=0, max_value=104), st.integers(min_value=0, max_value=20_000))
def test_history_weeks_stay_within_the_budget(configured: int, merged: int) -> None:
    weeks = history_weeks(configured, merged)
    assert 0 <= weeks <= configured
    if configured >= 1:
        assert weeks >= 1
    if weeks > 1:
        assert (weeks + 1) * merged <= HISTORY_BUDGET


@given(st.lists(st.sampled_from(["DeepSeek V4", "deepseek-v4", "ROCm", "MoE"]), max_size=6))
def test_cross_themes_span_two_repositories_or_more(names: list[str]) -> None:
    parts = []
    for i, name in enumerate(names):
        highlight = Highlight(theme=name, theme_id=name.lower(), prs=[1, 2], text="")
        parts.append(
            RepoPart(f"o/r{i % 3}", f"r{i % 3}", _digest(f"o/r{i % 3}", [1.0], [highlight]), None)
        )
    for theme in cross_themes(parts):
        repos = [repo for repo, _ in theme.members]
        assert len(repos) == len(set(repos)) >= 2
