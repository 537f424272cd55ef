"""Load a window (and the week before) from the store, analyse, build the digest.

Syncing and first-time-contributor lookups need GitHub and live in the pipeline; this
function only reads the store, so it runs offline on a warm store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Protocol

from bot.analysis.cache import analyze_stored
from bot.analysis.themes import ThemeRules, rules_from
from bot.digest.build import AUXILIARY_MODULES, DEFAULT_KEY_COUNT, DEFAULT_SCORE_FLOOR, build_digest
from bot.digest.model import Digest
from bot.digest.narrative import NarrativeConfig, config_from_env, write_narrative
from bot.models import Analysis, AnalyzedPR, PullRequest
from bot.weeks import Window


class PRStore(Protocol):
    async def prs_merged_between(
        self, repo: str, start: datetime, end: datetime
    ) -> list[PullRequest]: ...

    async def is_covered(self, repo: str, start: datetime, end: datetime) -> bool: ...


class PRAnalyzer(Protocol):
    def analyze(self, pr: PullRequest) -> Analysis: ...


def ruleset_settings(analyzer: object) -> tuple[dict[str, tuple[str, str]], set[str], int, float]:
    """Module names, auxiliary modules and key-PR settings from the analyzer's rule set
    (defaults when the analyzer has none, e.g. a test stub)."""
    ruleset = getattr(analyzer, "ruleset", None)
    if ruleset is None:
        return {}, set(AUXILIARY_MODULES), DEFAULT_KEY_COUNT, DEFAULT_SCORE_FLOOR
    names = {m.id: (m.name_en, m.name_zh) for m in ruleset.modules}
    auxiliary = {m.id for m in ruleset.modules if m.auxiliary} | {ruleset.fallback_module}
    # Modules that say how a change was made, not what it changed, are never themes even
    # when a rule set does not mark them auxiliary.
    auxiliary |= AUXILIARY_MODULES & set(names)
    return names, auxiliary, ruleset.score.key_count, ruleset.score.key_floor


def _fallback_modules(analyzer: object) -> set[str]:
    """The rule set's catch-all module (e.g. "other"): never a theme of the week."""
    fallback = getattr(getattr(analyzer, "ruleset", None), "fallback_module", None)
    return {fallback} if fallback else set()


DEFAULT_HISTORY_WEEKS = 8


def theme_rules(analyzer: object) -> ThemeRules | None:
    """The rule set's theme settings (None for an analyzer without a rule set)."""
    ruleset = getattr(analyzer, "ruleset", None)
    if ruleset is None:
        return None
    _, auxiliary, _, _ = ruleset_settings(analyzer)
    return rules_from(ruleset, auxiliary | _fallback_modules(analyzer))


def history_windows(window: Window, weeks: int) -> list[tuple[int, Window]]:
    """The `weeks` windows right before `window`, nearest first, as (offset, window)."""
    out = []
    span = window
    for offset in range(1, max(weeks, 0) + 1):
        span = span.previous()
        out.append((offset, span))
    return out


async def load_history(
    store: PRStore, analyzer: PRAnalyzer, repo: str, window: Window, weeks: int
) -> list[tuple[str, int, list[AnalyzedPR]]]:
    """The earlier weeks the store holds completely (a partly synced week would look like a
    quiet one and make every theme look new): (label, offset, analysed PRs)."""
    out = []
    for offset, span in history_windows(window, weeks):
        if not await store.is_covered(repo, span.start_utc, span.end_utc):
            continue
        prs = await store.prs_merged_between(repo, span.start_utc, span.end_utc)
        analyses = await analyze_stored(store, analyzer, repo, prs)
        out.append(
            (span.label, offset, [AnalyzedPR(p, a) for p, a in zip(prs, analyses, strict=True)])
        )
    return out


async def make_digest(
    store: PRStore,
    analyzer: PRAnalyzer,
    repo: str,
    window: Window,
    language: str,
    *,
    timezone: str | None = None,
    new_contributors: Iterable[str] | None = None,
    key_count: int | None = None,
    score_floor: float | None = None,
    module_names: Mapping[str, tuple[str, str]] | None = None,
    narrative: NarrativeConfig | bool | None = None,
    now: datetime | None = None,
    history_weeks: int = DEFAULT_HISTORY_WEEKS,
) -> Digest:
    """The digest of `window` from the store.

    `new_contributors` None means unknown (reported as null). `narrative`: a config, False
    to never call a model, or None to use OPENAI_BASE_URL when it is set. The digest is
    marked incomplete when the store does not cover the window or the window has not ended.
    """
    names, auxiliary, default_count, default_floor = ruleset_settings(analyzer)
    previous_window = window.previous()
    current = await store.prs_merged_between(repo, window.start_utc, window.end_utc)
    previous = await store.prs_merged_between(
        repo, previous_window.start_utc, previous_window.end_utc
    )
    now = now or datetime.now(UTC)
    # "Not over yet" and "not fully synced" are different warnings: a running week that
    # was synced up to now has correct figures so far.
    in_progress = window.end > now
    synced = await store.is_covered(repo, window.start_utc, window.end_utc)
    complete = synced and not in_progress
    previous_complete = await store.is_covered(
        repo, previous_window.start_utc, previous_window.end_utc
    )
    current_analyses = await analyze_stored(store, analyzer, repo, current)
    previous_analyses = await analyze_stored(store, analyzer, repo, previous)
    history = await load_history(store, analyzer, repo, window, history_weeks)
    digest = build_digest(
        [AnalyzedPR(pr, a) for pr, a in zip(current, current_analyses, strict=True)],
        [AnalyzedPR(pr, a) for pr, a in zip(previous, previous_analyses, strict=True)],
        repo=repo,
        window=window,
        timezone=timezone or str(window.start.tzinfo),
        language=language,
        module_names=module_names if module_names is not None else names,
        new_contributors=new_contributors,
        key_count=default_count if key_count is None else key_count,
        score_floor=default_floor if score_floor is None else score_floor,
        complete=complete,
        in_progress=in_progress,
        synced=synced,
        previous_complete=previous_complete,
        generated_at=now,
        auxiliary_modules=auxiliary,
        fallback_modules=_fallback_modules(analyzer),
        history=history,
        theme_rules=theme_rules(analyzer),
    )
    if narrative is None or narrative is True:
        narrative = config_from_env()
    if isinstance(narrative, NarrativeConfig):
        digest = await write_narrative(digest, narrative)
    return digest
