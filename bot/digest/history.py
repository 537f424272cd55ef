"""Trends over many weeks, from the store: merged PRs, contributors and module series.

`load_timeline` reads a run of consecutive windows with ONE PR query, one sync-window query
and one contributor query (52 weeks of 10,000s of PRs cost the same three round trips as
one week); `history_of` is a pure function over the loaded weeks. The rules (incomplete
weeks, direction) are documented in docs/digest.md ("Trends over the last N weeks").
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from bot.analysis.cache import analyze_stored
from bot.core.models import AnalyzedPR, is_automation
from bot.core.weeks import Window

if TYPE_CHECKING:
    from bot.analysis.analyzer import Analyzer
    from bot.store import Store
    from bot.store.windows import SyncWindow

# "This week and the last 4 weeks" against the N-week baseline.
RECENT_WEEKS = 5
# Rising: recent mean ≥ baseline × 1.25 and at least 1 PR a week more; falling mirrors it.
DIRECTION_RATIO = 1.25
DIRECTION_MIN_PRS = 1.0
# A direction needs a baseline beyond the recent weeks: at least this many complete weeks.
DIRECTION_MIN_WEEKS = RECENT_WEEKS + 1
SPARK = "▁▂▃▄▅▆▇█"
SPARK_UNKNOWN = "·"  # an incomplete week: unknown, never drawn as a dip


@dataclass(slots=True)
class WeekData:
    window: Window
    prs: list[AnalyzedPR]
    synced: bool  # the store holds a complete sync of the window


@dataclass(slots=True)
class Timeline:
    """Consecutive windows, oldest first, each with its analysed PRs."""

    repo: str
    weeks: list[WeekData]
    # Known first-merge time per login (a login missing here was never looked up).
    first_merged: dict[str, datetime | None] = field(default_factory=dict)
    now: datetime | None = None

    def complete(self, index: int) -> bool:
        week = self.weeks[index]
        return week.synced and (self.now is None or week.window.end <= self.now)


# A module's (English, Chinese) names; a Chinese "" falls back to the English name.
ModuleNames = tuple[str, str]


def module_name(names: ModuleNames, language: str) -> str:
    """A module's name in `language`: the Chinese one when there is one, else English."""
    return names[1] if language == "zh" and names[1] else names[0]


def names_of(module: str, names: Mapping[str, ModuleNames]) -> ModuleNames:
    """The module's name pair; a module without one is named by its id."""
    return names.get(module) or (module, "")


@dataclass(slots=True)
class ModuleSeries:
    id: str
    names: ModuleNames
    series: list[int | None]  # None: the week is not complete (unknown, not zero)
    direction: str | None  # rising | falling | steady; None: too few complete weeks
    recent: float | None  # mean PRs a week over the recent complete weeks
    baseline: float | None  # mean PRs a week over every complete week of the series
    total: int = 0


@dataclass(slots=True)
class History:
    weeks: list[str]  # window labels, oldest first; the last is the digest's window
    starts: list[str]  # ISO start of each window
    complete: list[bool]
    merged: list[int | None]
    contributors: list[int | None]
    new_contributors: list[int | None]  # None also when first merges are not known
    modules: list[ModuleSeries]
    direction: str | None = None  # of the merged series
    recent_weeks: int = RECENT_WEEKS

    @property
    def incomplete(self) -> list[str]:
        return [w for w, ok in zip(self.weeks, self.complete, strict=True) if not ok]


def chain(window: Window, count: int) -> list[Window]:
    """`count` consecutive windows ending with `window`, oldest first."""
    out = [window]
    while len(out) < max(count, 1):
        out.append(out[-1].previous())
    return out[::-1]


def covered(rows: Sequence[SyncWindow], start: datetime, end: datetime) -> bool:
    """`SyncWindows.is_covered` over already-loaded sync-window rows (no query per week)."""
    cursor = start
    for row in sorted(rows, key=lambda r: r.start):
        if not row.complete or row.end <= start or row.start >= end:
            continue
        if row.start <= cursor < row.end:
            cursor = row.end
        if cursor >= end:
            return True
    return cursor >= end


async def load_timeline(
    store: Store,
    analyzer: Analyzer,
    repo: str,
    windows: Sequence[Window],
    *,
    now: datetime | None = None,
) -> Timeline:
    """The PRs of consecutive `windows` (oldest first), analysed, bucketed per window."""
    start, end = windows[0].start_utc, windows[-1].end_utc
    prs = await store.prs.merged_between(repo, start, end)
    analyses = await analyze_stored(store, analyzer, repo, prs)
    starts = [w.start_utc for w in windows]
    # Once per window: Window.end_utc converts on every access (0.13 s over 12,000 PRs).
    ends = [w.end_utc for w in windows]
    buckets: list[list[AnalyzedPR]] = [[] for _ in windows]
    for pr, analysis in zip(prs, analyses, strict=True):
        if pr.merged_at is None:
            continue
        index = bisect.bisect_right(starts, pr.merged_at) - 1
        if 0 <= index < len(windows) and pr.merged_at < ends[index]:
            buckets[index].append(AnalyzedPR(pr, analysis))
    rows = await store.windows.overlapping(repo, start, end)
    weeks = [
        WeekData(w, bucket, covered(rows, w.start_utc, w.end_utc))
        for w, bucket in zip(windows, buckets, strict=True)
    ]
    authors = {apr.pr.author for apr in (p for b in buckets for p in b) if apr.pr.author}
    first = await store.contributors.first_merged(repo, sorted(authors)) if authors else {}
    return Timeline(repo=repo, weeks=weeks, first_merged=first, now=now)


