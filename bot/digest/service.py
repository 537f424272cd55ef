"""Load a window (and the week before) from the store, analyse, build the digest.

Syncing and first-time-contributor lookups need GitHub and live in the pipeline; this
function only reads the store, so it runs offline on a warm store.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from bot.analysis.themes import ThemeRules, rules_from
from bot.core.weeks import Window
from bot.digest.build import AUXILIARY_MODULES, DEFAULT_KEY_COUNT, DEFAULT_SCORE_FLOOR, build_digest
from bot.digest.history import Timeline, chain, history_of, load_timeline
from bot.digest.model import Digest
from bot.digest.narrative import NarrativeConfig, config_from_env, write_narrative
from bot.digest.theme_memo import kept_themes

if TYPE_CHECKING:
    from bot.analysis.analyzer import Analyzer
    from bot.store import Store


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


async def make_digest(
    store: Store,
    analyzer: Analyzer,
    repo: str,
    window: Window,
    *,
    timezone: str | None = None,
    new_contributors: Iterable[str] | None = None,
    key_count: int | None = None,
    score_floor: float | None = None,
    module_names: Mapping[str, tuple[str, str]] | None = None,
    now: datetime | None = None,
    history_weeks: int = DEFAULT_HISTORY_WEEKS,
    modules: Collection[str] = (),
    archive_base: str | None = None,
) -> Digest:
    """The digest of `window` from the store.

    `new_contributors` None means unknown (reported as null). The digest (language-neutral:
    it renders in every language) is marked incomplete when the store does not cover the
    window or the window has not ended.
    `history_weeks` > 0 uses that many earlier weeks as the themes' baseline and adds the
    trends over them; `modules` makes a module digest.
    """
    now = now or datetime.now(UTC)
    # One read of the whole span (the history weeks, last week and this one), bucketed
    # per week: themes and trends cost the same three queries whatever N is. One week
    # more than the baseline: last week's highlights are detected against their own N.
    timeline = await load_timeline(
        store, analyzer, repo, chain(window, max(history_weeks + 2, 2)), now=now
    )
    # Earlier weeks' theme facts come from the store: a run reads them, not re-derives.
    async with kept_themes(store, repo):
        return digest_at(
            timeline,
            len(timeline.weeks) - 1,
            analyzer=analyzer,
            timezone=timezone,
            new_contributors=new_contributors,
            key_count=key_count,
            score_floor=score_floor,
            module_names=module_names,
            history_weeks=history_weeks,
            modules=modules,
            archive_base=archive_base,
        )


async def narrate(
    digest: Digest, language: str, narrative: NarrativeConfig | bool | None = None
) -> Digest:
    """`digest` with summary and highlight text written by the narrative model in
    `language`, for a rendering in that language. `narrative`: a config, False to never
    call a model, or None to use OPENAI_BASE_URL when it is set."""
    if narrative is None or narrative is True:
        narrative = config_from_env()
    if isinstance(narrative, NarrativeConfig):
        digest = await write_narrative(digest, narrative, language)
    return digest


def digest_at(
    timeline: Timeline,
    index: int,
    *,
    analyzer: object,
    timezone: str | None = None,
    new_contributors: Iterable[str] | None = None,
    key_count: int | None = None,
    score_floor: float | None = None,
    module_names: Mapping[str, tuple[str, str]] | None = None,
    history_weeks: int = 0,
    modules: Collection[str] = (),
    archive_base: str | None = None,
) -> Digest:
    """The digest of the timeline's week `index` against the week before (pure: the archive
    builds every week of a loaded timeline with it, once for all languages)."""
    names, auxiliary, default_count, default_floor = ruleset_settings(analyzer)
    names = dict(module_names) if module_names is not None else names
    week = timeline.weeks[index]
    window = week.window
    previous = timeline.weeks[index - 1] if index > 0 else None
    now = timeline.now or datetime.now(UTC)
    # "Not over yet" and "not fully synced" are different warnings: a running week that
    # was synced up to now has correct figures so far.
    in_progress = window.end > now
    synced = week.synced
    history = None
    if history_weeks > 0:
        history = history_of(
            timeline,
            upto=index,
            weeks=history_weeks,
            modules=modules,
            module_names=names,
        )
    # The themes' baseline: the earlier weeks the store holds completely (a partly synced
    # week would look like a quiet one and make every theme look new), and one more for
    # last week's own baseline (its highlights are the trends' reference).
    earlier = [
        (timeline.weeks[index - offset].window.label, offset, timeline.weeks[index - offset].prs)
        for offset in range(1, history_weeks + 2)
        if index - offset >= 0 and timeline.complete(index - offset)
    ]
    digest = build_digest(
        week.prs,
        previous.prs if previous else [],
        repo=timeline.repo,
        window=window,
        timezone=timezone or str(window.start.tzinfo),
        module_names=names,
        new_contributors=new_contributors,
        key_count=default_count if key_count is None else key_count,
        score_floor=default_floor if score_floor is None else score_floor,
        complete=synced and not in_progress,
        in_progress=in_progress,
        synced=synced,
        previous_complete=previous is not None and timeline.complete(index - 1),
        generated_at=now,
        auxiliary_modules=auxiliary,
        fallback_modules=_fallback_modules(analyzer),
        history=earlier,
        baseline_weeks=history_weeks,
        theme_rules=theme_rules(analyzer),
        modules=modules,
        trends=history,
        archive_base=archive_base,
    )
    if history is not None and history.complete and history.complete[-1]:
        # The digest's own week: first-time contributors as GitHub told the pipeline.
        history.new_contributors[-1] = digest.totals.new_contributors
    return digest
