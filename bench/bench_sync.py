"""Requests and wall time of window syncs against the fake GitHub (real HTTP on loopback).

    .venv/bin/python bench/bench_sync.py

Goals (docs/github.md): a cold 250-PR week costs at most 4 requests plus one per extra page
of 100 files; a warm re-sync costs at most 1 request, and 0 within the freshness period.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.fakes, when run as a script

from bot.core.weeks import Window
from bot.github.client import GitHubClient
from bot.store.store import Store
from bot.sync import sync_window
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import make_prs
from tests.fakes.schema import github_schema

REPO = "vllm-project/vllm"
WEEK = Window(datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC), "2026-W23")


async def main() -> None:
    github_schema()  # the fake validates against GitHub's schema: build it outside the timings
    rows: list[tuple[str, int, int, str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        # 250 PRs: two with 250 and 130 files -> 2 + 1 extra file pages.
        week = make_prs(250, WEEK.start, WEEK.end, seed=1, big={7: 250, 120: 130})
        extra_pages = sum((len(p.files) - 1) // 100 for p in week)
        big = make_prs(10_000, WEEK.start, WEEK.end, seed=2, first_number=100_000)
        async with FakeGitHub({REPO: week}) as fake:
            store = await Store.open(f"sqlite+aiosqlite:///{tmp}/week.db")
            async with GitHubClient(
                token=fake.token, api_url=fake.api_url, graphql_url=fake.graphql_url
            ) as client:
                cases: list[tuple[str, timedelta | None, str]] = [
                    ("250-PR week, cold", None, f"<= {4 + extra_pages}"),
                    ("250-PR week, warm (fresh)", None, "0"),
                    ("250-PR week, warm (probe)", timedelta(0), "<= 1"),
                ]
                for label, freshness, goal in cases:
                    started = time.perf_counter()
                    result = await sync_window(store, client, REPO, WEEK, freshness=freshness)
                    rows.append(
                        (
                            label,
                            result.prs_stored,
                            result.requests,
                            goal,
                            time.perf_counter() - started,
                        )
                    )
            await store.close()
        async with FakeGitHub({REPO: big}) as fake:
            store = await Store.open(f"sqlite+aiosqlite:///{tmp}/big.db")
            async with GitHubClient(
                token=fake.token, api_url=fake.api_url, graphql_url=fake.graphql_url
            ) as client:
                started = time.perf_counter()
                result = await sync_window(store, client, REPO, WEEK)
                elapsed = time.perf_counter() - started
                splits = sum(1 for r in fake.log if r.operation == "SearchMergedPullRequests")
                rows.append(
                    (
                        "10,000-PR week, cold (split)",
                        result.prs_stored,
                        result.requests,
                        f">= {10_000 // 100} ({splits} searches)",
                        elapsed,
                    )
                )
                started = time.perf_counter()
                result = await sync_window(store, client, REPO, WEEK, freshness=timedelta(0))
                rows.append(
                    (
                        "10,000-PR week, warm (probe)",
                        result.prs_stored,
                        result.requests,
                        "<= 1",
                        time.perf_counter() - started,
                    )
                )
            await store.close()

    print(f"{'case':<30} {'PRs':>6} {'requests':>9} {'goal':>22} {'seconds':>8}")
    for label, prs, requests, goal, seconds in rows:
        print(f"{label:<30} {prs:>6} {requests:>9} {goal!s:>22} {seconds:>8.2f}")


if __name__ == "__main__":
    asyncio.run(main())
