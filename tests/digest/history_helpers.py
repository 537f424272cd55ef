"""Builders for the history, chart and archive tests: PRs in a real store, a stub analyzer."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta

from bot.core.models import Analysis, ModuleMatch, PullRequest
from bot.core.weeks import Window, iso_week
from bot.store import Store

REPO = "acme/widgets"
NAMES = {
    "rocm": ("ROCm / AMD", "ROCm / AMD 平台"),
    "attention": ("Attention", "注意力机制"),
    "tests": ("Tests", "测试"),
    "docs": ("Docs", "文档"),
}


class LabelAnalyzer:
    """Modules are the PR's labels; score from its size (no rule set, so no cache key)."""

    def analyze(self, pr: PullRequest) -> Analysis:
        return Analysis(
            modules=[ModuleMatch(label, f"label {label}") for label in pr.labels],
            kind="feature" if pr.additions % 2 else "bugfix",
            kind_reason="stub",
            flags=[],
            score=float(min(9, 3 + pr.additions % 7)),
            contributions=[],
            claims=[],
        )


def weeks_ending(last: str, count: int) -> list[Window]:
    year, week = int(last[:4]), int(last.split("W")[1])
    window = iso_week(year, week, UTC)
    out = [window]
    while len(out) < count:
        out.append(out[-1].previous())
    return out[::-1]


def pr(
    number: int,
    merged_at: datetime,
    modules: Sequence[str] = ("rocm",),
    author: str = "alice",
    repo: str = REPO,
) -> PullRequest:
    return PullRequest(
        repo=repo,
        number=number,
        title=f"Change {number}",
        url=f"https://github.com/{repo}/pull/{number}",
        state="merged",
        created_at=merged_at - timedelta(hours=5),
        body=f"Makes widget {number} faster.",
        author=author,
        merged_at=merged_at,
        additions=10 + number % 50,
        deletions=number % 7,
        changed_files=1,
        labels=list(modules),
    )


async def fill(
    store: Store,
    prs: Iterable[PullRequest],
    complete: Iterable[Window],
    repo: str = REPO,
) -> None:
    await store.prs.upsert(list(prs))
    for window in complete:
        count = await store.prs.count_merged_between(repo, window.start_utc, window.end_utc)
        await store.windows.mark(
            repo, window.start_utc, window.end_utc, complete=True, pr_count=count
        )


NOW = datetime(2026, 7, 1, tzinfo=UTC)
