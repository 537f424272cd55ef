"""The poller: for installs that cannot receive webhooks (and as a safety net when they
can). Every `alerts.poll_minutes` it lists PRs merged in [last_seen - overlap, now) per
repository and submits them to the same pipeline as the webhook.

The overlap re-reads the end of the previous window because GitHub's search index lags
behind merges: a PR merged at 10:04 may only be searchable at 10:07, after the 10:05 poll.
Re-reading is free of noise because the pipeline skips PRs already handled.

On the very first poll of a repository there is no last seen time; the poller starts at
"now" (minus the overlap) instead of alerting the repository's history.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from bot.alerts.pipeline import AlertPipeline
from bot.core.models import PullRequest
from bot.github.source import NullProgress, fetch_window
from bot.sync import source_for

if TYPE_CHECKING:
    from bot.github.client import GitHubClient
    from bot.store.store import Store

log = logging.getLogger(__name__)


class MergedSource(Protocol):
    async def merged_between(self, repo: str, start: datetime, end: datetime) -> list[PullRequest]:
        """Merged PRs of `repo` with start <= merged_at < end, files included."""
        ...


class GitHubMergedSource:
    """MergedSource over the ingestion layer's window fetch (GraphQL, REST without token)."""

    def __init__(self, github: GitHubClient, store: Store | None) -> None:
        self.github = github
        self.store = store

    async def merged_between(self, repo: str, start: datetime, end: datetime) -> list[PullRequest]:
        found: list[PullRequest] = []

        async def keep(prs: list[PullRequest]) -> None:
            found.extend(prs)

        # Not sync_window: a poll window is not a digest window and must not be recorded as
        # one (nor skipped as "fresh").
        source = source_for(self.github, self.store)
        await fetch_window(source, repo, start, end, on_prs=keep, progress=NullProgress())
        return found


@dataclass(frozen=True, slots=True)
class PollResult:
    repo: str
    start: datetime
    end: datetime
    prs: int
    queued: int


class AlertPoller:
    def __init__(
        self,
        pipeline: AlertPipeline,
        source: MergedSource,
        repos: Sequence[str],
        *,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.pipeline = pipeline
        self.cursors = pipeline.db.cursors
        self.deliveries = pipeline.db.webhooks
        self.source = source
        self.repos = list(repos)
        self.clock = clock or pipeline.clock
        settings = pipeline.settings
        self.interval = timedelta(minutes=settings.poll_minutes)
        self.overlap = timedelta(minutes=settings.overlap_minutes)

    async def poll_repo(self, repo: str) -> PollResult:
        now = self.clock()
        last = await self.cursors.last_seen(repo)
        start = (last or now) - self.overlap
        # Never reach back further than alerts are wanted at all (long downtime).
        start = max(start, now - timedelta(hours=self.pipeline.settings.max_age_hours))
        prs = await self.source.merged_between(repo, start, now)
        submitted = await self.pipeline.submit(prs, source="poll")
        # Recorded only after the pipeline has the PRs: a failed poll is simply redone.
        await self.cursors.set_last_seen(repo, now, now)
        return PollResult(repo, start, now, len(prs), submitted.queued)

    async def poll_once(self) -> list[PollResult]:
        results = []
        for repo in self.repos:
            try:
                results.append(await self.poll_repo(repo))
            except Exception as exc:
                # One repository failing (rate limit, outage) must not starve the others.
                log.warning("alert poll of %s failed: %s; next try in one interval", repo, exc)
        await self.deliveries.prune(self.clock() - timedelta(days=14))
        return results

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await self.poll_once()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self.interval.total_seconds())
