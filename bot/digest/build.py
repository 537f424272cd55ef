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
from bot.models import FLAG_IDS, KIND_IDS, AnalyzedPR
from bot.weeks import Window

DEFAULT_KEY_COUNT = 24
DEFAULT_SCORE_FLOOR = 5.0
MAX_HIGHLIGHT_GROUPS = 8
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
_FLAG_ORDER = {flag: i for i, flag in enumerate(FLAG_IDS)}


def is_bot(login: str | None) -> bool:
    """Automation accounts are not contributors (dependabot, pre-commit.ci, mergify...)."""
    if not login:
        return True
    lowered = login.lower()
    return lowered.startswith("app/") or lowered.endswith("[bot]")


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

    @property
    def rank(self) -> tuple[float, int]:
        # Importance order: higher score first, then the older (smaller) number.
        return (-self.score, self.number)


def _theme_of(modules: Sequence[str], auxiliary: Collection[str]) -> str | None:
    for module in modules:
        if module not in auxiliary:
            return module
    return modules[0] if modules else None


def _item(apr: AnalyzedPR, auxiliary: Collection[str] = AUXILIARY_MODULES) -> _Item:
    analysis = apr.analysis
    modules = tuple(dict.fromkeys(m.id for m in analysis.modules))
    return _Item(
        number=apr.pr.number,
        author=apr.pr.author,
        score=float(analysis.score),
        modules=modules,
        kind=analysis.kind,
        flags=tuple(dict.fromkeys(f.id for f in analysis.flags)),
        has_claims=bool(analysis.claims),
        theme=_theme_of(modules, auxiliary),
        source=apr,
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
    previous_complete: bool = True,
    generated_at: datetime | None = None,
    auxiliary_modules: Collection[str] = AUXILIARY_MODULES,
) -> Digest:
    """The digest of `prs` (merged in `window`) against `previous` (the week before)."""
    auxiliary = frozenset(auxiliary_modules)
    # Duplicates (a PR synced twice) must not count twice.
    items = sorted(
        {apr.pr.number: _item(apr, auxiliary) for apr in prs}.values(), key=lambda i: i.number
    )
    by_rank = sorted(items, key=lambda i: i.rank)
    previous_items = {apr.pr.number: _item(apr, auxiliary) for apr in previous}.values()

    module_counts, kind_counts = _counts(items)
    prev_modules, prev_kinds = _counts(previous_items)

    modules = [
        ModuleCount(
            id=mid,
            name=_module_name(mid, module_names, language),
            count=module_counts[mid],
            previous=prev_modules[mid],
            delta=_delta(module_counts[mid], prev_modules[mid]),
        )
        for mid in sorted(
            set(module_counts) | set(prev_modules),
            key=lambda m: (-module_counts[m], -prev_modules[m], m),
        )
    ]
    kinds = [
        KindCount(id=kind, count=kind_counts[kind], previous=prev_kinds[kind])
        for kind in sorted(
            set(kind_counts) | set(prev_kinds),
            key=lambda k: (-kind_counts[k], -prev_kinds[k], _KIND_ORDER.get(k, 99), k),
        )
    ]

    flagged: dict[str, list[int]] = defaultdict(list)
    for item in by_rank:
        for flag in item.flags:
            flagged[flag].append(item.number)
    flag_ids = list(FLAG_IDS) + sorted(set(flagged) - set(FLAG_IDS))
    flags = [FlagCount(id=f, count=len(flagged[f]), prs=list(flagged[f])) for f in flag_ids]

    key_items = [i for i in by_rank if i.score >= score_floor][: max(key_count, 0)]
    key_prs = [_key_pr(i) for i in key_items]

    authors = {i.author for i in items if not is_bot(i.author)}
    contributors = sorted(authors, key=lambda a: (a.lower(), a))  # type: ignore[union-attr]
    # None: unknown (GitHub unreachable); reported as null, never as "no newcomers".
    newcomers = sorted(set(new_contributors or ()) & authors, key=lambda a: (a.lower(), a))
    totals = Totals(
        merged=len(items),
        key=len(key_prs),
        contributors=len(contributors),
        new_contributors=None if new_contributors is None else len(newcomers),
        additions=sum(i.source.pr.additions for i in items),
        deletions=sum(i.source.pr.deletions for i in items),
    )

    weights = _theme_weights(items, auxiliary)
    by_id = {m.id: m for m in modules}
    themes = _dominant_themes(weights)
    highlights = _highlights(key_items, weights, items, by_id, language, auxiliary)
    recommendations = _recommendations(by_rank, by_id, language)
    quiet = [m.id for m in modules if m.count == 0 and m.previous > 0]

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
        previous_complete=previous_complete,
        generated_at=generated_at,
        key_count=key_count,
        score_floor=score_floor,
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
        additions=pr.additions,
        deletions=pr.deletions,
    )


