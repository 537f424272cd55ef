"""Build the weekly Digest from analysed PRs: a pure function, every figure from the data.

The digest is computed once for every language: figures, members, change facts, claims and
rule ids, never a sentence (bot.digest.prose writes those when rendering).

The rules (key PRs, themes, highlights, recommendations) are documented for users in
docs/digest.md; keep the two in step. All orderings have a total tie-break (PR number or
module id) so the same input always gives the same digest, byte for byte.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from bot.analysis.changes import title_change
from bot.analysis.flags import relanded
from bot.analysis.score import TITLE_ONLY_EXCLUDED_KINDS, KeyCandidate, choose_key_prs
from bot.analysis.theme_upkeep import UPKEEP_CLASS
from bot.analysis.themes import (
    Fading,
    HistoryWeek,
    Theme,
    ThemeDoc,
    ThemeResult,
    ThemeRules,
    detect_themes,
    main_module,
    repo_terms,
)
from bot.core.models import FLAG_IDS, KIND_IDS, AnalyzedPR, is_automation
from bot.core.weeks import WEEK_PATTERN, Window
from bot.digest.history import History, ModuleNames, in_modules, names_of
from bot.digest.model import (
    Digest,
    FadingTheme,
    FlagCount,
    Highlight,
    KeyPR,
    KindCount,
    ModuleCount,
    PRRow,
    Reland,
    ThemeFact,
    ThemeHead,
    Totals,
)
from bot.digest.recommend import recommendations as build_recommendations
from bot.digest.summary import has_cjk, purpose, summarize

DEFAULT_KEY_COUNT = 24
DEFAULT_SCORE_FLOOR = 5.0
# PRs listed under one highlight theme; the rest are named in one "and N more" line, so
# one busy theme cannot crowd the others out of the section.
HIGHLIGHT_PRS = 6
MAX_HIGHLIGHT_GROUPS = 8  # the rule set may lower it ([themes] max_groups)
THEME_AUTHORS = 3  # leading authors named per theme
THEME_SENTENCES = 2  # description sentences quoted per theme
# A Chinese highlight quotes at most one English description, so it stays Chinese prose
# around a single marked quotation (descriptions written in Chinese are not limited).
THEME_SENTENCES_ZH = 1
LEAD_PRS = 4  # lead PRs whose change the opening sentence of a highlight names
THEME_CLAIMS = 3  # claims (each with its PR and metric) quoted per theme
DOMINANT_THEMES = 5  # themes named in the summary
SERIES_KEYS = 2  # key PRs of one theme before every other theme's have had their turn
THEME_FACTS = 12  # members whose summary and claims the narrative model receives
OTHER_THEME = "other"
# Modules that describe how a change is made rather than what it changes: a PR whose files
# are mostly tests still belongs to the theme of the code it tests.
AUXILIARY_MODULES = frozenset({"tests", "ci-build", "docs", "dependencies", "benchmarks", "other"})
KIND_ORDER = {kind: i for i, kind in enumerate(KIND_IDS)}
# Risks are reported most important first: core-path changes without tests (a separate
# line, CORE_UNTESTED), then flags in the order of the recommendations they lead to —
# breaking changes reach users, a revert means something broken landed, then the broad
# core-path / missing-tests flags, then dependency bumps and size.
CORE_UNTESTED = "core-untested"
RISK_ORDER = ("breaking", "revert", "core-path", "missing-tests", "dependency", "large")
_RISK_RANK = {flag: i for i, flag in enumerate(RISK_ORDER)}
# Flags that need a PR's file list (or its size): for a PR without one they are not known,
# which the digest says ("not known for N PRs") instead of counting it as "not flagged".
FILE_FLAGS = ("core-path", "missing-tests", "dependency", "large")
# "Large change" and "dependency change" are review risks of product code: a large docs or
# test change, a CI-only change or a bot's version bump does not belong in those lists
# (nor in the recommendations built on them). CI changes stay dependency changes: bumping
# torch is a "[CI/Build]" PR.
HOUSEKEEPING_KINDS = {
    "large": frozenset({"docs", "test", "ci"}),
    "dependency": frozenset({"docs", "test"}),
}


def is_bot(login: str | None) -> bool:
    """Automation accounts are not contributors (dependabot, pre-commit.ci, mergify...)."""
    return not login or is_automation(login)


@dataclass(slots=True)
class _Item:
    """The few fields of one PR that the digest uses, read once (10k PRs stay fast)."""

    number: int
    author: str | None
    score: float
    modules: tuple[str, ...]
    kind: str
    flags: tuple[str, ...]
    has_claims: bool
    theme: str | None
    source: AnalyzedPR
    files_known: bool = True
    size_known: bool = True
    # Flags as the digest's risk lists count them (HOUSEKEEPING_KINDS and bots left out).
    risk_flags: tuple[str, ...] = ()

    @property
    def rank(self) -> tuple[float, int]:
        # Importance order: higher score first, then the older (smaller) number.
        return (-self.score, self.number)


def _theme_of(modules: Sequence[str], auxiliary: Collection[str]) -> str | None:
    for module in modules:
        if module not in auxiliary:
            return module
    return modules[0] if modules else None


def span_of(label: str) -> str:
    """Catalogue wording for a window label: "week" (ISO week) or "period" (custom)."""
    return "week" if WEEK_PATTERN.match(label) else "period"


def risk_order(flag_ids: Iterable[str]) -> list[str]:
    """`flag_ids` most important first (RISK_ORDER; unknown flags last, by id)."""
    return sorted(flag_ids, key=lambda f: (_RISK_RANK.get(f, len(RISK_ORDER)), f))


def status_message(digest: Digest) -> str | None:
    """Catalogue id of the completeness warning, None for a complete window. A window
    that is still running is not a failed sync: its figures are right so far."""
    if digest.complete:
        return None
    if digest.in_progress:
        return "incomplete.running" if digest.synced else "incomplete.running_unsynced"
    return "incomplete"


def _item(apr: AnalyzedPR, auxiliary: Collection[str] = AUXILIARY_MODULES) -> _Item:
    analysis = apr.analysis
    modules = tuple(dict.fromkeys(m.id for m in analysis.modules))
    flags = tuple(dict.fromkeys(f.id for f in analysis.flags))
    bot = is_automation(apr.pr.author)
    risk_flags = tuple(
        f
        for f in flags
        if f not in HOUSEKEEPING_KINDS or not (bot or analysis.kind in HOUSEKEEPING_KINDS[f])
    )
    return _Item(
        number=apr.pr.number,
        author=apr.pr.author,
        score=float(analysis.score),
        modules=modules,
        kind=analysis.kind,
        flags=flags,
        has_claims=bool(analysis.claims),
        theme=_theme_of(modules, auxiliary),
        source=apr,
        files_known=apr.pr.files_known,
        size_known=apr.pr.size_known,
        risk_flags=risk_flags,
    )


def _delta(count: int, previous: int) -> float | None:
    if previous == 0:
        return None
    return round((count - previous) * 100 / previous, 1)


def _counts(items: Iterable[_Item]) -> tuple[Counter[str], Counter[str]]:
    modules: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for item in items:
        modules.update(item.modules)
        kinds[item.kind] += 1
    return modules, kinds


def build_digest(
    prs: Sequence[AnalyzedPR],
    previous: Sequence[AnalyzedPR],
    *,
    repo: str,
    window: Window,
    timezone: str,
    module_names: Mapping[str, ModuleNames],
    new_contributors: Iterable[str] | None = (),
    key_count: int = DEFAULT_KEY_COUNT,
    score_floor: float = DEFAULT_SCORE_FLOOR,
    complete: bool = True,
    in_progress: bool = False,
    synced: bool | None = None,
    previous_complete: bool = True,
    generated_at: datetime | None = None,
    auxiliary_modules: Collection[str] = AUXILIARY_MODULES,
    fallback_modules: Collection[str] = (OTHER_THEME,),
    history: Sequence[tuple[str, int, Sequence[AnalyzedPR]]] = (),
    theme_rules: ThemeRules | None = None,
    baseline_weeks: int | None = None,
    modules: Collection[str] = (),
    trends: History | None = None,
    archive_base: str | None = None,
) -> Digest:
    """The digest of `prs` (merged in `window`) against `previous` (the week before).

    `complete` False marks the digest incomplete; `in_progress` says why (the window has
    not ended) and `synced` whether the store nevertheless holds everything so far (by
    default: complete or in progress). When `previous_complete` is False nothing is
    compared with the previous window: its counts are null, not a partial baseline.
    `fallback_modules` (the rule set's catch-all) are never a theme. `history` holds the
    earlier weeks the store has, as (label, weeks before this window, PRs): the baseline
    that makes a theme distinctive and tells whether it is new, continuing, rising or
    tailing off. `modules` non-empty makes a module digest: every figure (themes and their
    baseline included) is computed over the PRs touching those modules. `trends` is the
    "Trends over the last N weeks" series (the JSON `history` key).
    """
    scope = list(dict.fromkeys(modules))
    if scope:
        prs = [p for p in prs if in_modules(p, scope)]
        previous = [p for p in previous if in_modules(p, scope)]
        history = [
            (label, offset, [p for p in week if in_modules(p, scope)])
            for label, offset, week in history
        ]
    auxiliary = frozenset(auxiliary_modules)
    fallback = frozenset(fallback_modules) | {OTHER_THEME}
    # Duplicates (a PR synced twice) must not count twice.
    items = sorted(
        {apr.pr.number: _item(apr, auxiliary) for apr in prs}.values(), key=lambda i: i.number
    )
    by_rank = sorted(items, key=lambda i: i.rank)
    previous_items = {apr.pr.number: _item(apr, auxiliary) for apr in previous}.values()

    module_counts, kind_counts = _counts(items)
    # A partly synced previous window would make every module look like it grew: use it
    # for nothing (no previous counts, deltas, quiet modules or surges).
    prev_modules, prev_kinds = _counts(previous_items) if previous_complete else _counts(())
    compared = previous_complete

    module_rows = [
        ModuleCount(
            id=mid,
            names=names_of(mid, module_names),
            count=module_counts[mid],
            previous=prev_modules[mid] if compared else None,
            delta=_delta(module_counts[mid], prev_modules[mid]) if compared else None,
        )
        for mid in sorted(
            set(module_counts) | set(prev_modules),
            key=lambda m: (-module_counts[m], -prev_modules[m], m),
        )
    ]
    kinds = [
        KindCount(id=kind, count=kind_counts[kind], previous=prev_kinds[kind] if compared else None)
        for kind in sorted(
            set(kind_counts) | set(prev_kinds),
            key=lambda k: (-kind_counts[k], -prev_kinds[k], KIND_ORDER.get(k, 99), k),
        )
    ]

    flagged: dict[str, list[int]] = defaultdict(list)
    for item in by_rank:
        for flag in item.risk_flags:
            flagged[flag].append(item.number)
    flag_ids = list(FLAG_IDS) + sorted(set(flagged) - set(FLAG_IDS))
    files_unknown = sum(1 for i in items if not i.files_known)
    sizes_unknown = sum(1 for i in items if not i.size_known)
    flags = [
        FlagCount(
            id=f,
            count=len(flagged[f]),
            prs=list(flagged[f]),
            unknown=(sizes_unknown if f == "large" else files_unknown) if f in FILE_FLAGS else 0,
        )
        for f in flag_ids
    ]

    by_number = {i.number: i for i in items}
    chosen = choose_key_prs(
        (KeyCandidate(i.number, i.score, i.kind, not i.files_known) for i in items),
        key_count,
        score_floor,
    )
    key_items = [by_number[c.number] for c, _ in chosen]
    from_titles = {c.number for c, relative in chosen if relative}

    # is_bot(None) is True: the `is not None` test only tells mypy so.
    authors = {a for i in items if (a := i.author) is not None and not is_bot(a)}
    contributors = sorted(authors, key=lambda a: (a.lower(), a))
    # None: unknown (GitHub unreachable); reported as null, never as "no newcomers".
    newcomers = sorted(set(new_contributors or ()) & authors, key=lambda a: (a.lower(), a))
    totals = Totals(
        merged=len(items),
        key=0,  # once the key PRs are spread over the themes (below)
        contributors=len(contributors),
        new_contributors=None if new_contributors is None else len(newcomers),
        # None when no PR's size is known: a title-only week did not add 0 lines.
        additions=sum(i.source.pr.additions for i in items if i.size_known)
        if sizes_unknown < len(items)
        else None,
        deletions=sum(i.source.pr.deletions for i in items if i.size_known)
        if sizes_unknown < len(items)
        else None,
        files_unknown=files_unknown,
        sizes_unknown=sizes_unknown,
    )

    not_themes = auxiliary | fallback
    rules = theme_rules or ThemeRules(
        modules={mid: name for mid, (name, _) in module_names.items() if mid not in not_themes}
    )
    if not history and previous_complete and previous:
        # The week before is history too (the trend baseline of every digest).
        history = [(window.previous().label, 1, list(previous))]
    # The repository's own name is every PR's subject, never a theme.
    rules = replace(rules, stop_terms=rules.stop_terms | repo_terms(repo))
    key_numbers = {i.number for i in key_items}
    theme_result = detect_themes(
        [theme_doc(i.source, not_themes, i.number in key_numbers) for i in items],
        [
            HistoryWeek(label, offset, [theme_doc(a, not_themes) for a in week])
            for label, offset, week in history
        ],
        rules,
        baseline_weeks=baseline_weeks,
        # A window that is over and synced is built again with the same PRs.
        keep_window=complete,
    )
    by_number = {i.number: i for i in items}
    key_items = spread_key_prs(key_items, theme_result, by_number, key_count, score_floor)
    # A lead added without a file list was, like the title-only fill, scored from its title.
    ranked = {c.number for c, _ in chosen}
    from_titles |= {i.number for i in key_items if i.number not in ranked and not i.files_known}
    key_prs = [key_pr(i.source, from_titles=i.number in from_titles) for i in key_items]
    totals = replace(totals, key=len(key_prs))
    highlights = theme_highlights(theme_result, by_number, module_names)
    themes = [h.theme_id for h in highlights[:DOMINANT_THEMES]]
    relands = relanded([i.source.pr for i in items])
    recommendations = build_recommendations(
        by_rank, set(relands), [a for _, _, week in history for a in week]
    )
    quiet = [m.id for m in module_rows if m.count == 0 and (m.previous or 0) > 0]
    core_untested = [
        i.number for i in by_rank if {"core-path", "missing-tests"} <= set(i.risk_flags)
    ]

    return Digest(
        repo=repo,
        week=window.label,
        start=window.start,
        end=window.end,
        timezone=timezone,
        totals=totals,
        modules=module_rows,
        kinds=kinds,
        flags=flags,
        key_prs=key_prs,
        highlights=highlights,
        recommendations=recommendations,
        prs=[pr_row(i.source) for i in items],
        new_contributors=newcomers,
        contributors=contributors,
        themes=themes,
        quiet_modules=quiet,
        complete=complete,
        in_progress=in_progress,
        synced=(complete or in_progress) if synced is None else synced,
        previous_complete=previous_complete,
        generated_at=generated_at,
        key_count=key_count,
        score_floor=score_floor,
        core_untested=core_untested,
        history_weeks=theme_result.history_weeks,
        history_labels=theme_result.history_labels,
        theme_result=theme_result,
        fading=_fading(theme_result, module_names),
        scope=scope,
        history=trends,
        archive_base=archive_base,
        relanded=[Reland(r, relands[r]) for r in flagged.get("revert", []) if r in relands],
    )


def pr_row(apr: AnalyzedPR, *, number: int | None = None, url: str | None = None) -> PRRow:
    """One PR's entry in the JSON `prs` list. A release passes the number and link it reports
    the PR under (a cherry-pick is reported as its original PR)."""
    pr, analysis = apr.pr, apr.analysis
    return PRRow(
        number=pr.number if number is None else number,
        modules=list(dict.fromkeys(analysis.module_ids)),
        kind=analysis.kind,
        flags=list(dict.fromkeys(analysis.flag_ids)),
        score=float(analysis.score),
        title=pr.title,
        author=pr.author,
        url=url or pr.url,
        additions=pr.additions if pr.size_known else None,
        deletions=pr.deletions if pr.size_known else None,
    )


def key_pr(
    apr: AnalyzedPR,
    *,
    number: int | None = None,
    url: str | None = None,
    from_titles: bool = False,
) -> KeyPR:
    """One row of the key-PR table (number and link as for `pr_row`)."""
    pr, analysis = apr.pr, apr.analysis
    return KeyPR(
        number=pr.number if number is None else number,
        title=pr.title,
        author=pr.author,
        score=float(analysis.score),
        modules=list(dict.fromkeys(analysis.module_ids)),
        summary=summarize(pr.body or "", pr.title),
        claims=[c.text for c in analysis.claims],
        url=url or pr.url,
        kind=analysis.kind,
        flags=list(dict.fromkeys(analysis.flag_ids)),
        score_reasons=analysis.score_reasons(3),
        scored_from_titles=from_titles,
    )


# ------------------------------------------------------------------ themes


def spread_key_prs(
    chosen: Sequence[_Item],
    result: ThemeResult,
    items: Mapping[int, _Item],
    count: int,
    floor: float,
) -> list[_Item]:
    """Key PRs spread over the week's themes: each highlight's lead (its most important
    member) is a candidate beside the top PRs by score when it scores at least half the
    floor, and no theme has more than SERIES_KEYS of the first places unless it holds most
    of the week (the week is that series). At most `count` PRs, most important first."""
    theme_of = {n: t.key for t in result.themes for n in t.numbers}
    leads = [
        lead
        for t in result.themes
        if t.numbers
        and (lead := items.get(t.numbers[0])) is not None
        and lead.score >= floor / 2
        # Title-only PRs of these kinds are never key PRs (choose_key_prs): nor as leads.
        and (lead.files_known or lead.kind not in TITLE_ONLY_EXCLUDED_KINDS)
    ]
    lead_numbers = {i.number for i in leads}
    pool = sorted({i.number: i for i in (*chosen, *leads)}.values(), key=lambda i: i.rank)
    # Over `count`: the lowest PRs that are no lead go first, then the lowest leads.
    others = [i for i in pool if i.number not in lead_numbers]
    dropped = {i.number for i in others[max(count - len(lead_numbers), 0) :]}
    pool = [i for i in pool if i.number not in dropped][: max(count, 0)]
    sizes = Counter(theme_of.values())
    head: list[_Item] = []
    held: list[_Item] = []
    per_theme: Counter[str] = Counter()
    for item in pool:
        key = theme_of.get(item.number)
        if key and per_theme[key] >= SERIES_KEYS and sizes[key] * 2 <= len(items):
            held.append(item)
            continue
        if key:
            per_theme[key] += 1
        head.append(item)
    return head + held


# ------------------------------------------------------------------ themes


def theme_doc(apr: AnalyzedPR, auxiliary: Collection[str], key: bool = False) -> ThemeDoc:
    """What theme detection reads of one PR: title, labels, its modules that may be themes
    and the one that is its main subject (titles only: descriptions add no member)."""
    pr, analysis = apr.pr, apr.analysis
    eligible = [m for m in analysis.modules if m.id not in auxiliary]
    main = main_module(pr, eligible)
    return ThemeDoc(
        number=pr.number,
        title=pr.title,
        author=None if is_bot(pr.author) else pr.author,
        labels=tuple(pr.labels),
        modules=tuple(dict.fromkeys(m.id for m in eligible)),
        main_module=main[0] if main else None,
        main_why=main[1] if main else "",
        score=float(analysis.score),
        key=key,
        kind=analysis.kind,
        # Only upkeep PRs' paths are read (theme_upkeep): a refactor's 800 files need not be
        # copied into every memo key.
        paths=tuple(f.path for f in pr.files) if analysis.kind in UPKEEP_CLASS else (),
    )


def _theme_names(theme: Theme | Fading, names: Mapping[str, ModuleNames]) -> ModuleNames | None:
    """An area is named by its module (the same every week, in each language); an
    initiative by its proper name (None here)."""
    if theme.named_by_module and theme.module:
        return names_of(theme.module, names)
    return None


def _fading(result: ThemeResult, names: Mapping[str, ModuleNames]) -> list[FadingTheme]:
    return [
        FadingTheme(
            id=f.id,
            name=f.name,
            last_week=f.last_week,
            this_week=f.this_week,
            highlight=f.highlight,
            module=f.module,
            names=_theme_names(f, names),
        )
        for f in result.fading
    ]


def _purposes(members: Sequence[_Item]) -> list[tuple[int, str]]:
    """(PR, purpose) of the members whose description states one, in member order, up to
    what either language's highlight quotes (bot.digest.prose.quoted_purposes): the first
    THEME_SENTENCES, and as many in Chinese or, for one of them, in English (an English
    purpose neither language would quote is left out)."""
    out: list[tuple[int, str]] = []
    quotable_in_zh = 0
    english = 0
    for item in members:
        if len(out) >= THEME_SENTENCES and quotable_in_zh >= THEME_SENTENCES:
            break
        pr = item.source.pr
        body = pr.body or ""
        if len(out) >= THEME_SENTENCES and not _may_be_cjk(body):
            # English has its quotes and Chinese its English one (else it would have both
            # and the loop would have ended): only a sentence in Chinese can still be
            # quoted, and a description without Chinese characters (or entities that could
            # spell one) has none. Parsing the rest of a busy theme's descriptions was most
            # of a 10,000-PR digest.
            continue
        why = purpose(body, pr.title)
        if not why:
            continue
        out.append((pr.number, why))
        if has_cjk(why):
            quotable_in_zh += 1
        elif english < THEME_SENTENCES_ZH:
            quotable_in_zh += 1
            english += 1
    return out


def _may_be_cjk(body: str) -> bool:
    return "&" in body or has_cjk(body)


def theme_highlights(
    result: ThemeResult,
    items: Mapping[int, _Item],
    names: Mapping[str, ModuleNames],
) -> list[Highlight]:
    """One highlight per theme, as data: its trend and counts, leading authors, best
    claims, what the top PRs' titles change and why their descriptions say they do.
    Every figure is a member count or a history count of the theme."""
    out = []
    for theme in result.themes:
        members = [items[n] for n in theme.numbers if n in items]
        claims = [
            (i.number, c)
            for i in members
            # Extraction keeps no bare figure; a claim naming its metric reads best.
            for c in sorted(i.source.analysis.claims, key=lambda c: c.metric is None)[:1]
        ][:THEME_CLAIMS]
        head = ThemeHead(
            count=len(theme.members),
            trend=theme.trend,
            last_week=theme.last_week,
            history_weeks=theme.history_weeks,
            baseline=theme.baseline,
            authors=list(theme.authors[:THEME_AUTHORS]),
            more_authors=max(len(theme.authors) - THEME_AUTHORS, 0),
            claims=claims,
            purposes=_purposes(members),
            kinds=sorted(
                Counter(i.kind for i in members).items(),
                key=lambda k: (-k[1], KIND_ORDER.get(k[0], len(KIND_ORDER))),
            ),
        )
        facts: list[ThemeFact] = [
            {
                "number": i.number,
                "summary": summarize(i.source.pr.body or "", i.source.pr.title),
                "claims": [c.text for c in i.source.analysis.claims],
                "change": title_change(i.source.pr.title, i.kind),
                "purpose": purpose(i.source.pr.body or "", i.source.pr.title) or "",
            }
            for i in members[:THEME_FACTS]
        ]
        out.append(
            Highlight(
                theme=theme.name,
                theme_id=theme.id,
                prs=[i.number for i in members],
                trend=theme.trend,
                previous=theme.last_week,
                terms=list(theme.terms),
                module=theme.module,
                facts=facts,
                names=_theme_names(theme, names),
                head=head,
                upkeep=theme.kind == "upkeep",
            )
        )
    return out
