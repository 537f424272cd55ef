"""One digest for several repositories: an organisation, or a configured list (issue 16).

Each repository is analysed on its own, with its own rule set and its own history as the
themes' baseline (so vLLM's volume never sets the baseline of a small repository); the
organisation digest then joins them:

- totals and the existing JSON keys over the union; module ids that two repositories share
  are qualified as ``NAME/id`` (``vllm-ascend/ops``) so they never collide;
- cross-repository themes: the themes each repository's detector found, joined when they
  share a written form (normalised the detector's way: "DeepSeek V4" = "deepseek-v4" =
  "DSV4" when one repository's theme lists that alias), kept when they span 2+ repositories;
- key PRs ranked across the organisation by *share*: a PR's score divided by the top key-PR
  score of its own repository (each repository's best PR is 100%), ties by raw score;
- a section per active repository, ordered by weight (merged PRs, then key PRs), and one
  line per quiet repository (at most QUIET_MAX merged PRs).

The syncs go through `bot.sync.sync_scope`: one GraphQL search per week for every
repository together.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.analysis.themes import normalize_term
from bot.core import i18n
from bot.core.config import DigestTarget
from bot.core.document import (
    Block,
    BulletList,
    Document,
    Inline,
    Link,
    Paragraph,
    Section,
    Strong,
    Table,
    Text,
)
from bot.core.errors import GitHubError, GitHubUnreachable, MessageError
from bot.core.models import JSON
from bot.core.weeks import WEEK_PATTERN, Window
from bot.digest.document import context_line, shorten
from bot.digest.history import chain
from bot.digest.model import (
    Digest,
    FlagCount,
    Highlight,
    KeyPR,
    KindCount,
    ModuleCount,
    PRRow,
    Totals,
)
from bot.digest.pipeline import BuiltDigest
from bot.digest.prose import (
    digest_json,
    highlight_text,
    module_json,
    recommendation_text,
    theme_name,
)
from bot.digest.service import make_digest
from bot.sync import first_time_contributors_in, org_marker, org_repos, sync_scope

if TYPE_CHECKING:
    from bot.services import ProgressFactory, Say, Services

log = logging.getLogger(__name__)

QUIET_MAX = 3  # a repository with at most this many merged PRs is condensed to one line
SECTION_KEY_PRS = 5  # key PRs listed in a repository's own section
MAX_CROSS_THEMES = 8
# PRs one repository's digest may load for its theme baseline (the week and its history
# weeks). Reading and decoding stored PRs dominates the build, so a repository merging
# 1,000 PRs a week gets 1 history week instead of `history_weeks`, while a 250-PR week
# (vLLM) keeps 8: ten such repositories build in seconds, not in half a minute.
HISTORY_BUDGET = 2500


@dataclass(slots=True)
class RepoPart:
    """One repository of the organisation digest."""

    repo: str
    name: str  # as shown: NAME when every repository has the same owner, else OWNER/NAME
    digest: Digest
    previous_merged: int | None  # None when last week is not fully synced

    @property
    def unknown(self) -> bool:
        """An unsynced window with no stored PR: its 0s would be guesses, so they read
        unknown (and such a repository is not "quiet")."""
        return not self.digest.complete and self.digest.totals.merged == 0

    @property
    def quiet(self) -> bool:
        return self.digest.totals.merged <= QUIET_MAX and not self.unknown

    @property
    def weight(self) -> tuple[int, int]:
        return self.digest.totals.merged, len(self.digest.key_prs)


@dataclass(slots=True)
class CrossTheme:
    id: str
    name: str
    members: list[tuple[str, list[int]]]  # (repo, PR numbers), heaviest repository first
    sources: list[tuple[str, str]] = field(default_factory=list)  # (repo, theme id) joined

    @property
    def total(self) -> int:
        return sum(len(numbers) for _, numbers in self.members)


@dataclass(slots=True)
class OrgKeyPR:
    repo: str
    pr: KeyPR
    share: float  # score / the top key-PR score of its repository


@dataclass(slots=True)
class OrgDigest(Digest):
    """A Digest over the union of several repositories, plus each repository's own. Its
    text (summary, highlights, recommendations) is written for one language when the
    parts are combined; the parts themselves are language-neutral digests."""

    language: str = "en"
    scope_label: str = ""
    parts: list[RepoPart] = field(default_factory=list)
    cross_themes: list[CrossTheme] = field(default_factory=list)
    org_key_prs: list[OrgKeyPR] = field(default_factory=list)
    pr_repos: list[str] = field(default_factory=list)  # the repo of each `prs` row
    highlight_repos: list[list[str]] = field(default_factory=list)  # per `highlights` entry
    recommendation_repos: list[str] = field(default_factory=list)  # per `recommendations`

    def to_json(self, language: str | None = None) -> JSON:
        """The organisation digest's JSON, in the language it was combined in."""
        lang = language or self.language
        base = Digest(**{f.name: getattr(self, f.name) for f in dataclasses.fields(Digest)})
        data = digest_json(base, lang)
        # PR numbers repeat across repositories: every PR entry names its repository.
        for entry, key in zip(data["key_prs"], self.org_key_prs, strict=True):
            entry["repo"] = key.repo
            entry["share"] = round(key.share, 4)
        for entry, repo in zip(data["prs"], self.pr_repos, strict=True):
            entry["repo"] = repo
        for entry, repos in zip(data["highlights"], self.highlight_repos, strict=True):
            entry["repos"] = repos
        for entry, repo in zip(data["recommendations"], self.recommendation_repos, strict=True):
            entry["repo"] = repo
        data["repos"] = [
            {
                "repo": part.repo,
                "totals": dataclasses.asdict(part.digest.totals),
                "modules": [module_json(m, lang) for m in part.digest.modules],
                "key_prs": [k.number for k in part.digest.key_prs],
                "previous_merged": part.previous_merged,
                "complete": part.digest.complete,
            }
            for part in self.parts
        ]
        data["cross_themes"] = [
            {
                "id": theme.id,
                "name": theme.name,
                "repos": [{"repo": repo, "prs": numbers} for repo, numbers in theme.members],
            }
            for theme in self.cross_themes
        ]
        return data


