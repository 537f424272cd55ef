"""Build the weekly Digest from analysed PRs: a pure function, every figure from the data.

The rules (key PRs, themes, highlights, recommendations) are documented for users in
docs/digest.md; keep the two in step. All orderings have a total tie-break (PR number or
module id) so the same input always gives the same digest, byte for byte.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot import i18n
from bot.analysis.claims import claim_text
from bot.analysis.score import KeyCandidate, choose_key_prs
from bot.digest.model import (
    Digest,
    FlagCount,
    Highlight,
    KeyPR,
    KindCount,
    ModuleCount,
    PRRow,
    Recommendation,
    Totals,
)
from bot.digest.summary import summarize
from bot.models import FLAG_IDS, KIND_IDS, AnalyzedPR, is_automation
from bot.weeks import WEEK_PATTERN, Window

DEFAULT_KEY_COUNT = 24
DEFAULT_SCORE_FLOOR = 5.0
MAX_HIGHLIGHT_GROUPS = 8
# Key PRs listed under one highlight theme; the rest are named in one "and N more" line,
# so one busy theme cannot crowd the others out of the section.
HIGHLIGHT_PRS = 6
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
) -> Digest:
    """The digest of `prs` (merged in `window`) against `previous` (the week before).

    `complete` False marks the digest incomplete; `in_progress` says why (the window has
    not ended) and `synced` whether the store nevertheless holds everything so far (by
    default: complete or in progress). When `previous_complete` is False nothing is
    compared with the previous window: its counts are null, not a partial baseline.
    `fallback_modules` (the rule set's catch-all) are never a theme.
    """
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

    modules = [
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
    key_prs = [_key_pr(i, i.number in from_titles) for i in key_items]

    authors = {i.author for i in items if not is_bot(i.author)}
    contributors = sorted(authors, key=lambda a: (a.lower(), a))  # type: ignore[union-attr]
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
    weights = _theme_weights(items, auxiliary)
    if not weights:
        # Every PR is only in auxiliary modules (e.g. a plugin repo whose rules match
        # nothing but tests and CI): those are still what the week was about, short of the
        # catch-all module, which is only used when there is nothing else.
        weights = _theme_weights(items, fallback) or _theme_weights(items, ())
    by_id = {m.id: m for m in modules}
    themes = _dominant_themes(weights)
    highlights = _highlights(
        key_items, weights, items, by_id, language, span, auxiliary, fallback, compared
    )
    recommendations = _recommendations(by_rank, by_id, language, span)
    quiet = [m.id for m in modules if m.count == 0 and (m.previous or 0) > 0]
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
        modules=modules,
        kinds=kinds,
        flags=flags,
        key_prs=key_prs,
        highlights=highlights,
        recommendations=recommendations,
        prs=[_row(i) for i in items],
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
    )
    digest.summary_text = summary_text(digest)
    return digest


def _row(item: _Item) -> PRRow:
    pr = item.source.pr
    return PRRow(
        number=item.number,
        modules=list(item.modules),
        kind=item.kind,
        flags=list(item.flags),
        score=item.score,
        title=pr.title,
        author=pr.author,
        url=pr.url,
        additions=pr.additions if item.size_known else None,
        deletions=pr.deletions if item.size_known else None,
    )


def _key_pr(item: _Item, from_titles: bool = False) -> KeyPR:
    pr, analysis = item.source.pr, item.source.analysis
    return KeyPR(
        number=pr.number,
        title=pr.title,
        author=pr.author,
        score=item.score,
        modules=list(item.modules),
        summary=summarize(pr.body or "", pr.title),
        claims=[c.text for c in analysis.claims],
        url=pr.url,
        kind=item.kind,
        flags=list(item.flags),
        score_reasons=analysis.score_reasons(3),
        scored_from_titles=from_titles,
    )


# ------------------------------------------------------------------ themes


def _theme_weights(items: Sequence[_Item], auxiliary: Collection[str]) -> dict[str, float]:
    """Module weight = Σ (1 + score) over this week's PRs in the module (activity ×
    importance: each PR counts once for activity plus its score). Auxiliary modules
    (tests, CI, docs, dependencies, benchmarks) are not themes."""
    weight: dict[str, float] = defaultdict(float)
    for item in items:
        for module in item.modules:
            if module not in auxiliary:
                weight[module] += 1.0 + item.score
    return weight


def _dominant_themes(weights: Mapping[str, float]) -> list[str]:
    """The top 3 modules by weight, plus a 4th and 5th when they weigh at least half the
    3rd (so a flat week shows 5 themes and a week dominated by few shows 3)."""
    ranking = sorted(weights.items(), key=lambda kv: (-round(kv[1], 6), kv[0]))
    top = ranking[:3]
    if len(top) == 3:
        floor = top[2][1] / 2
        top += [kv for kv in ranking[3:5] if kv[1] >= floor]
    return [module for module, _ in top]


def _group_key_prs(
    key_items: Sequence[_Item],
    weights: Mapping[str, float],
    auxiliary: Collection[str],
    fallback: Collection[str],
) -> list[tuple[str, list[_Item]]]:
    """Key PRs in at most MAX_HIGHLIGHT_GROUPS theme groups that together cover the week.

    1. A PR's primary theme is its first non-auxiliary module, else its first module that
       is not the catch-all. When the primary themes fit in the groups, they are the
       themes. Otherwise themes are chosen greedily for coverage: each round takes the
       module with the most key-PR weight not yet covered by a chosen theme (1 + score for
       a PR whose primary theme it is, half that for a PR that only touches it; ties: the
       module's weekly weight, then id), up to 7 rounds.
    2. Each PR is then placed under its primary theme when that was chosen, else under the
       first chosen module it touches, else under "other". Placing by primary theme keeps a
       module that many PRs touch in passing from absorbing the week.
    3. While there is room for another group, the largest group holding more than
       HIGHLIGHT_PRS PRs gives the PRs that share another module (the most common one not
       already a group; at least 2 PRs, not all of them) to a group of that module.
    """

    def primary(item: _Item) -> str:
        for module in item.modules:
            if module not in auxiliary:
                return module
        for module in item.modules:
            if module not in fallback:
                return module
        return OTHER_THEME

    themable = {i.number: [m for m in i.modules if m not in auxiliary] for i in key_items}
    if not any(themable.values()):
        # Only auxiliary modules this week: let those be themes rather than one "Other".
        themable = {i.number: [m for m in i.modules if m not in fallback] for i in key_items}
    primaries = {i.number: primary(i) for i in key_items}

    chosen = [t for t in dict.fromkeys(primaries.values()) if t != OTHER_THEME]
    # "Other" needs a group of its own too: 8 primary themes and an "other" PR are 9 groups.
    needed = len(chosen) + (OTHER_THEME in primaries.values())
    remaining = list(key_items) if needed > MAX_HIGHLIGHT_GROUPS else []
    if remaining:
        chosen = []
    while remaining and len(chosen) < MAX_HIGHLIGHT_GROUPS - 1:
        gain: dict[str, float] = defaultdict(float)
        for item in remaining:
            for module in themable[item.number]:
                share = 1.0 if module == primaries[item.number] else 0.5
                gain[module] += share * (1.0 + item.score)
        if not gain:
            break
        best = min(gain, key=lambda m: (-round(gain[m], 6), -round(weights.get(m, 0), 6), m))
        chosen.append(best)
        remaining = [i for i in remaining if best not in i.modules]

    groups: dict[str, list[_Item]] = {theme: [] for theme in chosen}
    for item in key_items:
        home = primaries[item.number]
        if home not in groups:
            home = next((m for m in item.modules if m in groups), OTHER_THEME)
        groups.setdefault(home, []).append(item)
    groups = {theme: members for theme, members in groups.items() if members}

    while len(groups) < MAX_HIGHLIGHT_GROUPS:
        big = [t for t in groups if t != OTHER_THEME and len(groups[t]) > HIGHLIGHT_PRS]
        if not big:
            break
        theme = min(big, key=lambda t: (-len(groups[t]), t))
        members = groups[theme]
        shared = Counter(
            m for item in members for m in themable[item.number] if m != theme and m not in groups
        )
        split = next(
            (
                m
                for m, n in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0]))
                if 2 <= n < len(members)
            ),
            None,
        )
        if split is None:
            break
        groups[split] = [i for i in members if split in i.modules]
        groups[theme] = [i for i in members if split not in i.modules]

    def heavier(theme: str) -> tuple[float, float, str]:
        mass = sum(1.0 + i.score for i in groups[theme])
        return (-round(mass, 6), -round(weights.get(theme, 0.0), 6), theme)

    # Heaviest group first; "other" last whatever its weight.
    order = sorted((t for t in groups if t != OTHER_THEME), key=heavier)
    if OTHER_THEME in groups:
        order.append(OTHER_THEME)
    return [(theme, sorted(groups[theme], key=lambda i: i.rank)) for theme in order]


def _highlights(
    key_items: Sequence[_Item],
    weights: Mapping[str, float],
    items: Sequence[_Item],
    modules: Mapping[str, ModuleCount],
    language: str,
    span: str,
    auxiliary: Collection[str],
    fallback: Collection[str],
    compared: bool,
) -> list[Highlight]:
    kinds_in: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        for module in item.modules:
            kinds_in[module][item.kind] += 1
    sep = " " if language == "en" else ""

    out = []
    for theme, members in _group_key_prs(key_items, weights, auxiliary, fallback):
        module = None if theme == OTHER_THEME else modules.get(theme)
        sentences = []
        if module is None:
            name = i18n.t(language, "highlight.other")
            sentences.append(i18n.t(language, "highlight.activity_other", count=len(members)))
        else:
            name = module.name
            if not compared:
                # No baseline: state this window's figures, claim no growth.
                activity = i18n.t(
                    language,
                    "highlight.activity_plain",
                    span=span,
                    count=module.count,
                    key=len(members),
                )
            elif module.previous:
                activity = i18n.t(
                    language,
                    "highlight.activity",
                    span=span,
                    count=module.count,
                    trend=i18n.trend(
                        module.count, module.previous, language, words=True, span=span
                    ),
                    key=len(members),
                )
            else:
                activity = i18n.t(
                    language,
                    "highlight.activity_new",
                    span=span,
                    count=module.count,
                    key=len(members),
                )
            sentences.append(activity)
            kinds = sorted(
                kinds_in[theme].items(), key=lambda kv: (-kv[1], _KIND_ORDER.get(kv[0], 99))
            )
            # "Mostly bug fixes (1)" says nothing: only a kind shared by 2+ PRs leads.
            if kinds and kinds[0][1] >= 2:
                listed = (
                    i18n.t(
                        language,
                        "highlight.kind_item",
                        kind=_kind_word(k, language),
                        count=c,
                    )
                    for k, c in kinds[:2]
                    if c >= 2
                )
                sentences.append(
                    i18n.t(language, "highlight.kinds", kinds=i18n.join(listed, language))
                )
        authors = list(dict.fromkeys(i.author for i in members if i.author))
        if authors:
            sentences.append(
                i18n.t(language, "highlight.authors", authors=_names(authors, language, 4))
            )
        claims = [
            i18n.t(
                language, "highlight.claim_item", pr=f"#{i.number}", claim=claim_text(c, language)
            )
            for i in members
            for c in i.source.analysis.claims[:1]
        ]
        if claims:
            sentences.append(
                i18n.t(language, "highlight.claims", claims=i18n.join(claims[:3], language))
            )
        out.append(
            Highlight(
                theme=name,
                theme_id=theme,
                prs=[i.number for i in members],
                text=sep.join(sentences),
            )
        )
    return out


def _kind_word(kind: str, language: str) -> str:
    # Mid-sentence in English the kind reads in lower case ("mostly bug fix"), except a
    # leading acronym ("CI/build", not "ci/build").
    name = i18n.kind_name(kind, language)
    if language != "en" or name[:2].isupper():
        return name
    return name[:1].lower() + name[1:]


# ------------------------------------------------------------------ recommendations


def _recommendations(
    by_rank: Sequence[_Item], modules: Mapping[str, ModuleCount], language: str, span: str
) -> list[Recommendation]:
    """Data-driven follow-ups, most urgent rule first; each names its PRs."""

    def having(*flags: str) -> list[int]:
        return [i.number for i in by_rank if all(f in i.risk_flags for f in flags)]

    rules: list[tuple[str, list[int], dict[str, str]]] = [
        ("tests-for-core-path", having("core-path", "missing-tests"), {}),
        ("release-notes-breaking", having("breaking"), {}),
        ("revert-follow-up", having("revert"), {}),
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
    """The rule-based summary paragraph (the narrative model may replace it)."""
    lang, span = digest.language, digest.span
    sep = " " if lang == "en" else ""
    if digest.totals.merged == 0:
        text = i18n.t(lang, "summary.empty", repo=digest.repo)
    else:
        text = sep.join(_summary_sentences(digest))
    status = status_message(digest)
    if status is not None:
        text = i18n.t(lang, status, span=span) + sep + text
    return text


def _summary_sentences(digest: Digest) -> list[str]:
    lang, span = digest.language, digest.span
    totals = digest.totals
    # Variants rather than a "0" inside the sentence: "其中 0 个重点 PR" and "adding 0 lines"
    # (for a week whose sizes are unknown) both read wrong.
    msg_id = "summary.totals" + ("_nokey" if not totals.key else "")
    sizes = {}
    if totals.additions is None or totals.deletions is None:
        msg_id += "_nolines"
    else:
        sizes = {"additions": totals.additions, "deletions": totals.deletions}
    sentences = [
        i18n.t(
            lang,
            msg_id,
            span=span,
            repo=digest.repo,
            merged=totals.merged,
            contributors=totals.contributors,
            key=totals.key,
            **sizes,
        )
    ]
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
    elif digest.new_contributors:
        sentences.append(
            i18n.t(lang, "summary.new_contributors", names=_names(digest.new_contributors, lang))
        )
    names = {m.id: m for m in digest.modules}
    items = [
        i18n.t(lang, "summary.theme_item", name=names[t].name, count=names[t].count)
        for t in digest.themes
        if t in names
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
        sentences.append(i18n.t(lang, "summary.themes", themes=i18n.join(items, lang)))
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
    if risks:
        sentences.append(i18n.t(lang, "summary.flags", items=i18n.join(risks, lang)))
    elif not totals.files_unknown:
        # With PRs lacking a file list, the title-only sentence above already says their
        # file-based risks are unknown; "no risk flag" would claim more than is known.
        sentences.append(i18n.t(lang, "summary.no_flags", span=span))
    return sentences
