"""The release digest's data: what a release holds and the notes built from it (pure).

Language-neutral like the weekly Digest: names are (English, Chinese) pairs and an item's
evidence is a fact (a claim, a flag, a catalogue message); bot.releases.document writes the
sentences in a language when rendering.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime

from bot.core.messages import Text
from bot.core.models import JSON, AnalyzedPR, Claim, Flag
from bot.digest.history import ModuleNames, module_name
from bot.digest.model import KeyPR, PRRow

# Sections in the order maintainers write them; "other" holds what release notes leave
# out (CI, tests, refactors) so every PR of the release is still named once.
SECTION_IDS = (
    "features",
    "hardware",
    "performance",
    "fixes",
    "dependencies",
    "breaking",
    "deprecations",
    "docs",
    "reverted",
    "other",
)


@dataclass(slots=True)
class ReleasePR:
    """One PR of a release as the notes name it: a cherry-pick is reported as its original
    PR (`number`, `url`) with the pick's number and link kept (`picked_as`)."""

    apr: AnalyzedPR
    number: int
    url: str
    picked_as: int | None = None
    picked_url: str | None = None


@dataclass(slots=True)
class Requests:
    """GitHub requests a release cost, and the fewest it could have cost (compare pages +
    one tags page + one GraphQL request per 100 PRs missing from the store)."""

    used: int
    lower_bound: int
    newcomers: int = 0  # spent on first-time contributor lookups, beyond the release's data


@dataclass(slots=True)
class ReleaseData:
    repo: str
    tag: str
    base: str
    base_date: datetime | None
    head_date: datetime | None
    prs: list[ReleasePR]
    commits: int  # commits the comparison lists
    unmapped: list[str] = field(default_factory=list)  # commits with no PR (direct pushes)
    between: list[str] | None = None  # release tags between base and tag; None: unknown
    url: str | None = None  # the release's page on GitHub, when known
    requests: Requests | None = None  # None: built from the store or a file
    # Authors whose first merged PR is in this release; None: unknown (offline).
    new_contributors: set[str] | None = None


# The evidence or figure an item is listed with, as a fact: a claim with its metric, the
# breaking flag, a catalogue message quoting the PR, or a version change (no words).
Detail = Claim | Flag | Text | str


@dataclass(slots=True)
class Item:
    number: int
    title: str
    url: str
    author: str | None
    picked_as: int | None = None
    picked_url: str | None = None
    detail: Detail | None = None  # None: the title says it all
    # An item merging several PRs on one subject: its name and every PR (`number` first);
    # the titles shown are `merged` (the rest counted).
    subject: str | None = None
    numbers: list[int] = field(default_factory=list)
    merged: list[tuple[str, int, str]] = field(default_factory=list)  # (title, PR, url)
    enable: str | None = None  # how the PR says to turn it on
    reverted_by: tuple[int, str] | None = None  # (revert PR, its URL)

    @property
    def prs(self) -> list[int]:
        return self.numbers or [self.number]


@dataclass(slots=True)
class Section:
    id: str  # one of SECTION_IDS
    items: list[Item]


@dataclass(slots=True)
class DependencyChange:
    name: str  # as the PR writes it: "CANN", "torch-npu", "vLLM"
    before: str | None  # None: the data does not say
    after: str | None
    numbers: list[int]


@dataclass(slots=True)
class Highlight:
    name: str  # the theme as detected
    prs: int  # the theme's PRs in this release
    kinds: list[tuple[str, int]]  # what changed: kind -> PRs, largest first
    lead: list[Item]  # the theme's most important PRs
    numbers: list[int]  # every PR of the theme
    trend: str  # new | continuing | rising | tailing | unknown (against the weeks before)
    # The theme's strongest stated figure with its metric, and the PR stating it.
    claim: tuple[Claim, int, str] | None = None  # (claim, PR, its URL)
    # A theme named after its module: the module's (English, Chinese) names.
    names: ModuleNames | None = None

    def title(self, language: str) -> str:
        return self.name if self.names is None else module_name(self.names, language)


