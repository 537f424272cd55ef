"""What the command layer needs from the rest of the bot, as small protocols.

Adapters (Slack, Discord, `vllm-bot chat`) build one `Context` per command: who typed it,
where, and a `Backend` that reaches the store, GitHub, the analyzer and the digest. Keeping
these as protocols lets every platform share one implementation and lets tests use fakes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol, runtime_checkable

from bot.core.config import Config
from bot.core.document import Document
from bot.core.filters import SubscriptionFilters
from bot.core.models import PullRequest
from bot.core.weeks import Window


@dataclass(frozen=True, slots=True)
class ModuleInfo:
    id: str
    name_en: str
    name_zh: str = ""
    rule: str = ""  # a short human description of what assigns the module

    def name(self, language: str) -> str:
        return (self.name_zh if language == "zh" else self.name_en) or self.name_en or self.id


@dataclass(frozen=True, slots=True)
class VersionInfo:
    """What `/vllm version` shows; None where it cannot be known (shown as unknown)."""

    bot: str | None
    ruleset: str | None
    schema: str | None


@runtime_checkable
class Backend(Protocol):
    """The bot's data and services as the command layer sees them.

    Methods named `cached_*` must answer from local state only (no network): adapters call
    them inside the 3-second acknowledgement window.
    """

    async def cached_pr(self, repo: str, number: int) -> PullRequest | None:
        """The stored PR when it is fresh enough to show without asking GitHub."""

    async def fetch_pr(self, repo: str, number: int) -> PullRequest:
        """The PR from the store or GitHub; raises NotFoundError / GitHubError."""

    async def pr_card(self, pr: PullRequest, language: str) -> Document:
        """Analysis plus card of one PR."""

    async def digest(
        self, repo: str, window: Window, language: str, *, modules: Sequence[str] = ()
    ) -> Document:
        """The weekly digest document (may sync from GitHub first); `modules` non-empty:
        a module digest over those modules' PRs."""

    async def org_digest(self, window: Window, language: str) -> Document:
        """The configured organisation's digest; raises UsageError when there is none."""

    async def version(self, repo: str) -> VersionInfo:
        """Bot version, rule-set version of `repo` and the store's schema revision (local)."""

    async def modules(self, repo: str) -> Sequence[ModuleInfo]:
        """The module catalogue of `repo`'s rule set (local: rule sets are files)."""

    async def release(
        self, repo: str, tag: str | None, language: str, *, card: bool = True
    ) -> Document:
        """The release card of `tag` (the newest release when None), or with `card=False`
        its full release notes; raises UsageError for an unknown tag."""

    async def cached_holdings(self, repo: str, number: int) -> tuple[list[str], int]:
        """What the store holds, for a lookup GitHub cannot answer: the repositories whose
        #`number` is stored, and how many PRs of `repo` it holds (local)."""


@dataclass(frozen=True, slots=True)
class SubscriptionInfo:
    id: str
    modules: tuple[str, ...]
    filters: SubscriptionFilters = field(default_factory=SubscriptionFilters)
    created_by: str | None = None
    created: bool = True  # False: the channel already had exactly this subscription
    weekly: bool = False  # a weekly module digest instead of per-PR alerts
    releases: bool = False  # each published release's notes

    def describe(self) -> str:
        filters = self.filters.describe()
        return f"#{self.id}: {', '.join(self.modules)}" + (f"  {filters}" if filters else "")


@runtime_checkable
class SubscriptionService(Protocol):
    """Per-(platform, channel) subscriptions; implemented by the alerts work (issue 8).

    Calls must be local (store only): the command layer answers them in the ack. Permission
    or validation problems are raised as `bot.core.errors.UsageError` with a message for the user.
    """

    async def subscribe(
        self,
        *,
        platform: str,
        channel: str,
        user: str | None,
        modules: Sequence[str],
        filters: SubscriptionFilters,
        weekly: bool = False,
        releases: bool = False,
    ) -> SubscriptionInfo: ...

    async def unsubscribe(
        self, *, platform: str, channel: str, user: str | None, target: str, kind: str
    ) -> int:
        """Remove matching subscriptions; `kind` is "all", "id" or "module". Returns count."""

    async def list(self, *, platform: str, channel: str) -> Sequence[SubscriptionInfo]: ...


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Context:
    platform: str  # "slack" | "discord" | "cli"
    config: Config
    backend: Backend
    channel: str | None = None
    user: str | None = None
    language: str | None = None  # the channel's language; None: config.language
    subscriptions: SubscriptionService | None = None
    now: Callable[[], datetime] = _utcnow
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("bot.commands"))

    @property
    def lang(self) -> str:
        return self.language or self.config.language

    @property
    def default_repo(self) -> str:
        return self.config.repos[0].name

    def watched_repo(self, name: str) -> str | None:
        """The configured spelling of `name` when it is watched, else None."""
        for repo in self.config.repos:
            if repo.name.lower() == name.lower():
                return repo.name
        return None


def channel_language(config: Config, platform: str, channel: str | None) -> str | None:
    """A channel's language from its digest target, so replies match the channel's digest."""
    for target in config.digest.targets:
        if target.platform == platform and target.channel == channel and target.language:
            return target.language
    return None