# ------------------------------------------------------------------ choosing the target


def ad_hoc_target(
    repos: Sequence[str], org: str | None, exclude: Sequence[str] = ()
) -> DigestTarget:
    """A target for the CLI's `--repo` (repeated) / `--org`; validated like the config."""
    try:
        return DigestTarget(
            platform="slack",
            channel="cli",
            repos=list(repos) if not org else [],
            org=org,
            exclude=list(exclude),
        )
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(p) for p in problem["loc"]) or "--org"
        reason = problem["msg"].removeprefix("Value error, ")
        raise MessageError("error.org.option", where=where, problem=reason) from None


# ------------------------------------------------------------------ building


async def _sync_all(
    services: Services,
    target: DigestTarget,
    spans: Sequence[Window],
    progress: ProgressFactory | None,
) -> tuple[dict[str, int] | None, GitHubError | None]:
    """Sync every week of `spans` (the digest's window last) with one search per week, the
    digest's window first. Returns the repositories found in the digest's window (None:
    its sync failed) and that failure; an earlier week that fails is left out of the
    baseline with a warning."""
    github = services.github()
    found: dict[str, int] | None = None
    failure: GitHubError | None = None
    window = spans[-1]
    for span in reversed(spans):
        label = f"{target.scope_label} {span.label}"
        try:
            with progress(label) if progress is not None else contextlib.nullcontext() as bar:
                result = await sync_scope(
                    services.store,
                    github,
                    span,
                    repos=target.repos,
                    org=target.org,
                    exclude=target.exclude,
                    progress=bar,
                )
        except GitHubError as exc:
            if span is window:
                failure = exc
            elif not isinstance(exc, GitHubUnreachable):
                log.warning("week %s of %s not synced: %s", span.label, target.scope_label, exc)
            if isinstance(exc, GitHubUnreachable):
                # Asking again, once per history week, would only repeat the same failure.
                earlier = [s for s in spans if s is not window and s.start < span.start]
                if earlier or span is not window:
                    log.warning(
                        "%s: %s; using the stored copy of the %d earlier weeks",
                        target.scope_label,
                        exc,
                        len(earlier) + (span is not window),
                    )
                break
            continue
        if span is window:
            found = result.repos
    return found, failure


