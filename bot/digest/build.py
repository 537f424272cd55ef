"""Build the weekly Digest from analysed PRs: a pure function, every figure from the data.

The rules (key PRs, themes, highlights, recommendations) are documented for users in
docs/digest.md; keep the two in step. All orderings have a total tie-break (PR number or
module id) so the same input always gives the same digest, byte for byte.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from bot.analysis.changes import (
    Change,
    says_little,
    starts_a_change,
    third_person,
    title_change,
)
from bot.analysis.claims import claim_text
from bot.analysis.flags import relanded
from bot.analysis.score import KeyCandidate, choose_key_prs
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
from bot.core import i18n
from bot.core.models import FLAG_IDS, KIND_IDS, AnalyzedPR, is_automation
from bot.core.weeks import WEEK_PATTERN, Window
from bot.digest.history import History, in_modules
from bot.digest.model import (
    Digest,
    FadingTheme,
    FlagCount,
    Highlight,
    KeyPR,
    KindCount,
    ModuleCount,
    PRRow,
    Recommendation,
    Reland,
    ThemeFact,
    Totals,
)
from bot.digest.summary import purpose, summarize
from bot.digest.themes_report import fading_text

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
THEME_FACTS = 12  # members whose summary and claims the narrative model receives
OTHER_THEME = "other"
# Modules that describe how a change is made rather than what it changes: a PR whose files
# are mostly tests still belongs to the theme of the code it tests.
AUXILIARY_MODULES = frozenset({"tests", "ci-build", "docs", "dependencies", "benchmarks", "other"})
# Hardware back-ends: a surge there is worth a cross-platform regression run.
PLATFORM_MODULES = ("rocm", "xpu", "cpu", "tpu")
SURGE_MIN_COUNT = 5
SURGE_MIN_PERCENT = 50.0
REFS_IN_TEXT = 8  # PR numbers named in one sentence; the rest are "and N more"
NAMES_IN_TEXT = 10
_KIND_ORDER = {kind: i for i, kind in enumerate(KIND_IDS)}
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


def _refs(numbers: Sequence[int], language: str, limit: int = REFS_IN_TEXT) -> str:
    shown = [f"#{n}" for n in numbers[:limit]]
    text = " ".join(shown) if language == "en" else "、".join(shown)
    if len(numbers) > limit:
        more = i18n.t(language, "more", count=len(numbers) - limit)
        text += f" {more}" if language == "en" else more
    return text


def _names(names: Sequence[str], language: str, limit: int = NAMES_IN_TEXT) -> str:
    if len(names) <= limit:
        return i18n.join(names, language)
    shown = (", " if language == "en" else "、").join(names[:limit])
    return i18n.t(language, "names.more", names=shown, count=len(names) - limit)


def _module_name(module_id: str, names: Mapping[str, tuple[str, str]], language: str) -> str:
    pair = names.get(module_id)
    if not pair:
        return module_id
    return pair[1] if language == "zh" and pair[1] else pair[0]


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
    language: str,
    module_names: Mapping[str, tuple[str, str]],
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
    archive_url: str | None = None,
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
            name=_module_name(mid, module_names, language),
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
            key=lambda k: (-kind_counts[k], -prev_kinds[k], _KIND_ORDER.get(k, 99), k),
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
    key_prs = [key_pr(i.source, from_titles=i.number in from_titles) for i in key_items]

    # is_bot(None) is True: the `is not None` test only tells mypy so.
    authors = {a for i in items if (a := i.author) is not None and not is_bot(a)}
    contributors = sorted(authors, key=lambda a: (a.lower(), a))
    # None: unknown (GitHub unreachable); reported as null, never as "no newcomers".
    newcomers = sorted(set(new_contributors or ()) & authors, key=lambda a: (a.lower(), a))
    totals = Totals(
        merged=len(items),
        key=len(key_prs),
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

    span = span_of(window.label)
    by_id = {m.id: m for m in module_rows}
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
    )
    by_number = {i.number: i for i in items}
    highlights = theme_highlights(theme_result, by_number, module_names, language, span)
    themes = [h.theme_id for h in highlights[:DOMINANT_THEMES]]
    relands = relanded([i.source.pr for i in items])
    recommendations = _recommendations(by_rank, by_id, language, span, set(relands))
    quiet = [m.id for m in module_rows if m.count == 0 and (m.previous or 0) > 0]
    core_untested = [
        i.number for i in by_rank if {"core-path", "missing-tests"} <= set(i.risk_flags)
    ]

    digest = Digest(
        repo=repo,
        week=window.label,
        start=window.start,
        end=window.end,
        timezone=timezone,
        language=language,
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
        fading=_fading(theme_result, module_names, language),
        scope=scope,
        history=trends,
        archive_url=archive_url,
        relanded=[Reland(r, relands[r]) for r in flagged.get("revert", []) if r in relands],
    )
    digest.summary_text = summary_text(digest)
    return digest


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
    )


def _theme_name(theme: Theme | Fading, names: Mapping[str, tuple[str, str]], language: str) -> str:
    """An area by its module's name in the digest's language (the same every week), an
    initiative by its proper name."""
    if theme.named_by_module and theme.module:
        return _module_name(theme.module, names, language)
    return theme.name


def _fading(
    result: ThemeResult, names: Mapping[str, tuple[str, str]], language: str
) -> list[FadingTheme]:
    return [
        FadingTheme(
            id=f.id,
            name=_theme_name(f, names, language),
            last_week=f.last_week,
            this_week=f.this_week,
            highlight=f.highlight,
            module=f.module,
        )
        for f in result.fading
    ]


def _average(value: float | None) -> str:
    value = value or 0.0
    shown = f"{value:.0f}" if value >= 10 or value == int(value) else f"{value:.1f}"
    return shown


def _theme_head(theme: Theme, language: str, span: str) -> str:
    """Count and trend against last week's highlight of the theme; the weekly mean of the
    history weeks is quoted beside it, never instead."""
    count = len(theme.members)
    if theme.trend == "unknown":
        if theme.history_weeks == 0:
            return i18n.t(language, "theme.unknown", span=span, count=count)
        head = i18n.t(language, "theme.trend.unheld", span=span, count=count)
    elif theme.trend == "continuing" and theme.last_week is not None:
        head = i18n.t(
            language, "theme.continuing", span=span, count=count, previous=theme.last_week
        )
    else:
        head = i18n.t(
            language, f"theme.trend.{theme.trend}", span=span, count=count, previous=theme.last_week
        )
    if theme.baseline is not None and theme.history_weeks:
        average = i18n.t(
            language,
            "theme.trend.average",
            average=_average(theme.baseline),
            weeks=theme.history_weeks,
        )
        head = f"{head}{'' if language == 'zh' else ' '}{average}"
    return head


def _theme_authors(theme: Theme, language: str) -> str | None:
    if not theme.authors:
        return None
    shown = [
        i18n.t(language, "theme.author_item", name=name, count=count) if count > 1 else name
        for name, count in theme.authors[:THEME_AUTHORS]
    ]
    rest = len(theme.authors) - len(shown)
    if rest:
        return i18n.t(
            language, "theme.authors_more", authors=i18n.join(shown, language), count=rest
        )
    return i18n.t(language, "theme.authors", authors=i18n.join(shown, language))


def theme_highlights(
    result: ThemeResult,
    items: Mapping[int, _Item],
    names: Mapping[str, tuple[str, str]],
    language: str,
    span: str,
) -> list[Highlight]:
    """One highlight per theme: its trend, leading authors, claimed gains (metric kept)
    and what the top PRs' descriptions say they change. Every figure is a member count or
    a history count of the theme; nothing else is stated."""
    sep = " " if language == "en" else ""
    out = []
    for theme in result.themes:
        members = [items[n] for n in theme.numbers if n in items]
        sentences = [_theme_head(theme, language, span)]
        authors = _theme_authors(theme, language)
        if authors:
            sentences.append(authors)
        claims = [
            i18n.t(
                language, "highlight.claim_item", pr=f"#{i.number}", claim=claim_text(c, language)
            )
            for i in members
            # Extraction keeps no bare figure; a claim naming its metric reads best.
            for c in sorted(i.source.analysis.claims, key=lambda c: c.metric is None)[:1]
        ]
        if claims:
            sentences.append(
                i18n.t(language, "theme.claims", claims=i18n.join(claims[:THEME_CLAIMS], language))
            )
        changes = {i.number: title_change(i.source.pr.title, i.kind) for i in members[:THEME_FACTS]}
        opening = change_sentence(
            [(i.number, changes[i.number]) for i in members[:THEME_FACTS]], language, span
        )
        if opening:
            sentences.insert(0, opening)
            # The opening already says 本周/本期; the count after it says 共 ("in all").
            sentences[1] = (
                _ZH_SPAN_START.sub("共 ", sentences[1]) if language == "zh" else sentences[1]
            )
        said: list[str] = []
        english = 0  # quotes in English inside a Chinese highlight
        for item in members:
            pr = item.source.pr
            why = purpose(pr.body or "", pr.title)
            if why and language != "en" and not _has_cjk(why):
                if english == THEME_SENTENCES_ZH:
                    continue
                english += 1
            if why:
                said.append(quote_purpose(pr.number, why, language))
            if len(said) == THEME_SENTENCES:
                break
        facts: list[ThemeFact] = [
            {
                "number": i.number,
                "summary": summarize(i.source.pr.body or "", i.source.pr.title),
                "claims": [c.text for c in i.source.analysis.claims],
                "change": change_phrase(changes[i.number], i.number, language),
                "purpose": purpose(i.source.pr.body or "", i.source.pr.title) or "",
            }
            for i in members[:THEME_FACTS]
        ]
        text = sep.join(sentences)
        if said:
            # Quoted descriptions keep their language; a space keeps Latin text apart.
            text += " " + " ".join(said)
        out.append(
            Highlight(
                theme=_theme_name(theme, names, language),
                theme_id=theme.id,
                prs=[i.number for i in members],
                text=text,
                trend=theme.trend,
                previous=theme.last_week,
                terms=list(theme.terms),
                module=theme.module,
                facts=facts,
            )
        )
    return out


_ZH_SPAN_START = re.compile(r"^(?:本周|本期)\s*")
# A lower-case English word (not an identifier such as DeepseekV4, W4A8, `dsa.py`).
_PROSE_WORD = re.compile(r"(?<![\w`./-])[a-z]{2,}(?:-[a-z]+)*(?![\w`./-])")
# Where a title's object stops naming the thing and starts saying where, why or how
# ("attention sink support | to AITer flash attention backend", "Native W4A16 kernel | —
# fp16"): a Chinese digest keeps the head, so a sentence of four changes is not a wall of
# quoted English.
_ZH_CUT = re.compile(
    r"\s+(?:due\s+to|because\s+of|caused\s+by|for|to|in|on|with|from|by|via|when|if|using|so|"
    r"that|because|instead|at|into|during|after|before|without|across|under|per|through|as|"
    r"where|which|whose|while|between)\s+|\s+[—–-]+\s+|\s*[(\[]|"
    r"[;:.]\s|\.{3}|…",
    re.IGNORECASE,
)
_ZH_LEADING = re.compile(r"^(?:for|to|in|on|with|the|a|an)\s+", re.IGNORECASE)
_ZH_AND_WORD = re.compile(r"\s+and\s+([A-Za-z]+)\b")
_ZH_AND = re.compile(r",?\s+(?:and|&)\s+|\s*,\s+")
ZH_LIST_ITEMS = 2  # a longer list of objects names its first two, then 等 ("and others")
ZH_MAX_WORDS = 7  # a longer head of two listed parts keeps the first
ZH_QUOTE_WORDS = 3  # a head with this many plain English words is quoted as the author's


def _names_something(head: str) -> bool:
    words = head.split()
    return len(words) >= 2 or any(not _PROSE_WORD.fullmatch(w) for w in words)


def zh_object(text: str) -> str:
    """A title's object for a Chinese sentence: its head noun phrase ("the Tree Attention
    backend for X" -> "Tree Attention backend"), lists joined with 与/、, identifiers bare,
    and quoted only when plain English words remain (the author's words, not a
    translation)."""
    text = _ZH_LEADING.sub("", text.strip())
    # "wheel build and Replace hardcoded …": a second change starts at "and <verb>".
    second = next((m for m in _ZH_AND_WORD.finditer(text) if starts_a_change(m.group(1))), None)
    text = text[: second.start()] if second else text
    # The first cut whose head still names something: "mechanism | to configure …" does not.
    head = next(
        (
            text[: c.start()].strip()
            for c in _ZH_CUT.finditer(text)
            if _names_something(text[: c.start()])
        ),
        text,
    )
    parts = [p for p in _ZH_AND.split(head) if p]
    if len(head.split()) > ZH_MAX_WORDS and len(parts) == ZH_LIST_ITEMS:
        head, parts = (
            parts[0],
            parts[:1],
        )  # "X bypassing padding, 20% kernel performance improvement": X
    if len(parts) > ZH_LIST_ITEMS:
        head = "、".join(parts[:ZH_LIST_ITEMS]) + " 等"
    elif len(parts) > 1:
        head = "、".join(parts[:-1]) + " 与 " + parts[-1]
    head = head.rstrip(" ,;:.") or text
    if len(_PROSE_WORD.findall(head)) >= ZH_QUOTE_WORDS:
        return i18n.t("zh", "change.quoted", what=head)
    return head


# "… and improve throughput" after the sentence's "fixes": the second verb agrees with it.
_EN_AND_VERB = re.compile(r"(?<=\s)and\s+([a-z]+)(?=\s+(?!(?:for|of|to|in|on|with)\b)\w)")


def _base_verb(word: str) -> bool:
    return not word.endswith(("s", "ed", "ing")) and starts_a_change(word)


def en_object(text: str) -> str:
    """The object as the title writes it, a second verb in the base form ("X and improve
    Y") made to agree with the sentence's third-person verb ("fixes X and improves Y")."""
    return _EN_AND_VERB.sub(
        lambda m: "and " + (third_person(m[1]) if _base_verb(m[1]) else m[1]), text
    )


def _object(change: Change, language: str) -> str:
    """The object as the title writes it (English, see en_object); in a Chinese digest its
    head, see zh_object."""
    return en_object(change.object) if language == "en" else zh_object(change.object)


def _act(change: Change, what: str, language: str) -> str:
    """The change's action on `what` in the digest's language; a verb the catalogue does not
    word is conjugated in English and kept as the title writes it in Chinese."""
    verb = change.verb and (
        third_person(change.verb) if language == "en" else change.verb.capitalize()
    )
    return _tight(i18n.t(language, f"change.{change.action}", what=what, verb=verb), language)


def change_phrase(change: Change | None, number: int, language: str) -> str:
    """ "adds the Cohere EAGLE draft model (#42078)" / "新增 Cohere EAGLE draft model（#42078）";
    "" for a title without a known verb."""
    if change is None:
        return ""
    what = i18n.t(language, "change.ref", what=_object(change, language), pr=f"#{number}")
    return _act(change, what, language)


def title_summary(title: str, kind: str, language: str) -> str:
    """What a title says the PR does, in the digest's language ("adds Gemma4 MTP support" /
    "新增“Gemma4 MTP support”"): the key-PR table's summary for a PR without a description,
    instead of repeating its title."""
    change = title_change(title, kind)
    if change is None:
        return title
    text = _act(change, _object(change, language), language)
    return text[:1].upper() + text[1:] if language == "en" else text


def _tight(text: str, language: str) -> str:
    # Chinese needs no space between a verb and a quotation mark ("修复“…”").
    return text.replace(" “", "“") if language == "zh" else text


def change_sentence(
    changes: Sequence[tuple[int, Change | None]], language: str, span: str
) -> str | None:
    """What a group did: its lead PRs' changes, those with the same action together
    ("adds A (#1) and B (#2); fixes C (#3)"); None when no title says anything."""
    grouped: dict[tuple[str, str], list[str]] = {}
    actions: dict[tuple[str, str], Change] = {}
    said: dict[tuple[str, str], set[str]] = {}
    for number, change in changes:
        if change is None or says_little(change):
            continue
        if sum(len(v) for v in grouped.values()) == LEAD_PRS:
            break
        what = _object(change, language)
        key = (change.action, change.verb)
        if what in said.get(key, ()):
            continue  # "adds attention ut (#1), attention ut (#2)": one says it
        said.setdefault(key, set()).add(what)
        ref = i18n.t(language, "change.ref", what=what, pr=f"#{number}")
        actions.setdefault(key, change)
        grouped.setdefault(key, []).append(ref)
    if not grouped:
        return None
    parts = [
        _act(actions[key], i18n.join(refs, language), language) for key, refs in grouped.items()
    ]
    joined = ("; " if language == "en" else "，").join(parts)
    return i18n.t(language, "highlight.changes", span=span, changes=joined)


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def quote_purpose(number: int, text: str, language: str) -> str:
    """A description's purpose sentence, quoted and marked as the author's words (and, in
    a Chinese digest, as English when it is)."""
    text = text.rstrip("。.") if language == "zh" else text
    english = language == "zh" and not _has_cjk(text)
    key = "highlight.purpose_en" if english else "highlight.purpose"
    return i18n.t(language, key, pr=f"#{number}", text=text)


# ------------------------------------------------------------------ recommendations


def _recommendations(
    by_rank: Sequence[_Item],
    modules: Mapping[str, ModuleCount],
    language: str,
    span: str,
    relanded: Collection[int] = (),
) -> list[Recommendation]:
    """Data-driven follow-ups, most urgent rule first; each names its PRs. A revert whose
    change re-landed in the window needs no follow-up."""

    def having(*flags: str) -> list[int]:
        return [i.number for i in by_rank if all(f in i.risk_flags for f in flags)]

    rules: list[tuple[str, list[int], dict[str, str]]] = [
        ("tests-for-core-path", having("core-path", "missing-tests"), {}),
        ("release-notes-breaking", having("breaking"), {}),
        ("revert-follow-up", [n for n in having("revert") if n not in relanded], {}),
        ("watch-dependencies", having("dependency"), {}),
        ("split-large", having("large"), {}),
        ("verify-claims", [i.number for i in by_rank if i.has_claims], {}),
    ]
    surges = [
        m
        for m in (modules.get(p) for p in PLATFORM_MODULES)
        if m is not None
        and m.count >= SURGE_MIN_COUNT
        and m.delta is not None
        and m.delta >= SURGE_MIN_PERCENT
    ]
    for module in sorted(surges, key=lambda m: (-(m.delta or 0), m.id)):
        numbers = [i.number for i in by_rank if module.id in i.modules]
        extra = {"module": module.name, "percent": i18n.percent(module.delta or 0, language)}
        rules.append(("cross-platform", numbers, extra))

    out = []
    for rule_id, numbers, extra in rules:
        if not numbers:
            continue
        text = i18n.t(
            language,
            f"rec.{rule_id}",
            span=span,
            count=len(numbers),
            prs=_refs(numbers, language),
            **extra,
        )
        out.append(Recommendation(text=text, prs=numbers, id=rule_id))
    return out


# ------------------------------------------------------------------ summary


def summary_text(digest: Digest) -> str:
    """The rule-based summary paragraph (the narrative model may replace it): the week's
    news first, then the totals as separate facts and the risks; data caveats last."""
    lang, span = digest.language, digest.span
    sep = " " if lang == "en" else ""
    if digest.totals.merged == 0:
        text = i18n.t(lang, "summary.empty", repo=digest.repo)
    else:
        text = sep.join(_summary_sentences(digest))
    status = status_message(digest)
    if status is not None:
        text = text + sep + i18n.t(lang, status, span=span)
    return text


def _summary_sentences(digest: Digest) -> list[str]:
    lang, span = digest.language, digest.span
    totals = digest.totals
    sentences: list[str] = []
    items = [
        i18n.t(lang, "summary.theme_item", name=h.theme, count=len(h.prs))
        for h in digest.highlights
        if h.theme_id in digest.themes
    ]
    if not items:
        # PRs without any module still have kinds: never leave the themes out.
        kinds = sorted(digest.kinds, key=lambda k: (-k.count, _KIND_ORDER.get(k.id, 99)))
        items = [
            i18n.t(lang, "summary.theme_item", name=i18n.kind_name(k.id, lang), count=k.count)
            for k in kinds[:3]
            if k.count
        ]
    if items:
        sentences.append(i18n.t(lang, "summary.news", span=span, themes=i18n.join(items, lang)))
    # Part of the news: what last week's digest led with and this week's does not.
    fading = fading_text(digest)
    if fading:
        sentences.append(fading)
    # One fact per clause: "其中 24 个被标记为重点 PR，来自 131 位贡献者" read as if the 131
    # people wrote the 24 key PRs. No "0" inside a sentence either ("adding 0 lines" for a
    # week whose sizes are unknown).
    sizes = {}
    msg_id = "summary.counts"
    if totals.additions is None or totals.deletions is None:
        msg_id += "_nolines"
    else:
        sizes = {"additions": totals.additions, "deletions": totals.deletions}
    sentences.append(
        i18n.t(
            lang,
            msg_id,
            span=span,
            repo=digest.repo,
            merged=totals.merged,
            contributors=totals.contributors,
            **sizes,
        )
    )
    sentences.append(
        i18n.t(lang, "summary.key", key=totals.key) if totals.key else i18n.t(lang, "summary.nokey")
    )
    risks = []
    if digest.core_untested:
        risks.append(i18n.t(lang, "risk.core_untested", count=len(digest.core_untested)))
    counts = {f.id: f.count for f in digest.flags if f.count}
    for flag in risk_order(counts):
        key = f"risk.{flag}"
        risks.append(
            i18n.t(lang, key, count=counts[flag])
            if key in i18n.MESSAGES
            else f"{flag} {counts[flag]}"
        )
        if flag == "revert" and digest.relanded:
            risks[-1] += i18n.t(lang, "risk.revert_relanded_count", count=len(digest.relanded))
    if risks:
        sentences.append(i18n.t(lang, "summary.flags", items=i18n.join(risks, lang)))
    elif not totals.files_unknown:
        # With PRs lacking a file list, the title-only sentence below already says their
        # file-based risks are unknown; "no risk flag" would claim more than is known.
        sentences.append(i18n.t(lang, "summary.no_flags", span=span))
    if digest.new_contributors:
        sentences.append(
            i18n.t(lang, "summary.new_contributors", names=_names(digest.new_contributors, lang))
        )
    # Caveats about the data come last: they qualify the facts above.
    if totals.files_unknown:
        from_titles = sum(1 for k in digest.key_prs if k.scored_from_titles)
        sentences.append(
            i18n.t(
                lang,
                "summary.title_only_keys" if from_titles else "summary.title_only",
                count=totals.files_unknown,
                keys=from_titles,
            )
        )
    if totals.new_contributors is None:
        sentences.append(i18n.t(lang, "summary.new_contributors_unknown"))
    return sentences
