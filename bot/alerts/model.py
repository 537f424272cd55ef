"""Value types shared by the alerts modules."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.core.filters import SubscriptionFilters
from bot.core.models import Analysis, PullRequest


@dataclass(frozen=True, slots=True)
class Subscription:
    id: int
    platform: str
    channel: str
    modules: tuple[str, ...]
    filters: SubscriptionFilters
    created_at: datetime
    repo: str | None = None  # None: every watched repository
    language: str | None = None
    created_by: str | None = None
    weekly: bool = False  # a weekly module digest instead of per-PR alerts
    releases: bool = False  # each published release's notes (`/vllm subscribe releases`)

    @property
    def address(self) -> tuple[str, str]:
        return (self.platform, self.channel)


@dataclass(frozen=True, slots=True)
class AlertItem:
    """One PR as it goes into an alert: the card builders take these."""

    pr: PullRequest
    analysis: Analysis
    subscription_ids: tuple[int, ...]  # the channel's subscriptions that matched
