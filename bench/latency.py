"""Shared by the command-latency benches: a backend over the real store with a GitHub of
fixed latency, and one percentile definition so Slack and Discord figures compare."""

from __future__ import annotations

import asyncio
import math

from bot.store import Store
from tests.commands.fakes import make_pr, real_card


class StoreBackend:
    """cached_pr reads the real store; fetch_pr plays GitHub with a fixed latency."""

    def __init__(self, store: Store, latency: float) -> None:
        self.store = store
        self.latency = latency

    async def cached_pr(self, repo, number):
        return await self.store.prs.get(repo, number)

    async def fetch_pr(self, repo, number):
        await asyncio.sleep(self.latency)
        pr = make_pr(number, repo=repo)
        await self.store.prs.upsert([pr])
        return pr

    async def pr_card(self, pr, language):
        return real_card(pr, language)

    async def digest(self, repo, window, language, *, modules=()):
        raise NotImplementedError

    async def org_digest(self, window, language):
        raise NotImplementedError

    async def version(self, repo):
        raise NotImplementedError

    async def modules(self, repo):
        return []


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile: the smallest value with at least p% of values at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]
