"""Look up one PR: the PR, its analysis and its modules' names, under one freshness policy.

Called by `vllm-bot pr` / `vllm-bot explain` (bot.cli) and `/vllm pr` (bot.commands
handlers, on Slack, Discord and `vllm-bot chat`), so every surface shows the same card for
the same PR at the same moment.

The policy: a merged or closed PR in the store is used as stored (they rarely change); an
open one is used when it was fetched within `github.freshness_minutes`; otherwise it is
fetched from GitHub (and stored), and when GitHub fails the stored copy is shown with a
warning in the log. A PR the store lacks while GitHub is unreachable is `PrUnreachable`,
carrying what the store holds instead.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.core.errors import GitHubError, GitHubUnreachable, NeedsNetwork, PrUnreachable
from bot.core.messages import Text
from bot.core.models import Analysis, PullRequest
from bot.services import Services

if TYPE_CHECKING:
    from bot.analysis.analyzer import Analyzer

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LookedUp:
    pr: PullRequest
    analysis: Analysis
    analyzer: Analyzer

    @property
    def module_names(self) -> Mapping[str, tuple[str, str]]:
        """Module id -> (English name, Chinese name) of the PR's rule set."""
        return self.analyzer.ruleset.module_names()


def _usable(pr: PullRequest, freshness_minutes: int, now: datetime) -> bool:
    if pr.state != "open":
        return True
    fresh = timedelta(minutes=freshness_minutes)
    return pr.fetched_at is not None and now - pr.fetched_at <= fresh


async def _analysed(services: Services, pr: PullRequest, *, offline: bool) -> LookedUp:
    # Lazy: the analysis cache (and the analyzer) stays off commands that analyse no PR.
    from bot.analysis.cache import analyze_stored

    analyzer = await services.analyzer(pr.repo, offline=offline)
    # From the store's cache when valid, as the digest reads it.
    (analysis,) = await analyze_stored(services.store, analyzer, pr.repo, [pr])
    return LookedUp(pr, analysis, analyzer)


async def look_up_pr(
    services: Services, repo: str, number: int, *, now: datetime | None = None
) -> LookedUp:
    """The PR `number` of `repo` (a configured name) under the policy above; raises
    NotFoundError when GitHub has no such PR, PrUnreachable when neither GitHub nor the
    store can answer, GitHubError when GitHub fails otherwise and the store lacks it."""
    stored = await services.store.prs.get(repo, number)
    minutes = services.config.github.freshness_minutes
    if stored is not None and _usable(stored, minutes, now or datetime.now(UTC)):
        # No PR request: a fixed rule set builds no GitHub client either (httpx is a
        # third of a warm lookup's start-up).
        return await _analysed(services, stored, offline=False)
    # Lazy: bot.sync (httpx, ~70 ms) loads only for a PR the store cannot answer.
    from bot.sync import fetch_pr

    try:
        pr = await fetch_pr(services.store, services.github(), repo, number, refresh=True)
    except GitHubError as exc:
        if stored is not None:
            # Better a card from an hour ago than none while GitHub is down.
            log.warning("showing stored %s#%d: GitHub failed: %s", repo, number, exc)
            return await _analysed(services, stored, offline=True)
        if isinstance(exc, GitHubUnreachable):
            raise await _unreachable(services, repo, number, exc) from None
        raise
    return await _analysed(services, pr, offline=False)


async def look_up_pr_locally(
    services: Services, repo: str, number: int, *, now: datetime | None = None
) -> LookedUp:
    """As `look_up_pr` from the store alone (the chat acknowledgement): raises NeedsNetwork
    when the policy says GitHub must be asked."""
    stored = await services.store.prs.get(repo, number)
    minutes = services.config.github.freshness_minutes
    if stored is None or not _usable(stored, minutes, now or datetime.now(UTC)):
        raise NeedsNetwork(
            Text("error.lookup.needs_network", {"repo": repo, "number": str(number)})
        )
    return await _analysed(services, stored, offline=True)


async def _unreachable(
    services: Services, repo: str, number: int, exc: GitHubError
) -> PrUnreachable:
    prs = services.store.prs
    elsewhere = [r for r in await prs.repos_with(number) if r != repo]
    return PrUnreachable(
        exc, repo=repo, number=number, elsewhere=elsewhere, held=await prs.count(repo)
    )