def _key_pr(item: _Item) -> KeyPR:
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
    key_items: Sequence[_Item], weights: Mapping[str, float], auxiliary: Collection[str]
) -> list[tuple[str, list[_Item]]]:
    """Greedy grouping of key PRs into at most MAX_HIGHLIGHT_GROUPS themes.

    Each round picks the module with the most not-yet-placed key-PR weight (1 + score for
    a PR whose theme module it is, half that for a PR that also touches it; ties: the
    module's weekly weight, then id) and places all those PRs there, so a PR touching the
    model runner and the scheduler joins whichever theme is stronger. PRs left after 7
    rounds, or with only auxiliary modules, go to a final "other" group.
    """
    remaining = list(key_items)
    groups: list[tuple[str, list[_Item]]] = []
    while remaining and len(groups) < MAX_HIGHLIGHT_GROUPS - 1:
        gain: dict[str, float] = defaultdict(float)
        for item in remaining:
            for module in item.modules:
                if module not in auxiliary:
                    share = 1.0 if module == item.theme else 0.5
                    gain[module] += share * (1.0 + item.score)
        if not gain:
            break
        best = min(gain, key=lambda m: (-round(gain[m], 6), -round(weights.get(m, 0), 6), m))
        members = [i for i in remaining if best in i.modules]
        groups.append((best, members))
        remaining = [i for i in remaining if best not in i.modules]
    if remaining:
        theme = remaining[0].theme
        if len(remaining) == 1 and theme is not None and theme not in auxiliary:
            groups.append((theme, remaining))
        else:
            groups.append((OTHER_THEME, remaining))
    return groups


def _highlights(
    key_items: Sequence[_Item],
    weights: Mapping[str, float],
    items: Sequence[_Item],
    modules: Mapping[str, ModuleCount],
    language: str,
    auxiliary: Collection[str],
) -> list[Highlight]:
    kinds_in: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        for module in item.modules:
            kinds_in[module][item.kind] += 1
    sep = " " if language == "en" else ""

    out = []
    for theme, members in _group_key_prs(key_items, weights, auxiliary):
        module = modules.get(theme)
        sentences = []
        if module is None:
            name = i18n.t(language, "highlight.other")
            sentences.append(i18n.t(language, "highlight.activity_other", count=len(members)))
        else:
            name = module.name
            if module.previous:
                activity = i18n.t(
                    language,
                    "highlight.activity",
                    count=module.count,
                    trend=i18n.trend(module.count, module.previous, language, words=True),
                    key=len(members),
                )
            else:
                activity = i18n.t(
                    language, "highlight.activity_new", count=module.count, key=len(members)
                )
            sentences.append(activity)
            kinds = sorted(
                kinds_in[theme].items(), key=lambda kv: (-kv[1], _KIND_ORDER.get(kv[0], 99))
            )
            if kinds:
                listed = (
                    i18n.t(
                        language,
                        "highlight.kind_item",
                        kind=_kind_word(k, language),
                        count=c,
                    )
                    for k, c in kinds[:2]
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
            i18n.t(language, "highlight.claim_item", pr=f"#{i.number}", claim=c.text)
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
    # Mid-sentence in English the kind reads in lower case ("mostly bug fixes").
    name = i18n.kind_name(kind, language)
    return name.lower() if language == "en" and not name.isupper() else name


# ------------------------------------------------------------------ recommendations


def _recommendations(
    by_rank: Sequence[_Item], modules: Mapping[str, ModuleCount], language: str
) -> list[Recommendation]:
    """Data-driven follow-ups, most urgent rule first; each names its PRs."""

    def having(*flags: str) -> list[int]:
        return [i.number for i in by_rank if all(f in i.flags for f in flags)]

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
            count=len(numbers),
            prs=_refs(numbers, language),
            **extra,
        )
        out.append(Recommendation(text=text, prs=numbers, id=rule_id))
    return out


# ------------------------------------------------------------------ summary


def summary_text(digest: Digest) -> str:
    """The rule-based summary paragraph (the narrative model may replace it)."""
    lang = digest.language
    if digest.totals.merged == 0:
        return i18n.t(lang, "summary.empty", repo=digest.repo)
    totals = digest.totals
    sentences = [
        i18n.t(
            lang,
            "summary.totals",
            repo=digest.repo,
            merged=totals.merged,
            contributors=totals.contributors,
            key=totals.key,
            additions=totals.additions,
            deletions=totals.deletions,
        )
    ]
    if digest.new_contributors:
        sentences.append(
            i18n.t(lang, "summary.new_contributors", names=_names(digest.new_contributors, lang))
        )
    names = {m.id: m for m in digest.modules}
    if digest.themes:
        items = [
            i18n.t(
                lang,
                "summary.theme_item",
                name=names[t].name,
                count=names[t].count,
            )
            for t in digest.themes
            if t in names
        ]
        sentences.append(i18n.t(lang, "summary.themes", themes=i18n.join(items, lang)))
    raised = sorted(
        (f for f in digest.flags if f.count),
        key=lambda f: (-f.count, _FLAG_ORDER.get(f.id, 99), f.id),
    )
    if raised:
        sentences.append(
            i18n.t(
                lang,
                "summary.flags",
                items=i18n.join(
                    (
                        i18n.t(lang, f"risk.{f.id}", count=f.count)
                        if f"risk.{f.id}" in i18n.MESSAGES
                        else f"{f.id} {f.count}"
                        for f in raised
                    ),
                    lang,
                ),
            )
        )
    else:
        sentences.append(i18n.t(lang, "summary.no_flags"))
    text = (" " if lang == "en" else "").join(sentences)
    if not digest.complete:
        text = i18n.t(lang, "incomplete") + (" " if lang == "en" else "") + text
    return text
