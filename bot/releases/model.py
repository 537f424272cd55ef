"""The release digest's data: what a release holds and the notes built from it (pure)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.core.models import JSON, AnalyzedPR

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


@dataclass(slots=True)
class Item:
    number: int
    title: str
    url: str
    author: str | None
    picked_as: int | None = None
    picked_url: str | None = None
    # The evidence or figure the item is listed with: a claim with its metric, a breaking
    # change's reason, a version change. "" when the title says it all.
    detail: str = ""

    def to_json(self) -> JSON:
        return {
            "number": self.number,
            "title": self.title,
            "url": self.url,
            "author": self.author,
            "cherry_pick": self.picked_as,
            "cherry_pick_url": self.picked_url,
            "detail": self.detail or None,
        }


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
    name: str
    prs: int  # the theme's PRs in this release
    kinds: list[tuple[str, int]]  # what changed: kind -> PRs, largest first
    lead: list[Item]  # the theme's most important PRs
    numbers: list[int]  # every PR of the theme
    trend: str  # new | continuing | rising | tailing | unknown (against the weeks before)


@dataclass(slots=True)
class ReleaseDigest:
    repo: str
    tag: str
    base: str
    base_date: datetime | None
    head_date: datetime | None
    language: str
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

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)

    def to_json(self) -> JSON:
        return {
            "repo": self.repo,
            "tag": self.tag,
            "base": self.base,
            "base_date": self.base_date.isoformat() if self.base_date else None,
            "head_date": self.head_date.isoformat() if self.head_date else None,
            "language": self.language,
            "url": self.url,
            "totals": {
                "prs": self.prs,
                "commits": self.commits,
                "contributors": self.contributors,
                "new_contributors": self.new_contributors,
                "releases_between": self.between,
                "commits_without_pr": self.unmapped,
            },
            "highlights": [
                {
                    "name": h.name,
                    "prs": h.prs,
                    "kinds": dict(h.kinds),
                    "trend": h.trend,
                    "lead": [item.to_json() for item in h.lead],
                    "numbers": h.numbers,
                }
                for h in self.highlights
            ],
            "history_weeks": self.history_weeks,
            "sections": {s.id: [item.to_json() for item in s.items] for s in self.sections},
            "dependencies": [
                {"name": d.name, "from": d.before, "to": d.after, "numbers": d.numbers}
                for d in self.dependencies
            ],
            "other": dict(self.other),
            "requests": (
                None
                if self.requests is None
                else {
                    "used": self.requests.used,
                    "lower_bound": self.requests.lower_bound,
                    "first_time_contributor_lookups": self.requests.newcomers,
                }
            ),
        }
