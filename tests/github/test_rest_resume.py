"""Anonymous REST syncs resume where GitHub's rate limit stopped them (issue 14)."""

from __future__ import annotations

import time

import pytest

from bot.core.errors import RateLimitExhausted
from bot.sync import sync_window
from tests.fakes.prdata import make_prs
from tests.github.conftest import REPO, WEEK


def _refill(fake, limit: int) -> None:
    budget = fake.budgets["anonymous"]
    budget.limit = budget.remaining = limit
    budget.reset = int(time.time()) + 3600


async def test_a_rate_limited_week_resumes_and_says_when_it_completes(fake, store, make_client):
    fake.repos[REPO] = make_prs(40, WEEK.start, WEEK.end, seed=7)
    _refill(fake, 30)
    client = make_client(token=None)

    with pytest.raises(RateLimitExhausted) as stopped:
        await sync_window(store, client, REPO, WEEK)
    # 1 search page + 2 requests per PR: 14 PRs fit in 30 requests, and every one is kept.
    have = await store.prs.count_merged_between(REPO, WEEK.start, WEEK.end)
    assert have == 14
    message = str(stopped.value)
    assert f"stored 14 of 40 PRs of {REPO} 2026-W23, 26 left" in message
    assert "(~53 requests at 30/hour)" in message
    assert "complete around" in message and "local time" in message
    assert len(message) < 300 and "\n" not in message
    assert not await store.windows.is_covered(REPO, WEEK.start_utc, WEEK.end_utc)

    fake.log.clear()
    _refill(fake, 60)
    result = await sync_window(store, client, REPO, WEEK)
    assert result.prs_stored == 40
    assert await store.windows.is_covered(REPO, WEEK.start_utc, WEEK.end_utc)
    pulls = [r for r in fake.log if r.path.startswith(f"/repos/{REPO}/pulls/")]
    # Only the 26 PRs not stored yet are asked for (pulls/N and pulls/N/files each).
    assert len(pulls) == 26 * 2
