"""Builders for realistic PullRequest objects used across the analysis tests."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.core.models import FileChange, PullRequest

VLLM = load_ruleset("vllm")
ANALYZER = Analyzer(VLLM)


def make_pr(
    title: str,
    files: list[tuple[str, int, int]] | None = None,
    *,
    number: int = 40000,
    body: str = "",
    labels: list[str] | None = None,
    reviews: int = 0,
    comments: int = 0,
    change_types: dict[str, str] | None = None,
) -> PullRequest:
    """files=None means the file list is unknown (title-only data)."""
    known = files is not None
    fcs = [FileChange(p, a, d, (change_types or {}).get(p)) for p, a, d in (files or [])]
    return PullRequest(
        repo="vllm-project/vllm",
        number=number,
        title=title,
        url=f"https://github.com/vllm-project/vllm/pull/{number}",
        state="merged",
        created_at=datetime(2026, 6, 1, 12, 0, tzinfo=UTC),
        merged_at=datetime(2026, 6, 2, 8, 30, tzinfo=UTC),
        body=body,
        author="someone",
        additions=sum(f.additions for f in fcs),
        deletions=sum(f.deletions for f in fcs),
        changed_files=len(fcs),
        labels=labels or [],
        files=fcs,
        files_known=known,
        review_count=reviews,
        comment_count=comments,
    )