async def _repos_of(
    services: Services, target: DigestTarget, window: Window, found: dict[str, int] | None
) -> list[str]:
    if target.repos:
        return list(dict.fromkeys(target.repos))
    if found is not None:
        return sorted(found)
    return list(await org_repos(services.store, target.org or "", target.exclude, window))


def _display_names(repos: Sequence[str]) -> dict[str, str]:
    owners = {repo.split("/")[0].lower() for repo in repos}
    return {repo: repo.split("/", 1)[1] if len(owners) == 1 else repo for repo in repos}


async def build_org_for_window(
    services: Services,
    target: DigestTarget,
    window: Window,
    language: str,
    *,
    sync: bool = True,
    progress: ProgressFactory | None = None,
    warn: Say | None = None,
) -> BuiltDigest:
    """The organisation digest of `window` for `target` (an `org` or `repos` target: which
    one, and the error when none is configured, is bot.usecases.digest's to say)."""
    weeks = services.config.digest.history_weeks
    spans = chain(window, max(weeks + 1, 2))
    found, failure = (None, None)
    if sync:
        found, failure = await _sync_all(services, target, spans, progress)
    repos = await _repos_of(services, target, window, found)
    if failure is not None:
        covered = [
            await services.store.windows.is_covered(r, window.start_utc, window.end_utc)
            for r in repos
        ]
        if not repos or not all(covered):
            raise failure
        text = f"{failure}; using the stored copy of {window.label}"
        if warn is not None:
            warn(f"warning: {text}")
        else:
            log.warning("%s: %s", target.scope_label, text)
    offline = not sync or isinstance(failure, GitHubUnreachable)
    names = _display_names(repos)
    previous = window.previous()
    newcomers = None if offline else await _newcomers(services, repos, window)
    parts: list[RepoPart] = []
    for repo in repos:
        analyzer = await services.analyzer(repo, offline=offline)
        merged = await services.store.prs.count_merged_between(
            repo, window.start_utc, window.end_utc
        )
        history = history_weeks(weeks, merged)
        digest = await make_digest(
            services.store,
            analyzer,
            repo,
            window,
            timezone=services.config.timezone,
            key_count=services.config.digest.key_prs,
            new_contributors=None if newcomers is None else newcomers[repo],
            history_weeks=history,
        )
        before = None
        if await services.store.windows.is_covered(repo, previous.start_utc, previous.end_utc):
            before = await services.store.prs.count_merged_between(
                repo, previous.start_utc, previous.end_utc
            )
        parts.append(RepoPart(repo, names[repo], digest, before))
    searched = True
    if target.org and not parts:
        # Nothing stored: "no PR merged" only when the whole organisation was searched.
        searched = await services.store.windows.is_covered(
            org_marker(target.org), window.start_utc, window.end_utc
        )
    org = combine(
        parts,
        scope_label=target.scope_label,
        window=window,
        language=language,
        timezone=services.config.timezone,
        key_count=services.config.digest.key_prs,
        searched=searched,
    )
    return BuiltDigest(org, org_document(org))


async def _newcomers(
    services: Services, repos: Sequence[str], window: Window
) -> dict[str, set[str]] | None:
    """First-time contributors of every repository, asked in shared requests; None when
    GitHub cannot tell (shown as unknown)."""
    authors = {}
    for repo in repos:
        prs = await services.store.prs.merged_between(repo, window.start_utc, window.end_utc)
        authors[repo] = {pr.author for pr in prs if pr.author}
    try:
        return await first_time_contributors_in(
            services.store, services.github(), authors, window.start_utc
        )
    except GitHubError as exc:
        log.warning("first-time contributors unknown for %s: %s", window.label, exc)
        return None