@dataclass(slots=True)
class ReleaseDigest:
    repo: str
    tag: str
    base: str
    base_date: datetime | None
    head_date: datetime | None
    prs: int
    contributors: int
    new_contributors: int | None  # None: unknown
    between: list[str] | None
    highlights: list[Highlight]
    history_weeks: int  # earlier weeks the highlights were compared with
    sections: list[Section]
    dependencies: list[DependencyChange]
    commits: int
    unmapped: list[str]
    requests: Requests | None
    url: str | None
    other: list[tuple[str, list[int]]]  # kind -> PRs of the "other" section
    # PRs that change dependency files without stating a version (listed in their own
    # section; the dependencies section says their versions are unknown).
    unstated_dependencies: list[Item] = field(default_factory=list)
    rows: list[PRRow] = field(default_factory=list)  # every PR, highest score first
    key_prs: list[KeyPR] = field(default_factory=list)
    module_names: dict[str, ModuleNames] = field(default_factory=dict)
    cherry_picks: dict[int, list[int]] = field(default_factory=dict)  # original -> picks
    # Every PR the curated sections leave out, one item each, grouped by section.
    changelog: list[Section] = field(default_factory=list)

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)

    def _counts(self, language: str) -> tuple[list[JSON], list[JSON], list[JSON]]:
        modules: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        flags: dict[str, list[int]] = {}
        for row in self.rows:
            if row.modules:
                modules[row.modules[0]] += 1
            kinds[row.kind] += 1
            for flag in row.flags:
                flags.setdefault(flag, []).append(row.number)
        # No window before a release to compare with: "previous" and "delta" are null.
        return (
            [
                {
                    "id": m,
                    "name": module_name(self.module_names[m], language)
                    if m in self.module_names
                    else m,
                    "count": n,
                    "previous": None,
                    "delta": None,
                }
                for m, n in modules.most_common()
            ],
            [{"id": k, "count": n, "previous": None} for k, n in kinds.most_common()],
            [{"id": f, "count": len(ns), "prs": ns} for f, ns in flags.items()],
        )

    def _sections(self, texts: Mapping[str, Sequence[str]]) -> list[JSON]:
        """CONTRACT `sections`: highlights, then each section with its PRs (each PR in at
        most one apart from highlights); `texts` holds each item's plain text."""
        out: list[JSON] = [
            {
                "id": "highlights",
                "prs": sorted({n for h in self.highlights for n in h.numbers}),
                "items": [
                    {"text": text, "prs": h.numbers}
                    for h, text in zip(self.highlights, texts["highlights"], strict=True)
                ],
            }
        ]
        for section in self.sections:
            items = [
                {"text": text, "prs": i.prs}
                for i, text in zip(section.items, texts[section.id], strict=True)
            ]
            out.append(
                {"id": section.id, "prs": [n for i in section.items for n in i.prs], "items": items}
            )
        return out

    def _changelog(self, texts: Mapping[str, Sequence[str]]) -> list[JSON]:
        """Every PR the curated sections leave out, by section, one item each; with the
        curated sections each PR of the release is named exactly once."""
        out: list[JSON] = []
        for section in self.changelog:
            if section.id == "other":
                out.append(
                    {
                        "id": "other",
                        "prs": sorted(n for _, ns in self.other for n in ns),
                        "items": [
                            {"text": text, "prs": ns}
                            for (_, ns), text in zip(self.other, texts["other"], strict=True)
                        ],
                    }
                )
                continue
            out.append(
                {
                    "id": section.id,
                    "prs": [i.number for i in section.items],
                    "items": [
                        {"text": text, "prs": [i.number]}
                        for i, text in zip(
                            section.items, texts[f"changelog-{section.id}"], strict=True
                        )
                    ],
                }
            )
        return out

    def to_json(self, language: str, texts: Mapping[str, Sequence[str]]) -> JSON:
        """The weekly digest's JSON keys over the release's PRs, plus `release`,
        `sections` and `cherry_picks` (CONTRACT); `texts`: the items' plain text in
        `language`."""
        modules, kinds, flags = self._counts(language)
        sized = [r for r in self.rows if r.additions is not None]
        return {
            "repo": self.repo,
            "week": None,  # a release is a span of ancestry, not a week
            "start": self.base_date.isoformat() if self.base_date else None,
            "end": self.head_date.isoformat() if self.head_date else None,
            "timezone": "UTC",
            "language": language,
            "totals": {
                "merged": self.prs,
                "key": len(self.key_prs),
                "contributors": self.contributors,
                "new_contributors": self.new_contributors,
                "additions": sum(r.additions or 0 for r in sized) if sized else None,
                "deletions": sum(r.deletions or 0 for r in sized) if sized else None,
                "commits": self.commits,
                "commits_without_pr": self.unmapped,
            },
            "modules": modules,
            "kinds": kinds,
            "flags": flags,
            "key_prs": [asdict(k) for k in self.key_prs],
            "highlights": [
                {"theme": h.title(language), "prs": h.numbers, "text": text, "trend": h.trend}
                for h, text in zip(self.highlights, texts["highlights"], strict=True)
            ],
            "recommendations": [],
            "prs": [
                {
                    "number": r.number,
                    "modules": r.modules,
                    "kind": r.kind,
                    "flags": r.flags,
                    "score": r.score,
                }
                for r in self.rows
            ],
            "history": None,
            "release": {
                "tag": self.tag,
                "base": self.base,
                "date": self.head_date.isoformat() if self.head_date else None,
                "base_date": self.base_date.isoformat() if self.base_date else None,
                "url": self.url,
                "releases_between": self.between,
                "history_weeks": self.history_weeks,
                "dependencies": [
                    {"name": d.name, "from": d.before, "to": d.after, "prs": d.numbers}
                    for d in self.dependencies
                ],
                "requests": (
                    None
                    if self.requests is None
                    else {
                        "used": self.requests.used,
                        "lower_bound": self.requests.lower_bound,
                        "first_time_contributor_lookups": self.requests.newcomers,
                    }
                ),
            },
            "sections": self._sections(texts),
            "changelog": self._changelog(texts),
            "cherry_picks": {str(k): v for k, v in self.cherry_picks.items()},
        }
