"""Build the release digest from a release's PRs (pure: no I/O).

Highlights are the weekly digest's themes (`bot.analysis.themes.detect_themes`) over the
release's PRs against the weeks before its base; sections follow `bot.releases.sections`.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.analysis.claims import best_claim
from bot.analysis.regex import lazy
from bot.analysis.themes import HistoryWeek, Theme, ThemeDoc, ThemeRules, detect_themes
from bot.core.models import AnalyzedPR, Claim, is_automation
from bot.digest.build import AUXILIARY_MODULES, DEFAULT_KEY_COUNT, key_pr, pr_row, theme_doc
from bot.releases.commits import (
    clean_title,
    is_revert,
    is_tooling_tag,
    reverted_ref,
    reverted_title,
    without_tooling,
)
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
from bot.releases.sections import (
    Placement,
    brings_up_hardware,
    is_lint,
    place,
    template_answer,
)
from bot.releases.versions import parse_tag

LEAD_PRS = 3
# Themes shown as highlights: maintainers write two to four.
MAX_HIGHLIGHTS = 5
# Subjects shown when several bring features; the rest of the highlights are the release's
# most important features on their own.
MAX_THEME_HIGHLIGHTS = 2
MIN_HIGHLIGHT_FEATURES = 2  # features, models or speed-ups a subject needs to lead
# A theme of a release needs more than a week's: a subject two PRs share in 300 is noise.
MIN_HIGHLIGHT_PRS = 3
HOUSEKEEPING = ("test", "ci", "docs", "revert", "misc")
# Title tags that say what kind a change is, never what it is about.
KIND_WORDS = frozenset(
    {
        "bugfix",
        "bugfixes",
        "fix",
        "fixes",
        "hotfix",
        "feature",
        "features",
        "feat",
        "perf",
        "performance",
        "doc",
        "docs",
        "ci",
        "test",
        "tests",
        "misc",
        "refactor",
        "chore",
        "ops",
        "core",
        "build",
        "revert",
        "enhancement",
        "improvement",
    }
)
# Curated items per section, times the square root of the release's PRs (None: all):
# maintainers list what users act on in full and pick among the rest.
SECTION_CAPS: dict[str, float | None] = {
    "features": 1.0,
    "hardware": 0.5,
    "performance": 0.5,
    "fixes": 1.0,
    "docs": 0.25,
}
# Sections listed PR by PR: each breaking change or dependency is its own line.
UNMERGED = frozenset({"breaking", "deprecations", "dependencies"})
SUBJECT_GROUPS = 40  # subjects the grouping looks for (the highlights keep MAX_HIGHLIGHTS)
MERGED_TITLES = 3  # titles a merged item shows; the rest are counted
GROUP_BONUS = 1.0  # score a subject gains per doubling of its PRs
# What makes a change a release's headline beyond its weekly score: a changed default
# users get without asking, and a multi-part initiative or one an RFC tracks.
HEADLINE_BONUS = 1.0
_DEFAULT_CHANGE = lazy(
    r"\bdefault\b[^.\n]{0,60}?\b(?:is|was|has been|gets?|are)\s+(?:now\s+)?"
    r"(?:changed|switched|set)\b|\bnow (?:the )?default\b|\b(?:enabled?|on) by default\b|"
    r"\bdefault(?:s)? (?:to|is now)\b",
    re.IGNORECASE,
)
_INITIATIVE = lazy(r"[\[(]\s*1\s*/\s*(?:N|\d+)\s*[\])]|\bRFC\b|\bpart 1\b", re.IGNORECASE)
_TRANSLATION = lazy(r"\b(?:translat\w*|i18n|l10n|localiz\w*)\b", re.IGNORECASE)
_TEST_OR_CI = lazy(
    r"^(?:tests?/|\.github/|ci/|benchmarks?/)|(?:^|/)test_[^/]*$|(?:^|/)conftest\.py$"
)


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


def _subject_name(name: str) -> bool:
    """A theme that names a subject: not the release's own branch or tag ("v0.20.2rc" in
    pick titles), a tooling tag ("Cherry-pick") or a kind of change ("BugFix")."""
    norm = re.sub(r"[^a-z0-9]", "", name.lower())
    return not (parse_tag(name) is not None or is_tooling_tag(name) or norm in KIND_WORDS)


def _theme_doc(rp: ReleasePR, not_themes: frozenset[str], key: bool = False) -> ThemeDoc:
    """What theme detection reads of a release PR, numbered as the notes name it and
    without release-tooling tags ("[Cherry-pick]", "[v0.18.0]"): how a change reached the
    release is never its subject."""
    doc = theme_doc(rp.apr, not_themes, key)
    tags = tuple(label for label in doc.labels if not is_tooling_tag(label.lower()))
    return replace(doc, number=rp.number, title=without_tooling(doc.title), labels=tags)


def _highlights(
    prs: Sequence[ReleasePR],
    history: Sequence[tuple[str, int, Sequence[AnalyzedPR]]],
    rules: ThemeRules | None,
    not_themes: frozenset[str],
    module_names: Mapping[str, tuple[str, str]],
) -> list[Highlight]:
    by_number = {rp.number: rp for rp in prs}
    ranked = sorted(prs, key=_rank)
    key_numbers = {rp.number for rp in ranked[: max(LEAD_PRS, len(ranked) // 10)]}
    result = detect_themes(
        [_theme_doc(rp, not_themes, rp.number in key_numbers) for rp in prs],
        [
            HistoryWeek(label, offset, [theme_doc(a, not_themes) for a in week])
            for label, offset, week in history
        ],
        rules,
    )
    qualified: list[tuple[Theme, list[ReleasePR]]] = []
    for theme in result.themes:
        members = [by_number[n] for n in theme.numbers if n in by_number]
        if len(members) < MIN_HIGHLIGHT_PRS or not _subject_name(theme.name):
            continue
        kinds = Counter(rp.apr.analysis.kind for rp in members)
        # A run of test or CI PRs ("selected tests") is no highlight of a release.
        if sum(kinds[k] for k in HOUSEKEEPING) * 2 > len(members):
            continue
        qualified.append((theme, members))
    # Maintainers highlight what a release brings: a subject with new features first; a
    # subject of fixes only when no subject brings any (a patch release).
    brings = [(t, m) for t, m in qualified if sum(map(_brings, m)) >= MIN_HIGHLIGHT_FEATURES]
    chosen = (brings or qualified)[: MAX_THEME_HIGHLIGHTS if brings else MAX_HIGHLIGHTS]
    highlights = [_theme_highlight(t, m, module_names) for t, m in chosen]
    # Then the release's headline features outside those subjects, one line each.
    covered = {n for h in highlights for n in h.numbers}
    headline = sorted(prs, key=lambda rp: (-headline_weight(rp), rp.number))
    for rp in headline[: len(key_numbers)]:
        if len(highlights) >= MAX_HIGHLIGHTS:
            break
        title = rp.apr.pr.title
        if rp.number in covered or not _brings(rp) or is_revert(title) or is_lint(title):
            continue
        item = _item(rp)
        highlights.append(
            Highlight(
                name=item.title,
                prs=1,
                kinds=[(rp.apr.analysis.kind, 1)],
                lead=[item],
                numbers=[rp.number],
                trend="unknown",
                claim=_claim([rp]),
            )
        )
    return highlights


def headline_weight(rp: ReleasePR) -> float:
    """How strongly a PR reads as a release headline: its score, plus a bonus for a
    default users get without asking (its title, or its "user-facing change?" answer) and
    for a part of a larger initiative ("[1/N]", an RFC)."""
    pr = rp.apr.pr
    title = without_tooling(pr.title)
    answer = template_answer(pr.body) or ""
    weight = rp.apr.analysis.score
    if _DEFAULT_CHANGE.search(title) or (
        answer[:3].lower() == "yes" and _DEFAULT_CHANGE.search(answer)
    ):
        weight += HEADLINE_BONUS
    if _INITIATIVE.search(title) or _INITIATIVE.search(pr.body[:1000] if pr.body else ""):
        weight += HEADLINE_BONUS
    if brings_up_hardware(pr.title):
        weight += HEADLINE_BONUS
    return weight


def _brings(rp: ReleasePR) -> bool:
    """A PR that brings something new: a feature, a model, a speed-up."""
    return rp.apr.analysis.kind in ("feature", "model", "performance")


def _claim(members: Sequence[ReleasePR]) -> tuple[Claim, int, str] | None:
    stated = [(c, rp) for rp in members for c in rp.apr.analysis.claims if c.metric]
    best = best_claim([c for c, _ in stated])
    if best is None:
        return None
    source = next(rp for c, rp in stated if c is best)
    return (best, source.number, source.url)


def _theme_highlight(
    theme: Theme, members: Sequence[ReleasePR], module_names: Mapping[str, tuple[str, str]]
) -> Highlight:
    names = None
    if theme.named_by_module and theme.module and theme.module in module_names:
        names = module_names[theme.module]
    kinds = Counter(rp.apr.analysis.kind for rp in members)
    # The lead PRs say what the subject brings: its features before its fixes.
    lead = sorted(members, key=lambda rp: (not _brings(rp), *_rank(rp)))[:LEAD_PRS]
    return Highlight(
        name=theme.name,
        prs=len(members),
        kinds=kinds.most_common(),
        lead=[_item(rp) for rp in lead],
        numbers=[rp.number for rp in sorted(members, key=_rank)],
        trend=theme.trend,
        claim=_claim(members),
        names=names,
    )


def _reverts(prs: Sequence[ReleasePR]) -> dict[int, ReleasePR]:
    """Reverted PR number -> the revert, for reverts whose target is in the release (by
    the number its quoted title names, a pick's number, or the quoted title itself)."""
    by_number = {rp.number: rp for rp in prs}
    by_number.update({rp.picked_as: rp for rp in prs if rp.picked_as is not None})
    by_title: dict[str, list[ReleasePR]] = defaultdict(list)
    for rp in prs:
        by_title[clean_title(rp.apr.pr.title).casefold()].append(rp)
    found: dict[int, ReleasePR] = {}
    for rp in prs:
        title = rp.apr.pr.title
        if not is_revert(title):
            continue
        ref = reverted_ref(title)
        target = by_number.get(ref) if ref is not None else None
        if target is None:
            # The same title merged before the revert: a re-land after it is not its target.
            same = by_title.get(clean_title(reverted_title(title)).casefold(), [])
            when = rp.apr.pr.merged_at
            earlier = [
                c for c in same if not when or not c.apr.pr.merged_at or c.apr.pr.merged_at <= when
            ]
            target = earlier[-1] if earlier else None
        if target is None or target is rp or target.number in found or rp.number in found:
            continue
        found[target.number] = rp
    return found


def section_cap(section: str, size: int) -> int | None:
    """Items a curated section lists for a release of `size` PRs (None: every one).
    Grows with the square root: a release twice as large has more to tell, not twice."""
    base = max(3, math.ceil(math.sqrt(size)))
    factor = SECTION_CAPS.get(section)
    return None if factor is None else max(1, math.ceil(base * factor))


def _subjects(
    prs: Sequence[ReleasePR], rules: ThemeRules | None, not_themes: frozenset[str]
) -> dict[int, str]:
    """PR -> the named subject it shares with other PRs of the release ("DeepSeek V4"),
    from the same detection as the themes, with as many groups as it finds."""
    base = rules or ThemeRules()
    wide = replace(base, max_groups=max(base.max_groups, SUBJECT_GROUPS))
    result = detect_themes([_theme_doc(rp, not_themes) for rp in prs], (), wide)
    subjects: dict[int, str] = {}
    for theme in result.themes:
        if theme.kind != "initiative" or not _subject_name(theme.name):
            continue
        for n in theme.numbers:
            subjects.setdefault(n, theme.name)
    return subjects


def _noteworthy(rp: ReleasePR, section: str) -> bool:
    """Whether a maintainer could list it: a fix of tests or CI alone is not, nor a batch
    of translated pages (the docs they translate are the change)."""
    pr = rp.apr.pr
    if section == "docs" and _TRANSLATION.search(without_tooling(pr.title)):
        return False
    if section != "fixes" or not pr.files_known or not pr.files:
        return True
    return not all(_TEST_OR_CI.search(f.path) for f in pr.files)


def _group_rank(members: Sequence[ReleasePR]) -> tuple[float, int]:
    best = max(rp.apr.analysis.score for rp in members)
    # A subject several PRs worked on weighs more than its best PR alone.
    return (-(best + GROUP_BONUS * math.log2(len(members))), members[0].number)


def _curate(
    section: str,
    entries: Sequence[tuple[ReleasePR, Placement]],
    subjects: Mapping[int, str],
    cap: int | None,
) -> tuple[list[Item], list[Item]]:
    """A section's curated items (several PRs on one subject merged into one, ordered by
    importance, at most `cap`) and the rest, one item per PR, for the changelog."""
    groups: dict[str, list[tuple[ReleasePR, Placement]]] = defaultdict(list)
    rest: list[tuple[ReleasePR, Placement]] = []
    for rp, placement in entries:
        if placement.excluded or not _noteworthy(rp, section):
            rest.append((rp, placement))
            continue
        subject = subjects.get(rp.number)
        key = subject if subject and section not in UNMERGED else f"#{rp.number}"
        groups[key].append((rp, placement))
    ordered = sorted(groups.items(), key=lambda kv: _group_rank([rp for rp, _ in kv[1]]))
    items: list[Item] = []
    for key, members in ordered:
        if cap is not None and len(items) >= cap:
            rest.extend(members)
            continue
        members = sorted(members, key=lambda pair: _rank(pair[0]))
        lead, placement = members[0]
        item = _item(lead, _detail(section, placement))
        item.enable = next((p.enable for _, p in members if p.enable), None)
        if len(members) > 1:
            item.subject = key
            item.numbers = [rp.number for rp, _ in members]
            item.merged = [
                (clean_title(rp.apr.pr.title), rp.number, rp.url)
                for rp, _ in members[:MERGED_TITLES]
            ]
        items.append(item)
    changelog = [_item(rp) for rp, _ in sorted(rest, key=lambda pair: pair[0].number)]
    return items, changelog


def _detail(section: str, placement: Placement) -> Detail | None:
    if section == "breaking":
        return placement.breaking
    if section == "deprecations":
        return placement.deprecation
    if section == "dependencies":
        return ", ".join(f"{n} {b} → {a}" if b else f"{n} → {a}" for n, b, a in placement.versions)
    return placement.detail


def _section_of(placement: Placement) -> str:
    # One section per PR (CONTRACT): what users must act on first, then what they
    # install, then what the change is.
    if placement.breaking:
        return "breaking"
    if placement.deprecation:
        return "deprecations"
    if placement.versions:
        return "dependencies"
    return placement.main


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
    reverts = _reverts(data.prs)
    cancelled = set(reverts) | {rp.number for rp in reverts.values()}
    by_number = {rp.number: rp for rp in data.prs}
    reverted = []
    for number, revert in reverts.items():
        item = _item(by_number[number])
        item.numbers = [number, revert.number]
        item.reverted_by = (revert.number, revert.url)
        reverted.append(item)
    live = [rp for rp in data.prs if rp.number not in cancelled]
    placed = [(rp, place(rp.apr)) for rp in live]
    by_section: dict[str, list[tuple[ReleasePR, Placement]]] = defaultdict(list)
    other: dict[str, list[int]] = defaultdict(list)
    unstated: list[Item] = []
    for rp, placement in sorted(placed, key=lambda pair: _rank(pair[0])):
        sid = _section_of(placement)
        if sid == "other":
            other[rp.apr.analysis.kind].append(rp.number)
        else:
            by_section[sid].append((rp, placement))
        if placement.dependency_files and not placement.versions and sid != "other":
            unstated.append(_item(rp))
    subjects = _subjects(live, theme_rules, auxiliary)
    sections: list[Section] = []
    changelog: list[Section] = []
    for sid in SECTION_IDS:
        if sid == "reverted" and reverted:
            sections.append(Section(sid, sorted(reverted, key=lambda i: i.number)))
        if sid not in by_section:
            continue
        items, rest = _curate(sid, by_section[sid], subjects, section_cap(sid, len(data.prs)))
        if items or (sid == "dependencies" and unstated):
            sections.append(Section(sid, items))
        if rest:
            changelog.append(Section(sid, rest))
    others = sorted(((k, sorted(v)) for k, v in other.items()), key=lambda kv: -len(kv[1]))
    if others:
        changelog.append(Section("other", []))
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
        highlights=_highlights(live, history, theme_rules, auxiliary, names),
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
        changelog=changelog,
    )