def history_weeks(configured: int, merged: int) -> int:
    """The history weeks one repository's digest reads: `configured`, capped so that
    about HISTORY_BUDGET PRs are read (estimated from this week's count), at least 1."""
    if configured <= 1:
        return configured
    return max(1, min(configured, HISTORY_BUDGET // max(merged, 1) - 1))


# ------------------------------------------------------------------ combining (pure)


def _qualified_modules(parts: Sequence[RepoPart]) -> list[ModuleCount]:
    owners: dict[str, set[str]] = defaultdict(set)
    for part in parts:
        for module in part.digest.modules:
            owners[module.id].add(part.repo)
    out = []
    for part in parts:
        for module in part.digest.modules:
            if len(owners[module.id]) > 1:
                en, zh = module.names
                module = dataclasses.replace(
                    module,
                    id=f"{part.name.rsplit('/', 1)[-1]}/{module.id}",
                    names=(f"{en} ({part.name})", f"{zh} ({part.name})" if zh else ""),
                )
            out.append(module)
    return out


def _kinds(parts: Sequence[RepoPart]) -> list[KindCount]:
    counts: dict[str, KindCount] = {}
    for part in parts:
        for kind in part.digest.kinds:
            have = counts.get(kind.id)
            if have is None:
                counts[kind.id] = dataclasses.replace(kind)
                continue
            have.count += kind.count
            have.previous = (
                None
                if have.previous is None or kind.previous is None
                else have.previous + kind.previous
            )
    return sorted(counts.values(), key=lambda k: (-k.count, k.id))


def _flags(parts: Sequence[RepoPart]) -> list[FlagCount]:
    counts: dict[str, FlagCount] = {}
    for part in parts:
        for flag in part.digest.flags:
            have = counts.setdefault(flag.id, FlagCount(flag.id, 0, [], 0))
            have.count += flag.count
            have.prs.extend(flag.prs)
            have.unknown += flag.unknown
    return sorted(counts.values(), key=lambda f: (-f.count, f.id))


def _sum_known(values: Sequence[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def _sum_all(values: Sequence[int | None]) -> int | None:
    # One repository's unknown makes the organisation's figure unknown (unlike sizes).
    known = [v for v in values if v is not None]
    return None if len(known) < len(values) else sum(known)


def _totals(parts: Sequence[RepoPart], key: int) -> Totals:
    totals = [part.digest.totals for part in parts]
    newcomers = [t.new_contributors for t in totals]
    return Totals(
        merged=sum(t.merged for t in totals),
        key=key,
        contributors=len({login for p in parts for login in p.digest.contributors}),
        new_contributors=_sum_all(newcomers),
        additions=_sum_known([t.additions for t in totals]),
        deletions=_sum_known([t.deletions for t in totals]),
        files_unknown=sum(t.files_unknown for t in totals),
        sizes_unknown=sum(t.sizes_unknown for t in totals),
    )


def rank_key_prs(parts: Sequence[RepoPart], count: int) -> list[OrgKeyPR]:
    """Key PRs across repositories, normalised per repository (see the module docstring)."""

    def order(c: OrgKeyPR) -> tuple[float, float, str, int]:
        return (-c.share, -c.pr.score, c.repo, c.pr.number)

    bests: list[OrgKeyPR] = []
    rest: list[OrgKeyPR] = []
    for part in parts:
        top = max((k.score for k in part.digest.key_prs), default=0.0)
        ranked = sorted(
            (
                OrgKeyPR(part.repo, k, k.score / top if top > 0 else 0.0)
                for k in part.digest.key_prs
            ),
            key=order,
        )
        bests.extend(ranked[:1])
        rest.extend(ranked[1:])
    # Each repository's best PR first: several PRs tied at a busy repository's top score
    # (share 1) must not push a quieter repository's best out of the list.
    bests.sort(key=order)
    chosen = bests[:count]
    chosen += sorted(rest, key=order)[: count - len(chosen)]
    return sorted(chosen, key=order)


_TERM_NOTE = re.compile(r"\s*\(([^()]*)\)\s*$")


def _theme_keys(theme: str, terms: Sequence[str]) -> set[str]:
    """The normalised written forms that define a theme. A term nested inside a module's
    theme only rode along ("DeepSeek V4 (nested term)"), so it joins nothing."""
    keys = {normalize_term(theme)}
    for term in terms:
        note = _TERM_NOTE.search(term)
        if note and not note[1].isdigit():
            continue
        keys.add(normalize_term(_TERM_NOTE.sub("", term)))
    return {key for key in keys if key}


def cross_themes(parts: Sequence[RepoPart], language: str = "en") -> list[CrossTheme]:
    """Themes of different repositories that share a written form (an area's: its module's
    name in `language`), as one group each."""
    entries = [
        (part, highlight, _theme_keys(theme_name(highlight, language), highlight.terms))
        for part in parts
        for highlight in part.digest.highlights
    ]
    parent = list(range(len(entries)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, (_, _, keys) in enumerate(entries):
        for key in keys:
            if key in owner:
                parent[root(i)] = root(owner[key])
            else:
                owner[key] = i
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(entries)):
        groups[root(i)].append(i)
    out = []
    for members in groups.values():
        per_repo: dict[str, list[int]] = {}
        for i in members:
            part, highlight, _ = entries[i]
            numbers = per_repo.setdefault(part.repo, [])
            numbers.extend(n for n in highlight.prs if n not in numbers)
        if len(per_repo) < 2:
            continue
        heaviest = max(members, key=lambda i: (len(entries[i][1].prs), -i))
        name = theme_name(entries[heaviest][1], language)
        ordered = sorted(per_repo.items(), key=lambda item: (-len(item[1]), item[0]))
        sources = [(entries[i][0].repo, entries[i][1].theme_id) for i in members]
        out.append(CrossTheme(entries[heaviest][1].theme_id, name, ordered, sources))
    out.sort(key=lambda t: (-t.total, t.name))
    return out[:MAX_CROSS_THEMES]


def _members_text(theme: CrossTheme, names: Mapping[str, str], language: str) -> str:
    """ "6 PRs in vllm, 4 in vllm-ascend": a cross-repository theme's share per repository."""
    return i18n.join(
        [
            i18n.t(language, "org.theme.part", count=len(numbers), repo=names.get(repo, repo))
            for repo, numbers in theme.members
        ],
        language,
    )


def _union_highlights(
    parts: Sequence[RepoPart], themes: Sequence[CrossTheme], language: str
) -> list[tuple[Highlight, list[str]]]:
    """The union's highlights: the cross-repository themes, then each repository's other
    themes (ids qualified by repository), each with the repositories it covers."""
    names = {part.repo: part.name for part in parts}
    out = []
    joined: set[tuple[str, str]] = set()
    for theme in themes:
        text = _members_text(theme, names, language)
        prs = [n for _, numbers in theme.members for n in numbers]
        repos = [repo for repo, _ in theme.members]
        out.append((Highlight(theme.name, theme.id, prs, f"{theme.name}: {text}"), repos))
        joined |= set(theme.sources)
    for part in parts:
        for h in part.digest.highlights:
            if (part.repo, h.theme_id) in joined:
                continue
            # Written now: the organisation digest is combined for one language.
            qualified = dataclasses.replace(
                h,
                theme=theme_name(h, language),
                theme_id=f"{part.name}/{h.theme_id}",
                text=highlight_text(h, language, part.digest.span),
                facts=[],
                names=None,
                head=None,
            )
            out.append((qualified, [part.repo]))
    return out


def combine(
    parts: Sequence[RepoPart],
    *,
    scope_label: str,
    window: Window,
    language: str,
    timezone: str,
    key_count: int,
    searched: bool = True,
) -> OrgDigest:
    """The union of `parts`; `searched` False: the scope's window is not known to be
    complete even without parts (an organisation never searched for it)."""
    parts = sorted(parts, key=lambda p: (-p.weight[0], -p.weight[1], p.repo))
    keys = rank_key_prs(parts, key_count)
    themes = cross_themes(parts, language)
    prs: list[PRRow] = [row for part in parts for row in part.digest.prs]
    pr_repos = [part.repo for part in parts for _ in part.digest.prs]
    digests = [part.digest for part in parts]
    totals = _totals(parts, len(keys))
    highlights = _union_highlights(parts, themes, language)
    recommendations = [
        (
            dataclasses.replace(
                r, text=f"{part.name}: {recommendation_text(r, language, part.digest.span)}"
            ),
            part.repo,
        )
        for part in parts
        for r in part.digest.recommendations
    ]
    repos_text = i18n.t(language, "org.repos", count=len(parts))
    if totals.merged:
        summary = i18n.t(
            language,
            "org.summary",
            merged=totals.merged,
            repos=repos_text,
            contributors=totals.contributors,
            key=totals.key,
        )
        busiest = parts[0]
        # Chinese sentences follow each other without a space.
        summary += ("" if language == "zh" else " ") + i18n.t(
            language, "org.summary.busiest", repo=busiest.name, count=busiest.digest.totals.merged
        )
    else:
        summary = i18n.t(language, "org.summary.empty", scope=scope_label)
    synced = searched and all(d.synced for d in digests)
    in_progress = any(d.in_progress for d in digests) or window.end_utc > datetime.now(UTC)
    return OrgDigest(
        repo=scope_label,
        week=window.label,
        start=window.start,
        end=window.end,
        timezone=timezone,
        language=language,
        totals=totals,
        modules=_qualified_modules(parts),
        kinds=_kinds(parts),
        flags=_flags(parts),
        key_prs=[k.pr for k in keys],
        highlights=[h for h, _ in highlights],
        recommendations=[r for r, _ in recommendations],
        prs=prs,
        new_contributors=sorted({n for d in digests for n in d.new_contributors}),
        contributors=sorted({c for d in digests for c in d.contributors}),
        themes=[t.id for t in themes[:5]],
        summary_text=summary,
        complete=synced and not in_progress and all(d.complete for d in digests),
        in_progress=in_progress,
        synced=synced,
        previous_complete=all(d.previous_complete for d in digests),
        generated_at=max((d.generated_at for d in digests if d.generated_at), default=None),
        key_count=key_count,
        history_weeks=min((d.history_weeks for d in digests), default=0),
        scope_label=scope_label,
        parts=list(parts),
        cross_themes=themes,
        org_key_prs=keys,
        pr_repos=pr_repos,
        highlight_repos=[repos for _, repos in highlights],
        recommendation_repos=[repo for _, repo in recommendations],
    )


# ------------------------------------------------------------------ the document (pure)


def _count(part: RepoPart, value: int, lang: str) -> str:
    if part.unknown:
        return i18n.t(lang, "org.unknown")
    return i18n.number(value, lang)


def _change(part: RepoPart, lang: str) -> str:
    if part.previous_merged is None:
        return i18n.t(lang, "org.unknown")
    return i18n.trend(part.digest.totals.merged, part.previous_merged, lang)


def _pr_link(key: KeyPR) -> Link:
    return Link(key.url, f"#{key.number}")


def _title(org: OrgDigest) -> tuple[str, str]:
    lang = org.language
    repos = i18n.t(lang, "org.repos", count=len(org.parts))
    # JSON "repo" joins the names with "," (the CONTRACT); a reader wants them spaced.
    scope = org.repo.replace(",", ", ")
    week = WEEK_PATTERN.match(org.week)
    if week:
        title = i18n.t(
            lang, "org.title.week", scope=scope, year=week[1], week=int(week[2]), repos=repos
        )
    else:
        title = i18n.t(lang, "org.title.window", scope=scope, label=org.week, repos=repos)
    return title, context_line(org, lang)


def _summary(org: OrgDigest) -> Section:
    lang = org.language
    blocks: list[Block] = [Paragraph((Text(org.summary_text),))]
    if not org.complete:
        status = "incomplete.running" if org.in_progress and org.synced else "incomplete"
        blocks.insert(0, Paragraph((Strong("⚠ " + i18n.t(lang, status, span=org.span)),)))
    if org.parts:
        blocks.append(
            Table(
                header=tuple(
                    i18n.t(lang, f"org.col.{c}")
                    for c in ("repo", "merged", "key", "contributors", "change")
                ),
                rows=tuple(
                    (
                        (Text(part.name),),
                        *(
                            (Text(_count(part, value, lang)),)
                            for value in (
                                part.digest.totals.merged,
                                len(part.digest.key_prs),
                                part.digest.totals.contributors,
                            )
                        ),
                        (Text(_change(part, lang)),),
                    )
                    for part in org.parts
                ),
                align=("l", "r", "r", "r", "r"),
            )
        )
    return Section("summary", i18n.t(lang, "section.summary"), tuple(blocks))


def _themes(org: OrgDigest) -> Section:
    lang = org.language
    names = {part.repo: part.name for part in org.parts}
    if not org.cross_themes:
        blocks: tuple[Block, ...] = (
            Paragraph((Text(i18n.t(lang, "org.themes.none", span=org.span)),)),
        )
    else:
        items = []
        for theme in org.cross_themes:
            parts = _members_text(theme, names, lang)
            items.append((Strong(theme.name), Text(": " if lang == "en" else "："), Text(parts)))
        blocks = (BulletList(tuple(items)),)
    return Section("themes", i18n.t(lang, "org.section.themes"), blocks)


def _key_prs(org: OrgDigest) -> Section:
    lang = org.language
    names = {part.repo: part.name for part in org.parts}
    rows = tuple(
        (
            (Text(names.get(key.repo, key.repo)),),
            (_pr_link(key.pr),),
            (Text(shorten(key.pr.title, 70)),),
            (Text(f"{i18n.score(key.pr.score, lang)} ({i18n.percent(key.share * 100, lang)})"),),
        )
        for key in org.org_key_prs
    )
    header = tuple(i18n.t(lang, f"org.col.{c}") for c in ("repo", "pr", "title", "score"))
    blocks: tuple[Block, ...] = (
        Table(header, rows, align=("l", "l", "l", "r")),
        Paragraph((Text(i18n.t(lang, "org.key.normalised")),)),
    )
    return Section("key_prs", i18n.t(lang, "org.section.key_prs"), blocks)


def _risk_line(flag: FlagCount, lang: str) -> Inline:
    key = f"risk.{flag.id}"
    if key in i18n.MESSAGES:
        return (Text(i18n.t(lang, key, count=flag.count)),)
    return (Text(f"{i18n.flag_name(flag.id, lang)}: {i18n.number(flag.count, lang)}"),)


def _repo_section(part: RepoPart, lang: str) -> Section:
    digest = part.digest
    facts = i18n.t(
        lang,
        "org.repo.facts.unknown" if part.unknown else "org.repo.facts",
        merged=digest.totals.merged,
        key=len(digest.key_prs),
        contributors=digest.totals.contributors,
        change=_change(part, lang),
    )
    blocks: list[Block] = [Paragraph((Text(facts),))]
    if not digest.complete:
        short = "incomplete.short.running" if digest.in_progress else "incomplete.short"
        blocks.insert(0, Paragraph((Strong("⚠ " + i18n.t(lang, short, span=digest.span)),)))
    if digest.key_prs:
        items = tuple(
            (_pr_link(key), Text(" " + shorten(key.title, 90)))
            for key in digest.key_prs[:SECTION_KEY_PRS]
        )
        blocks.append(Paragraph((Strong(i18n.t(lang, "org.repo.key_prs")),)))
        blocks.append(BulletList(items))
    elif not part.unknown:
        blocks.append(Paragraph((Text(i18n.t(lang, "org.repo.no_key")),)))
    risky = [flag for flag in digest.flags if flag.count]
    if risky:
        blocks.append(Paragraph((Strong(i18n.t(lang, "org.repo.risks")),)))
        blocks.append(BulletList(tuple(_risk_line(flag, lang) for flag in risky)))
    return Section(f"repo:{part.repo}", part.name, tuple(blocks))


def _quiet(org: OrgDigest, quiet: Sequence[RepoPart]) -> Section:
    lang = org.language
    items = []
    for part in quiet:
        refs = ", ".join(f"#{row.number}" for row in part.digest.prs) or "-"
        items.append(
            (
                Text(
                    i18n.t(
                        lang,
                        "org.quiet.line",
                        repo=part.name,
                        count=part.digest.totals.merged,
                        prs=refs,
                    )
                ),
            )
        )
    return Section("quiet", i18n.t(lang, "org.section.quiet"), (BulletList(tuple(items)),))


def org_document(org: OrgDigest) -> Document:
    lang = org.language
    title, context = _title(org)
    sections = [_summary(org)]
    if org.totals.merged:
        sections += [_themes(org), _key_prs(org)]
        sections += [_repo_section(part, lang) for part in org.parts if not part.quiet]
        quiet = [part for part in org.parts if part.quiet]
        if quiet:
            sections.append(_quiet(org, quiet))
    names = i18n.join([part.name for part in org.parts], lang) or org.repo
    return Document(
        id=f"digest:org:{org.repo}:{org.week}:{lang}",
        title=title,
        context=context,
        sections=tuple(sections),
        fallback=shorten(f"{title}: {org.summary_text}", 280),
        lead_sections=1,
        footer=i18n.t(lang, "org.footer", repos=names),
        meta={
            "repo": org.repo,
            "week": org.week,
            "language": lang,
            "complete": "yes" if org.complete else "no",
        },
    )
