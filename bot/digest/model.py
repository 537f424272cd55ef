"""The structured weekly digest: every figure here is computed from stored PRs.

The model is language-neutral: it holds figures, members, PR numbers, change facts, claims,
trend counts, module name pairs and recommendation ids, never a sentence, so one computed
week serves every language. `bot.digest.prose.digest_json(digest, language)` gives the
CONTRACT keys with the localised fields written in `language`; rendering (markdown, HTML,
Slack, Discord) goes through `bot.digest.document`, which turns a Digest into a localized
`bot.core.document.Document`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from bot.core.weeks import WEEK_PATTERN
from bot.digest.history import History, ModuleNames, module_name

if TYPE_CHECKING:
    from bot.analysis.changes import Change
    from bot.analysis.themes import ThemeResult
    from bot.core.models import Claim, Flag


class ThemeFact(TypedDict):
    """A theme member's facts for the highlight text and the narrative model (never in the
    digest JSON)."""

    number: int
    summary: str
    claims: list[str]
    # --- prose ---
    change: Change | None  # what the title says it changes (None: no title)
    purpose: str  # why, from the description's purpose section ("" when none)


@dataclass(slots=True)
class Totals:
    merged: int
    key: int
    contributors: int
    new_contributors: int | None  # None when GitHub could not tell who is new
    # Sums over the PRs whose size is known; None when no PR's size is known (title-only
    # imports): unknown, never 0.
    additions: int | None
    deletions: int | None
    files_unknown: int = 0  # PRs without a file list: file-based flags are not known
    sizes_unknown: int = 0  # PRs whose size is unknown (left out of additions/deletions)


@dataclass(slots=True)
class ModuleCount:
    id: str
    names: ModuleNames  # (English, Chinese); Chinese "" falls back to English
    count: int
    # None when the previous window is not fully synced: a partial count is not a baseline.
    previous: int | None
    # Percent change against the previous window; None when previous is 0 or unknown.
    delta: float | None


@dataclass(slots=True)
class KindCount:
    id: str
    count: int
    previous: int | None  # None when the previous window is not fully synced


@dataclass(slots=True)
class FlagCount:
    id: str
    count: int
    prs: list[int]  # most important first
    # PRs for which this flag cannot be computed (no file list / no size); 0 for flags that
    # need no files.
    unknown: int = 0


@dataclass(slots=True)
class KeyPR:
    number: int
    title: str
    author: str | None
    score: float
    modules: list[str]
    summary: str
    claims: list[str]
    url: str
    kind: str = "misc"
    flags: list[str] = field(default_factory=list)
    score_reasons: list[str] = field(default_factory=list)
    # No file list: ranked against the window's other title-only PRs (see choose_key_prs),
    # not against the absolute score floor.
    scored_from_titles: bool = False


@dataclass(slots=True)
class Highlight:
    theme: str  # theme name as users write it (a module theme: see `names`)
    theme_id: str
    prs: list[int]  # every member PR, most important first
    # Text written for one language by someone other than the catalogue (the narrative
    # model, the organisation digest); "" (the rule): written from `head` and `facts`
    # when rendering.
    text: str = ""
    model_written: bool = False
    trend: str = "unknown"  # new | continuing | rising | falling | unknown (no last week)
    previous: int | None = None  # PRs on the theme the week before, when the store has it
    terms: list[str] = field(default_factory=list)  # the written forms that formed it
    module: str | None = None  # the module id when the theme is a module's
    # Summary and claims of the top members, for the narrative model (not in the JSON).
    facts: list[ThemeFact] = field(default_factory=list, repr=False)
    # The module's (English, Chinese) names when the theme is named by its module: an
    # area reads the same every week, in the language it is rendered in.
    names: ModuleNames | None = None
    head: ThemeHead | None = None  # the figures of the highlight's sentences
    # A CI, test, docs or dependency effort (the theme's kind "upkeep",
    # bot.analysis.theme_upkeep): a highlight when large, but not the week's news.
    upkeep: bool = False


@dataclass(slots=True)
class ThemeHead:
    """What a rule-based highlight says, as data: counts, trend, leading authors, claims
    and the quoted purposes of its members (bot.digest.prose writes the sentences)."""

    count: int
    trend: str
    last_week: int | None
    history_weeks: int
    baseline: float | None
    authors: list[tuple[str, int]]  # the leading ones, with their PR counts
    more_authors: int  # authors beyond `authors`
    claims: list[tuple[int, Claim]]  # (PR, its best claim), most important PR first
    # (PR, purpose sentence) of the members that have one, in member order: enough of them
    # for either language's quoting rule (bot.digest.prose.quoted_purposes).
    purposes: list[tuple[int, str]]
    # (kind, members of it), most first: what sort of work the theme is ("3 features, 8 fixes").
    kinds: list[tuple[str, int]] = field(default_factory=list)


# --- prose ---
@dataclass(slots=True)
class Reland:
    """A revert whose change landed again in the same window: not open follow-up work."""

    revert: int
    reland: int


@dataclass(slots=True)
class FadingTheme:
    """A highlight of last week that is gone or has at most half its members this week."""

    id: str  # last week's theme id
    name: str  # as last week's digest named it (an area: see `names`)
    last_week: int  # members of last week's highlight
    this_week: int  # members this week, or PRs naming it when it is no highlight now
    highlight: bool  # still a highlight this week
    module: str | None = None
    names: ModuleNames | None = None  # an area: its module's (English, Chinese) names


@dataclass(slots=True)
class RecDetail:
    """The evidence of a recommendation (bot.digest.recommend), as data: the PR it is about
    and the names, flags and parts it found there."""

    pr: int
    subject: str = ""  # what a revert reverted (else its own title); a series' name
    named: bool = False  # a revert names what it reverts
    old: list[str] = field(default_factory=list)  # renamed options, before ...
    new: list[str] = field(default_factory=list)  # ... and after, in the same order
    removed: list[str] = field(default_factory=list)  # removed options
    flags: list[Flag] = field(default_factory=list)  # the flags whose reasons are the evidence
    total: int = 0  # a series' number of parts
    missing: list[int] = field(default_factory=list)  # its parts not merged


@dataclass(slots=True)
class Recommendation:
    prs: list[int]
    id: str = ""  # rule id, e.g. "core-untested"
    # The rule's parameters (cross-platform: the surging module and its percent change).
    module: ModuleNames | None = None
    percent: float | None = None
    details: list[RecDetail] = field(default_factory=list)
    # Text written for one language outside the catalogue rules (the organisation
    # digest prefixes each repository's); "": written from the rule when rendering.
    text: str = ""


@dataclass(slots=True)
class PRRow:
    number: int
    modules: list[str]
    kind: str
    flags: list[str]
    score: float
    title: str = ""
    author: str | None = None
    url: str = ""
    additions: int | None = 0  # None when the size is unknown
    deletions: int | None = 0


@dataclass(slots=True)
class Digest:
    repo: str
    week: str  # "2026-W23", or "2026-06-01..2026-06-08" for custom windows
    start: datetime  # inclusive, timezone-aware
    end: datetime  # exclusive
    timezone: str
    totals: Totals
    modules: list[ModuleCount]
    kinds: list[KindCount]
    flags: list[FlagCount]
    key_prs: list[KeyPR]
    highlights: list[Highlight]
    recommendations: list[Recommendation]
    prs: list[PRRow]
    new_contributors: list[str] = field(default_factory=list)
    contributors: list[str] = field(default_factory=list)
    themes: list[str] = field(default_factory=list)  # dominant theme ids, by weight (<= 5)
    # Written for one language outside the catalogue rules (narrative model, organisation
    # digest); "": the rule-based summary, written when rendering (bot.digest.prose).
    summary_text: str = ""
    quiet_modules: list[str] = field(default_factory=list)
    complete: bool = True  # False when the window is not fully synced or not over yet
    in_progress: bool = False  # the window has not ended: figures so far, not a sync failure
    synced: bool = True  # the store holds a complete sync of the window (so far)
    previous_complete: bool = True  # False when last week (the trend baseline) was not synced
    generated_at: datetime | None = None
    narrative_model: str | None = None  # set when summary/highlight text is model-written
    key_count: int = 24  # the K of "top K PRs by score" used for key_prs
    score_floor: float = 5.0  # key PRs score at least this
    core_untested: list[int] = field(default_factory=list)  # core-path and missing-tests
    history_weeks: int = 0  # earlier weeks the store held for themes (0: none)
    history_labels: list[str] = field(default_factory=list)
    # The detection behind the highlights (terms, scores, why each PR joined), for
    # `vllm-bot themes` and `explain`; not part of the JSON digest.
    theme_result: ThemeResult | None = field(default=None, repr=False, compare=False)
    # A module digest: only PRs touching these modules (empty: the whole repository).
    scope: list[str] = field(default_factory=list)
    # Trends over the last N weeks (None when not computed, e.g. a bare build_digest).
    history: History | None = None
    # The archive's public base ([web] base_url): this week's page in each language lives
    # under it (bot.digest.archive_paths.week_url).
    archive_base: str | None = None
    # --- prose ---
    relanded: list[Reland] = field(default_factory=list)  # reverts re-landed in the window
    # Last week's highlights that are gone or fell by half (bot/analysis/themes.py).
    fading: list[FadingTheme] = field(default_factory=list)

    @property
    def span(self) -> str:
        """ "week" for an ISO week, "period" for a --since/--until window: selects the
        catalogue wording (本周 / 本期, "this week" / "this period")."""
        return "week" if WEEK_PATTERN.match(self.week) else "period"

    def scope_names(self, language: str) -> list[str]:
        """The module digest's modules by name, in `language`."""
        names = {m.id: m.names for m in self.modules}
        if self.history is not None:
            names |= {m.id: m.names for m in self.history.modules}
        return [module_name(names[m], language) if m in names else m for m in self.scope]
