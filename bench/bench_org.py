"""The organisation digest: GitHub requests (one search vs one sync per repository) and the
digest build time for 10 repositories.

    .venv/bin/python -m bench.bench_org                  # requests + build, 10 x 100 and x 1,000
    .venv/bin/python -m bench.bench_org --big-requests --skip-build   # 10 x 1,000 requests

Requests are counted against the local GitHub fake (tests/fakes/github.py), on an empty
store each time. The build runs `build_org_for_window(..., sync=False)` on a store that
holds the week, the week before and `--history` earlier weeks for every repository
(synthetic PRs, SQLite in a temp dir): cold (rules run, analyses cached) and warm.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.bench_digest import WINDOW, synthetic_prs
from bot.app import App
from bot.core.config import Config, Environment
from bot.core.models import PullRequest
from bot.core.weeks import Window
from bot.digest.history import chain
from bot.digest.org import OrgDigest, build_org_for_window
from bot.digest.pipeline import render_digest
from bot.github.client import GitHubClient
from bot.store import Store
from bot.sync import sync_scope, sync_window
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import make_prs

WEEK = Window(datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC), "2026-W23")
ORG = "vllm-project"


async def _requests(sizes: list[int], big: dict[int, int] | None = None) -> tuple[int, int]:
    repos = {
        f"{ORG}/r{i}": make_prs(n, WEEK.start, WEEK.end, seed=i, big=big if i == 0 else None)
        for i, n in enumerate(sizes)
    }
    counts = []
    async with FakeGitHub(repos) as fake:
        for scoped in (True, False):
            with tempfile.TemporaryDirectory() as tmp:
                store = await Store.open(f"sqlite+aiosqlite:///{Path(tmp) / 's.sqlite3'}")
                client = GitHubClient(
                    token=fake.token, api_url=fake.api_url, graphql_url=fake.graphql_url
                )
                before = len(fake.log)
                if scoped:
                    await sync_scope(store, client, WEEK, org=ORG)
                else:
                    for repo in repos:
                        await sync_window(store, client, repo, WEEK)
                counts.append(len(fake.log) - before)
                await client.aclose()
                await store.close()
    return counts[0], counts[1]


async def requests(big_requests: bool) -> None:
    cases = [
        ("2 repos (250 + 80 PRs, one PR of 180 files)", [250, 80], {3: 180}),
        ("10 repos x 30 PRs", [30] * 10, None),
        ("10 repos x 100 PRs", [100] * 10, None),
        ("5 repos x 1..5 PRs + vllm 250", [250, 1, 2, 3, 5, 4], None),
    ]
    if big_requests:
        cases.append(("10 repos x 1,000 PRs", [1000] * 10, None))
    print("| repositories | one org search | one sync per repo |")
    print("|---|---:|---:|")
    for label, sizes, big in cases:
        scoped, single = await _requests(sizes, big)
        print(f"| {label} | {scoped} | {single} |")


def _week_prs(repo: str, count: int, window: Window, seed: int, first: int) -> list[PullRequest]:
    prs = synthetic_prs(count, first, seed)
    shift = WINDOW.start - window.start
    for pr in prs:
        pr.repo = repo
        pr.url = f"https://github.com/{repo}/pull/{pr.number}"
        assert pr.merged_at is not None  # synthetic PRs are merged ones
        pr.merged_at -= shift
        pr.created_at -= shift
    return prs


async def build(repos: int, per_repo: int, history: int) -> None:
    names = [f"{ORG}/vllm"] + [f"{ORG}/r{i}" for i in range(1, repos)]
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(f"sqlite+aiosqlite:///{Path(tmp) / 'org.sqlite3'}")
        started = time.perf_counter()
        spans = chain(WINDOW, history + 2)
        for r, name in enumerate(names):
            for w, span in enumerate(spans):
                prs = _week_prs(name, per_repo, span, seed=r * 100 + w, first=100_000 + w * 10_000)
                await store.prs.upsert(prs)
                await store.windows.mark(
                    name, span.start_utc, span.end_utc, complete=True, pr_count=len(prs)
                )
        stored = repos * per_repo * len(spans)
        print(f"store {stored:,} PRs ({len(spans)} weeks): {time.perf_counter() - started:.1f} s")
        config = Config.model_validate(
            {
                "repos": [{"name": names[0], "modules": "vllm"}],
                "digest": {
                    "history_weeks": history,
                    "targets": [{"platform": "slack", "channel": "C", "org": ORG}],
                },
            }
        )
        # GitHub is never asked (sync=False); an unreachable URL proves it.
        env = Environment(
            github_api_url="http://127.0.0.1:9", github_graphql_url="http://127.0.0.1:9"
        )
        services = App(config=config, env=env, store=store)
        for label in ("cold", "warm"):
            started = time.perf_counter()
            target = config.digest.org_target()
            assert target is not None
            built = await build_org_for_window(services, target, WINDOW, "en", sync=False)
            render_digest(built, "markdown")
            assert isinstance(built.digest, OrgDigest)
            seconds = time.perf_counter() - started
            print(
                f"{repos} repos x {per_repo:,} PRs, {history} history weeks, {label}: "
                f"{seconds:.2f} s ({built.digest.totals.merged:,} PRs, "
                f"{len(built.digest.cross_themes)} cross-repo themes)"
            )
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--big-requests", action="store_true")
    parser.add_argument("--history", type=int, default=8)
    parser.add_argument("--skip-requests", action="store_true")
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    if not args.skip_requests:
        await requests(args.big_requests)
    if not args.skip_build:
        for per_repo in (100, 1000):
            await build(10, per_repo, args.history)


if __name__ == "__main__":
    asyncio.run(main())