def in_modules(apr: AnalyzedPR, modules: Collection[str]) -> bool:
    """The PR touches one of `modules` (a module digest holds exactly these PRs)."""
    return any(m.id in modules for m in apr.analysis.modules)


def direction(
    series: Sequence[int | None], recent_weeks: int = RECENT_WEEKS
) -> tuple[str | None, float | None, float | None]:
    """(direction, recent mean, baseline mean) over the complete weeks of `series`.

    recent = mean of the last `recent_weeks` complete weeks; baseline = mean of every
    complete week of the series. Rising when recent ≥ baseline × 1.25 and recent −
    baseline ≥ 1 PR a week; falling when recent ≤ baseline / 1.25 and baseline − recent ≥
    1; steady otherwise. None with fewer than recent_weeks + 1 complete weeks.
    """
    known = [v for v in series if v is not None]
    if not known:
        return None, None, None
    recent_values = known[-recent_weeks:]
    recent = sum(recent_values) / len(recent_values)
    baseline = sum(known) / len(known)
    if len(known) < recent_weeks + 1:
        return None, round(recent, 2), round(baseline, 2)
    if recent >= baseline * DIRECTION_RATIO and recent - baseline >= DIRECTION_MIN_PRS:
        verdict = "rising"
    elif recent * DIRECTION_RATIO <= baseline and baseline - recent >= DIRECTION_MIN_PRS:
        verdict = "falling"
    else:
        verdict = "steady"
    return verdict, round(recent, 2), round(baseline, 2)


def _contributors(prs: Sequence[AnalyzedPR]) -> set[str]:
    # bot.digest.build.is_bot, without importing build (which imports this module).
    return {p.pr.author for p in prs if p.pr.author and not is_automation(p.pr.author)}


def history_of(
    timeline: Timeline,
    *,
    upto: int | None = None,
    weeks: int | None = None,
    modules: Collection[str] = (),
    module_names: Mapping[str, ModuleNames] | None = None,
) -> History:
    """The trend of the `weeks` windows ending at index `upto` (default: the last).

    `modules` non-empty: only PRs touching those modules count (a module digest), and
    only those modules get a series.
    """
    last = len(timeline.weeks) - 1 if upto is None else upto
    first = 0 if weeks is None else max(0, last - weeks + 1)
    indices = range(first, last + 1)
    names = module_names or {}
    scope = frozenset(modules)
    complete = [timeline.complete(i) for i in indices]
    merged: list[int | None] = []
    contributors: list[int | None] = []
    newcomers: list[int | None] = []
    per_module: dict[str, list[int | None]] = {}
    counts: list[Counter[str]] = []
    for i in indices:
        week = timeline.weeks[i]
        prs = [p for p in week.prs if in_modules(p, scope)] if scope else week.prs
        counter: Counter[str] = Counter()
        for apr in prs:
            counter.update({m.id for m in apr.analysis.modules})
        counts.append(counter)
        if not timeline.complete(i):
            merged.append(None)
            contributors.append(None)
            newcomers.append(None)
            continue
        merged.append(len({p.pr.number for p in prs}))
        authors = _contributors(prs)
        contributors.append(len(authors))
        # The contributor cache holds, per login, the time of a merge known to exist (an
        # upper bound of the first one): a time before the week settles "not new"; anything
        # else needs GitHub, so the week's count is unknown rather than guessed.
        start = week.window.start_utc
        settled = all(
            (at := timeline.first_merged.get(a)) is not None and at < start for a in authors
        )
        newcomers.append(0 if settled else None)
    seen = set(scope) if scope else {m for c in counts for m in c}
    for module in seen:
        per_module[module] = [
            (c[module] if ok else None) for c, ok in zip(counts, complete, strict=True)
        ]
    series_list = []
    for module, series in per_module.items():
        verdict, recent, baseline = direction(series)
        total = sum(v for v in series if v is not None)
        series_list.append(
            ModuleSeries(module, names_of(module, names), series, verdict, recent, baseline, total)
        )
    series_list.sort(key=lambda m: (-m.total, m.id))
    merged_direction, _, _ = direction(merged)
    return History(
        weeks=[timeline.weeks[i].window.label for i in indices],
        starts=[timeline.weeks[i].window.start.isoformat() for i in indices],
        complete=complete,
        merged=merged,
        contributors=contributors,
        new_contributors=newcomers,
        modules=series_list,
        direction=merged_direction,
    )


def sparkline(values: Sequence[int | None]) -> str:
    """▁▂▃▄▅▆▇█ scaled from 0 to the series' maximum; "·" for an incomplete week."""
    known = [v for v in values if v is not None]
    top = max(known, default=0)
    out = []
    for value in values:
        if value is None:
            out.append(SPARK_UNKNOWN)
        elif top == 0:
            out.append(SPARK[0])
        else:
            out.append(SPARK[min(len(SPARK) - 1, round(value * (len(SPARK) - 1) / top))])
    return "".join(out)
