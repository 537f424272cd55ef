"""Platform-neutral data model shared by ingestion, the store, analysis and the digest."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

# JSON as parsed (GitHub's responses, Slack and Discord payloads, the store's JSON columns,
# our own JSON output) is checked where each value is read, so its values are `Any` at this
# one boundary.
JSONValue = Any
JSON = dict[str, JSONValue]

PRState = Literal["open", "closed", "merged"]
PR_STATES: dict[str, PRState] = {"open": "open", "closed": "closed", "merged": "merged"}


def pr_state(value: object, default: PRState) -> PRState:
    """A state as GitHub writes it ("MERGED" in GraphQL, "closed" in REST); `default` when
    it is missing (GitHub documents no other value)."""
    return PR_STATES.get(str(value).lower(), default) if value else default


FLAG_IDS = ("core-path", "missing-tests", "breaking", "dependency", "large", "revert")
KIND_IDS = (
    "feature",
    "bugfix",
    "performance",
    "refactor",
    "model",
    "ci",
    "docs",
    "test",
    "revert",
    "security",
    "misc",
)


@dataclass(slots=True)
class FileChange:
    path: str
    additions: int = 0
    deletions: int = 0
    change_type: str | None = None  # ADDED, DELETED, MODIFIED, RENAMED, ... when known

    @property
    def lines(self) -> int:
        return self.additions + self.deletions


@dataclass(slots=True)
class PullRequest:
    repo: str  # "owner/name"
    number: int
    title: str
    url: str
    state: PRState
    created_at: datetime
    body: str = ""
    author: str | None = None
    merged_at: datetime | None = None
    closed_at: datetime | None = None
    additions: int = 0
    deletions: int = 0
    changed_files: int = 0
    labels: list[str] = field(default_factory=list)
    files: list[FileChange] = field(default_factory=list)
    # False when GitHub (or a dataset) gave no file list: no file-based rule may fire then.
    files_known: bool = True
    review_count: int = 0
    comment_count: int = 0
    merged_by: str | None = None
    base_ref: str | None = None
    fetched_at: datetime | None = None

    @property
    def lines(self) -> int:
        return self.additions + self.deletions

    @property
    def size_known(self) -> bool:
        """Whether additions/deletions are real figures: a PR without a file list (a
        title-only import) has 0 / 0 for "unknown", which must never read as "no change"."""
        return self.files_known or self.additions + self.deletions > 0


# Automation accounts: GitHub Apps ("app/…", "…[bot]"), CI service users ("…-ci") and the
# dependency bots as some exports spell them ("dependabotbot" for dependabot[bot]).
_AUTOMATION_PREFIXES = ("app/", "dependabot", "renovate", "pre-commit-ci", "mergify")
_AUTOMATION_SUFFIXES = ("[bot]", "-bot", "-ci", "-robot")


def is_automation(login: str | None) -> bool:
    """An account that is not a person (dependabot, pre-commit.ci, a project's CI user)."""
    if not login:
        return False
    lowered = login.lower()
    return lowered.startswith(_AUTOMATION_PREFIXES) or lowered.endswith(_AUTOMATION_SUFFIXES)


# ---------------------------------------------------------------- analysis results


@dataclass(slots=True)
class ModuleMatch:
    id: str
    rule: str  # human-readable rule that matched, e.g. "path vllm/v1/attention/**" or "tag [ROCm]"
    lines: int = 0  # changed lines in files of this module (primary = most lines)


def _english_reason(key: str, params: dict[str, object]) -> str:
    # Lazy: the message catalogue (bot.core.i18n with babel, ~13 ms) loads only when a
    # reason is read, not wherever the data model is.
    from bot.core.i18n import reason

    return reason("en", key, params)


@dataclass(slots=True, eq=False)
class Flag:
    """A risk flag. Its reason is data, `key` + `params` (bot/analysis/reasons.py), and
    `text` the English rendering: given for a reason without a key, else rendered on the
    first read of `reason` and kept, since most analysed PRs never show theirs (a digest of
    10,000 PRs: ~1 s of English nobody reads)."""

    id: str  # one of FLAG_IDS
    text: str  # English (CONTRACT `flags[].reason`); "" with a key: rendered on first read
    # Message key and parameters for other languages (bot/analysis/reasons.py renders them);
    # an empty key means the reason exists in English only.
    key: str = ""
    params: dict[str, object] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        """The English reason (CONTRACT `flags[].reason`)."""
        self.text = self.text or (self.key and _english_reason(self.key, self.params))
        return self.text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Flag):
            return NotImplemented
        mine = (self.id, self.reason, self.key, self.params)
        return mine == (other.id, other.reason, other.key, other.params)

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value (as @dataclass)


@dataclass(slots=True, eq=False)
class ScoreContribution:
    """One score contribution; its reason is data as a Flag's is (`text`, `key`, `params`)."""

    feature: str  # e.g. "core-path", "size", "claim"
    points: float
    text: str  # "touches the scheduler", "1,450 lines changed" (English); "" with a key
    key: str = ""  # message key in bot/analysis/reasons.py; "" = English only
    params: dict[str, object] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        """The English reason (CONTRACT `score_reasons`), rendered on first read as a Flag's."""
        self.text = self.text or (self.key and _english_reason(self.key, self.params))
        return self.text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreContribution):
            return NotImplemented
        mine = (self.feature, self.points, self.reason, self.key, self.params)
        return mine == (other.feature, other.points, other.reason, other.key, other.params)

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value (as @dataclass)


@dataclass(slots=True)
class Claim:
    text: str  # the claim as stated, e.g. "2.15x throughput"
    factor: float | None = None  # speed-up factor when derivable (2.15, 1.24 for +24%)
    metric: str | None = None  # throughput, latency, TPS, ... when stated


@dataclass(slots=True)
class Analysis:
    modules: list[ModuleMatch]  # primary module first
    kind: str  # one of KIND_IDS
    kind_reason: str
    flags: list[Flag]
    score: float  # 0..10, one decimal
    contributions: list[ScoreContribution]  # largest first
    claims: list[Claim]

    @property
    def module_ids(self) -> list[str]:
        return [m.id for m in self.modules]

    @property
    def primary_module(self) -> str | None:
        return self.modules[0].id if self.modules else None

    @property
    def flag_ids(self) -> list[str]:
        return [f.id for f in self.flags]

    def score_reasons(self, limit: int = 3) -> list[str]:
        positive = [c for c in self.contributions if c.points > 0]
        return [c.reason for c in positive[:limit]]


@dataclass(slots=True)
class AnalyzedPR:
    pr: PullRequest
    analysis: Analysis
