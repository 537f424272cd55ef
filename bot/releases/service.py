"""A stored release, loaded and analysed, turned into its digest (reads the store only)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING

from bot.analysis.cache import analyze_stored
from bot.core.models import AnalyzedPR
from bot.core.weeks import iso_week
from bot.digest.history import chain, load_timeline
from bot.digest.service import ruleset_settings, theme_rules
from bot.releases.build import build_release_digest
from bot.releases.model import ReleaseData, ReleaseDigest, ReleasePR, Requests
from bot.store.releases import StoredRelease
from bot.store.store import Store

if TYPE_CHECKING:
    from bot.analysis.analyzer import Analyzer

DEFAULT_HISTORY_WEEKS = 8


def pr_url(repo: str, number: int) -> str:
    return f"https://github.com/{repo}/pull/{number}"


async def load_release(
    store: Store,
    analyzer: Analyzer,
    stored: StoredRelease,
    *,
    requests: Requests | None = None,
    new_contributors: set[str] | None = None,
) -> tuple[ReleaseData, list[int]]:
    """The release's analysed PRs from the store, and the PRs the store lacks (named in
    compare order; the digest leaves them out, the caller says so)."""
    repo = stored.repo
    wanted = [pick if pick is not None else reported for reported, pick in stored.entries]
    # A pick is analysed as its original when the store holds it (sections and highlights
    # then read what the change is, not the release branch's "[v0.18.0][Cherry-pick]").
    originals = [reported for reported, pick in stored.entries if pick is not None]
    found = await store.prs.many(repo, [*wanted, *originals])
    present = [found[n] for n in dict.fromkeys([*wanted, *originals]) if n in found]
    analyses = await analyze_stored(store, analyzer, repo, present)
    analysed = {pr.number: AnalyzedPR(pr, a) for pr, a in zip(present, analyses, strict=True)}
    prs: list[ReleasePR] = []
    missing: list[int] = []
    seen: set[int] = set()
    for reported, pick in stored.entries:
        record = pick if pick is not None else reported
        if reported in seen:
            continue  # a PR picked twice (two commits) is one item of the notes
        if analysed.get(record) is None:
            missing.append(record)
            continue
        apr = analysed.get(reported) or analysed[record]
        seen.add(reported)
        prs.append(
            ReleasePR(
                apr,
                reported,
                pr_url(repo, reported),
                pick,
                None if pick is None else pr_url(repo, pick),
            )
        )
    data = ReleaseData(
        repo=repo,
        tag=stored.tag,
        base=stored.base,
        base_date=stored.base_date,
        head_date=stored.head_date,
        prs=prs,
        commits=stored.commits,
        unmapped=stored.unmapped,
        between=stored.between,
        url=stored.url,
        requests=requests,
        new_contributors=new_contributors,
    )
    return data, missing


async def release_history(
    store: Store,
    analyzer: Analyzer,
    repo: str,
    before: datetime | None,
    weeks: int,
    tz: tzinfo,
) -> list[tuple[str, int, Sequence[AnalyzedPR]]]:
    """The `weeks` ISO weeks before the week of `before` (the base tag's date) that the
    store holds PRs of, newest first by offset: the highlights' baseline."""
    if before is None or weeks <= 0:
        return []
    local = before.astimezone(tz)
    year, week, _ = local.isocalendar()
    spans = chain(iso_week(year, week, tz).previous(), weeks)
    timeline = await load_timeline(store, analyzer, repo, spans, now=datetime.now(UTC))
    count = len(timeline.weeks)
    return [(w.window.label, count - i, w.prs) for i, w in enumerate(timeline.weeks) if w.prs]


async def release_digest(
    store: Store,
    analyzer: Analyzer,
    data: ReleaseData,
    *,
    tz: tzinfo = UTC,
    history_weeks: int = DEFAULT_HISTORY_WEEKS,
) -> ReleaseDigest:
    names, auxiliary, _, _ = ruleset_settings(analyzer)
    history = await release_history(store, analyzer, data.repo, data.base_date, history_weeks, tz)
    return build_release_digest(
        data,
        history=history,
        theme_rules=theme_rules(analyzer),
        module_names=names,
        auxiliary=frozenset(auxiliary),
    )
