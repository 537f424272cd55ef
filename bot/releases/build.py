"""Build the release digest from a release's PRs (pure: no I/O).

Highlights are the weekly digest's themes (`bot.analysis.themes.detect_themes`) over the
release's PRs against the weeks before its base; sections follow `bot.releases.sections`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from bot.analysis.claims import best_claim
from bot.analysis.themes import HistoryWeek, ThemeRules, detect_themes
from bot.core.models import AnalyzedPR, is_automation
from bot.digest.build import AUXILIARY_MODULES, DEFAULT_KEY_COUNT, key_pr, pr_row, theme_doc
from bot.releases.commits import clean_title
from bot.releases.model import (
    SECTION_IDS,
    DependencyChange,
    Detail,
    Highlight,
    Item,
    ReleaseData,
    ReleaseDigest,
    ReleasePR,
    Section,
)
from bot.releases.sections import Placement, place
from bot.releases.versions import parse_tag

LEAD_PRS = 3
# Themes shown as highlights: maintainers write two to four.
MAX_HIGHLIGHTS = 5
# A theme of a release needs more than a week's: a subject two PRs share in 300 is noise.
MIN_HIGHLIGHT_PRS = 3
HOUSEKEEPING = ("test", "ci", "docs", "revert", "misc")


def _item(rp: ReleasePR, detail: Detail | None = None) -> Item:
    pr = rp.apr.pr
    return Item(
        number=rp.number,
        title=clean_title(pr.title),
        url=rp.url,
        author=pr.author,
        picked_as=rp.picked_as,
        picked_url=rp.picked_url,
        detail=detail,
    )


def _picks(prs: Sequence[ReleasePR]) -> dict[int, list[int]]:
    picks: dict[int, list[int]] = defaultdict(list)
    for rp in prs:
        if rp.picked_as is not None:
            picks[rp.number].append(rp.picked_as)
    return dict(picks)


def _rank(rp: ReleasePR) -> tuple[float, int]:
    return (-rp.apr.analysis.score, rp.number)


def _dependencies(
    placed: Sequence[tuple[ReleasePR, Placement]],
) -> list[DependencyChange]:
    """Version changes stated by the PRs, merged per package: the first "from" and the
    last "to" in compare order (oldest first)."""
    by_name: dict[str, DependencyChange] = {}
    for rp, placement in placed:
        for name, before, after in placement.versions:
            key = name.lower().replace("_", "-")
            change = by_name.get(key)
            if change is None:
                by_name[key] = DependencyChange(name, before, after, [rp.number])
            else:
                change.after = after
                change.numbers.append(rp.number)
    return list(by_name.values())


def _highlights(
    prs: Sequence[ReleasePR],
    history: Sequence[tuple[str, int, Sequence[AnalyzedPR]]],
    rules: ThemeRules | None,
    not_themes: frozenset[str],
    module_names: Mapping[str, tuple[str, str]],
) -> list[Highlight]:
    by_number = {rp.apr.pr.number: rp for rp in prs}
    ranked = sorted(prs, key=_rank)
    key_numbers = {rp.apr.pr.number for rp in ranked[: max(LEAD_PRS, len(ranked) // 10)]}
    result = detect_themes(
        [theme_doc(rp.apr, not_themes, rp.apr.pr.number in key_numbers) for rp in prs],
        [
            HistoryWeek(label, offset, [theme_doc(a, not_themes) for a in week])
            for label, offset, week in history
        ],
        rules,
    )
    highlights = []
    for theme in result.themes:
        members = [by_number[n] for n in theme.numbers if n in by_number]
        # The release's own branch or tag ("v0.20.2rc" in pick titles) is no subject.
        if len(members) < MIN_HIGHLIGHT_PRS or parse_tag(theme.name) is not None:
            continue
        names = None
        if theme.named_by_module and theme.module and theme.module in module_names:
            names = module_names[theme.module]
        kinds = Counter(rp.apr.analysis.kind for rp in members)
        # A run of test or CI PRs ("selected tests") is no highlight of a release.
        if sum(kinds[k] for k in HOUSEKEEPING) * 2 > len(members):
            continue
        lead = sorted(members, key=_rank)[:LEAD_PRS]
        claim = None
        stated = [(c, rp) for rp in members for c in rp.apr.analysis.claims if c.metric]
        best = best_claim([c for c, _ in stated])
        if best is not None:
            source = next(rp for c, rp in stated if c is best)
            claim = (best, source.number, source.url)
        highlights.append(
            Highlight(
                name=theme.name,
                prs=len(members),
                kinds=kinds.most_common(),
                lead=[_item(rp) for rp in lead],
                numbers=[rp.number for rp in sorted(members, key=_rank)],
                trend=theme.trend,
                claim=claim,
                names=names,
            )
        )
        if len(highlights) == MAX_HIGHLIGHTS:
            break
    return highlights


def build_release_digest(
    data: ReleaseData,
    *,
    history: Sequence[tuple[str, int, Sequence[AnalyzedPR]]] = (),
    theme_rules: ThemeRules | None = None,
    module_names: Mapping[str, tuple[str, str]] | None = None,
    auxiliary: frozenset[str] = AUXILIARY_MODULES,
    key_count: int = DEFAULT_KEY_COUNT,
) -> ReleaseDigest:
    """The release notes of `data`. `history`: (label, offset, PRs) of the weeks before the
    base tag, the highlights' baseline (none: themes scored by the release alone). The
    digest holds no language: bot.releases.document writes it in one."""
    names = dict(module_names or {})
    placed = [(rp, place(rp.apr)) for rp in data.prs]
    buckets: dict[str, list[Item]] = defaultdict(list)
    other: dict[str, list[int]] = defaultdict(list)
    unstated: list[Item] = []
    for rp, placement in sorted(placed, key=lambda pair: _rank(pair[0])):
        # One section per PR (CONTRACT): what users must act on first, then what they
        # install, then what the change is.
        if placement.breaking:
            buckets["breaking"].append(_item(rp, placement.breaking))
        elif placement.deprecation:
            buckets["deprecations"].append(_item(rp, placement.deprecation))
        elif placement.versions:
            detail = ", ".join(
                f"{n} {b} → {a}" if b else f"{n} → {a}" for n, b, a in placement.versions
            )
            buckets["dependencies"].append(_item(rp, detail))
        elif placement.main == "other":
            other[rp.apr.analysis.kind].append(rp.number)
        else:
            buckets[placement.main].append(_item(rp, placement.detail))
        if placement.dependency_files and not placement.versions:
            unstated.append(_item(rp))
    if unstated and "dependencies" not in buckets:
        buckets["dependencies"] = []
    sections = [Section(sid, buckets[sid]) for sid in SECTION_IDS if sid in buckets]
    others = sorted(((k, sorted(v)) for k, v in other.items()), key=lambda kv: -len(kv[1]))
    authors = {rp.apr.pr.author for rp in data.prs if rp.apr.pr.author}
    people = {a for a in authors if not is_automation(a)}
    new = None
    if data.new_contributors is not None:
        new = len(data.new_contributors & people)
    return ReleaseDigest(
        repo=data.repo,
        tag=data.tag,
        base=data.base,
        base_date=data.base_date,
        head_date=data.head_date,
        prs=len(data.prs),
        contributors=len(people),
        new_contributors=new,
        between=data.between,
        highlights=_highlights(data.prs, history, theme_rules, auxiliary, names),
        history_weeks=sum(1 for _, _, week in history if week),
        sections=sections,
        dependencies=_dependencies(placed),
        commits=data.commits,
        unmapped=data.unmapped,
        requests=data.requests,
        url=data.url,
        other=others,
        unstated_dependencies=unstated,
        rows=[pr_row(rp.apr, number=rp.number, url=rp.url) for rp in sorted(data.prs, key=_rank)],
        key_prs=[
            key_pr(rp.apr, number=rp.number, url=rp.url)
            for rp in sorted(data.prs, key=_rank)[:key_count]
        ],
        module_names=names,
        cherry_picks=_picks(data.prs),
    )
