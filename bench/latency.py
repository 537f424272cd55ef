"""Shared by the command-latency benches: a backend over the real store with a GitHub of
fixed latency, and one percentile definition so Slack and Discord figures compare."""

from __future__ import annotations

import asyncio
import math

from bot.core.errors import NeedsNetwork
from bot.store import Store
from tests.commands.fakes import make_pr, real_card


class StoreBackend:
    """local_card reads the real store; card plays GitHub with a fixed latency when the
    store lacks the PR (`bot.commands.Backend` as the latency benches need it)."""

    def __init__(self, store: Store, latency: float) -> None:
        self.store = store
        self.latency = latency

    async def local_card(self, repo, number, language):
        pr = await self.store.prs.get(repo, number)
        if pr is None:
            raise NeedsNetwork
        return real_card(pr, language)

    async def card(self, repo, number, language):
        pr = await self.store.prs.get(repo, number)
        if pr is None:
            await asyncio.sleep(self.latency)
            pr = make_pr(number, repo=repo)
            await self.store.prs.upsert([pr])
        return real_card(pr, language)

    async def digest(self, scope, window, language):
        raise NotImplementedError

    async def version(self, repo):
        raise NotImplementedError

    async def modules(self, repo):
        return []


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile: the smallest value with at least p% of values at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]
