"""'Why this score' on the PR card adds up to the score, caps included (issue 14)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.analysis.analyzer import Analyzer
from bot.analysis.report import explain_text
from bot.analysis.rules import load_ruleset
from bot.analysis.score import shown_points
from bot.cards import pr_card, pr_text
from bot.core.models import FileChange, PullRequest, ScoreContribution

ANALYZER = Analyzer(load_ruleset("vllm"))


def _pr(title: str, files: list[tuple[str, int, int]], **extra: object) -> PullRequest:
    pr = PullRequest(
        repo="vllm-project/vllm",
        number=42187,
        title=title,
        url="https://github.com/vllm-project/vllm/pull/42187",
        state="merged",
        created_at=datetime(2026, 6, 3, tzinfo=UTC),
        additions=sum(a for _, a, _ in files),
        deletions=sum(d for _, _, d in files),
        files=[FileChange(p, a, d) for p, a, d in files],
        **extra,
    )
    return pr


def _score_lines(text: str) -> list[str]:
    section = text.split("Why this score\n", 1)[1].split("\n\n", 1)[0]
    return [line.strip()[2:] for line in section.splitlines()]


def _adds_up(lines: list[str], score: float) -> None:
    *items, total = lines
    assert total == f"= {score:.1f} / 10"
    points = [float(re.match(r"([+−][\d.]+)", item)[1].replace("−", "-")) for item in items]
    assert round(sum(points), 1) == score


def test_many_contributions_add_up() -> None:
    pr = _pr(
        "[ModelRunnerV2] Avoid pipeline parallel bubbles",
        [
            ("vllm/v1/worker/gpu/model_runner.py", 900, 300),
            ("vllm/v1/core/sched/scheduler.py", 400, 100),
            ("vllm/distributed/parallel_state.py", 80, 20),
        ],
        body="Up to 3.17x TPS with PP=4.",
        review_count=6,
        comment_count=20,
        labels=["ready"],
    )
    analysis = ANALYZER.analyze(pr)
    assert len([c for c in analysis.contributions if c.points > 0]) > 3
    lines = _score_lines(pr_text(pr, analysis))
    _adds_up(lines, analysis.score)
    # The overview line names its reasons as the top ones.
    assert f"top 3 of {len([c for c in analysis.contributions if c.points > 0])}" in pr_text(
        pr, analysis
    )


def test_a_reverts_cap_is_shown() -> None:
    pr = _pr(
        'Revert "[Core] Prefix-cache aware scheduling"',
        [("vllm/v1/core/sched/scheduler.py", 400, 900)],
    )
    analysis = ANALYZER.analyze(pr)
    assert analysis.kind == "revert" and analysis.score == 2.0
    lines = _score_lines(pr_text(pr, analysis))
    assert any(line.startswith("−") and "capped at 2" in line for line in lines)
    _adds_up(lines, analysis.score)
    assert "capped at 2" in explain_text(pr, analysis)
    assert "= " in explain_text(pr, analysis).split("score:")[1]
    zh = pr_card(pr, analysis, "zh")
    assert any(s.id == "score" for s in zh.sections)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-5, 5, allow_nan=False).filter(lambda x: abs(x) > 0.004), max_size=9))
def test_shown_points_sum_to_the_score(points: list[float]) -> None:
    contributions = [ScoreContribution("f", round(p, 2), "r") for p in points]
    total = max(0.0, sum(c.points for c in contributions))
    if total != sum(c.points for c in contributions):
        return  # floored at 0: not a case the scorer produces with these parts
    score = round(total + 1e-9, 1)
    shown = shown_points(contributions, score)
    assert len(shown) == len(contributions)
    assert round(sum(shown), 1) == score
    assert all(abs(s - c.points) < 0.1 + 1e-9 for s, c in zip(shown, contributions, strict=True))
