"""Acknowledgement latency under mixed load: slash commands and GitHub webhooks together.

    .venv/bin/python -m bench.bench_load [--commands 500] [--webhooks 200] [--concurrency 20]

One aiohttp server, as `serve` runs it: the real slack-bolt app on POST /slack/events and the
real webhook receiver on POST /github/webhook, over one SQLite store (migrated, WAL). Slash
commands mix cached `/vllm pr N` (card in the ack, a store read) with uncached ones (the ack
says "looking up…", then GitHub - a 0.3 s fetch - and a store write). Each webhook is a
signed merged-PR delivery whose processing claims the delivery, fetches the PR and submits
it to the real alert pipeline (store writes). Everything is sent at once, `--concurrency` in
flight, so writes contend for SQLite's lock while acks are being measured.

Limits: Slack wants the ack within 3 s, GitHub the webhook answer within 10 s.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import aiohttp
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.latency import percentile, slow_github_app
from bot.alerts.pipeline import AlertPipeline
from bot.alerts.webhook import WebhookReceiver
from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.commands import Context
from bot.commands.context import Backend
from bot.core.models import PullRequest
from bot.slack.app import SlackBot, slack_routes
from bot.slack.poster import slack_client
from bot.store import Store
from bot.sync import fetch_pr
from formatters.slack import render_slack
from tests.alerts.conftest import T0, Clock, Outbox, settings
from tests.commands.fakes import NOW, config, make_pr
from tests.fakes.slack import FakeSlack
from tests.slack.helpers import command_body, signed_headers

SLACK_SECRET = "bench-slack-secret"
HOOK_SECRET = "bench-hook-secret"
REPO = "vllm-project/vllm"


def _payload(number: int) -> dict[str, object]:
    pr = make_pr(number)  # the PR GitHub holds: the receiver fetches it by number
    assert pr.merged_at is not None
    return {
        "action": "closed",
        "number": number,
        "repository": {"full_name": REPO},
        "pull_request": {
            "number": number,
            "title": pr.title,
            "html_url": pr.url,
            "state": "closed",
            "merged": True,
            "merged_at": pr.merged_at.isoformat().replace("+00:00", "Z"),
            "created_at": "2026-05-30T12:00:00Z",
            "user": {"login": "alice"},
            "labels": [{"name": "ready"}],
            "additions": 3,
            "deletions": 1,
            "changed_files": 1,
            "base": {"ref": "main"},
        },
    }


async def run(commands: int, webhooks: int, concurrency: int, latency: float) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="bench-load-"))
    cached_numbers = list(range(1000, 1000 + commands // 2))
    # Odd-numbered commands ask for a PR only GitHub has; each webhook's PR is fetched too.
    uncached = [make_pr(600_000 + index) for index in range(1, commands, 2)]
    hooked = [make_pr(50_000 + index) for index in range(webhooks)]
    async with (
        FakeSlack() as fake,
        await Store.open(f"sqlite+aiosqlite:///{tmp / 'bench.sqlite3'}") as store,
        slow_github_app(store, latency, uncached + hooked) as services,
    ):
        await store.prs.upsert([make_pr(n) for n in cached_numbers])
        base = Context("slack", config(), Backend(services), channel="C1", now=lambda: NOW)
        bot = SlackBot(
            client=slack_client(fake.token, fake.api_url),
            context_for=lambda channel, user: replace(base, channel=channel, user=user),
            store=store.deliveries,
            signing_secret=SLACK_SECRET,
            render=render_slack,
        )
        clock = Clock(T0 + timedelta(minutes=1))
        analyzer = Analyzer(load_ruleset("vllm"))
        pipeline = AlertPipeline(
            store,
            settings(),
            analyzer_for=lambda repo: analyzer,
            sender=Outbox(),
            clock=clock,
        )

        async def fetch(repo: str, number: int) -> PullRequest:
            # What serve's receiver does (bot.alerts.webhook): GitHub's copy, stored.
            return await fetch_pr(store, services.github(), repo, number, refresh=True)

        receiver = WebhookReceiver(
            pipeline, secret=lambda: HOOK_SECRET, fetch_pr=fetch, repos=[REPO]
        )
        app = web.Application()
        app.add_routes(slack_routes(bot))
        app.add_routes(receiver.routes())
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        base_url = f"http://127.0.0.1:{port}"

        command_times: list[float] = []
        hook_times: list[float] = []
        statuses: dict[str, int] = {}
        gate = asyncio.Semaphore(concurrency)
        connector = aiohttp.TCPConnector(limit=concurrency * 2)
        async with aiohttp.ClientSession(connector=connector) as session:

            async def command(index: int) -> None:
                if index % 2 == 0:
                    number = cached_numbers[(index // 2) % len(cached_numbers)]
                else:
                    number = 600_000 + index
                # A burst of many people: one user's share of the queue is 5 commands.
                body = command_body(
                    f"pr {number}", fake.response_url(f"k{index}"), user=f"U{index}"
                )
                headers = signed_headers(
                    body, secret=SLACK_SECRET, content_type="application/x-www-form-urlencoded"
                )
                async with gate:
                    started = time.perf_counter()
                    async with session.post(
                        f"{base_url}/slack/events", data=body, headers=headers
                    ) as r:
                        await r.read()
                        command_times.append(time.perf_counter() - started)
                        statuses[f"slack {r.status}"] = statuses.get(f"slack {r.status}", 0) + 1

            async def webhook(index: int) -> None:
                body = json.dumps(_payload(50_000 + index)).encode()
                signature = (
                    "sha256=" + hmac.new(HOOK_SECRET.encode(), body, hashlib.sha256).hexdigest()
                )
                headers = {
                    "X-Hub-Signature-256": signature,
                    "X-GitHub-Event": "pull_request",
                    "X-GitHub-Delivery": f"delivery-{index}",
                    "Content-Type": "application/json",
                }
                async with gate:
                    started = time.perf_counter()
                    async with session.post(
                        f"{base_url}/github/webhook", data=body, headers=headers
                    ) as r:
                        await r.read()
                        hook_times.append(time.perf_counter() - started)
                        statuses[f"webhook {r.status}"] = statuses.get(f"webhook {r.status}", 0) + 1

            # bolt's one-time auth.test, outside the measurement
            warm = command_body("help", fake.response_url("warm"))
            async with session.post(
                f"{base_url}/slack/events",
                data=warm,
                headers=signed_headers(
                    warm, secret=SLACK_SECRET, content_type="application/x-www-form-urlencoded"
                ),
            ) as r:
                await r.read()
            work = [command(i) for i in range(commands)] + [webhook(i) for i in range(webhooks)]
            random.Random(14).shuffle(work)
            wall = time.perf_counter()
            await asyncio.gather(*work)
            wall = time.perf_counter() - wall
            await bot.drain()
            await receiver.drain()
        await runner.cleanup()
        claimed = len(await _delivery_ids(store))

    print(
        f"{commands} slash commands + {webhooks} webhooks, concurrency {concurrency}, "
        f"SQLite, GitHub {latency:.1f} s; wall {wall:.1f} s"
    )
    print("| answer | n | p50 ms | p95 ms | max ms | limit | over limit |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    ok = True
    for name, values, limit in (
        ("Slack ack (/vllm pr N)", command_times, 3.0),
        ("GitHub webhook", hook_times, 10.0),
    ):
        over = sum(1 for v in values if v > limit)
        ok = ok and over == 0
        print(
            f"| {name} | {len(values)} | {statistics.median(values) * 1000:.1f} | "
            f"{percentile(values, 95) * 1000:.1f} | {max(values) * 1000:.1f} | "
            f"{limit:.0f} s | {over} |"
        )
    print(f"statuses: {dict(sorted(statuses.items()))}; deliveries recorded: {claimed}/{webhooks}")
    ok = ok and claimed == webhooks
    print("limits met" if ok else "LIMITS MISSED")
    return 0 if ok else 1


async def _delivery_ids(store: Store) -> list[str]:
    from sqlalchemy import text

    async with store.session() as session:
        return [
            row[0]
            for row in await session.execute(text("SELECT delivery_id FROM webhook_deliveries"))
        ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=500)
    parser.add_argument("--webhooks", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--github-latency", type=float, default=0.3)
    args = parser.parse_args()
    raise SystemExit(
        asyncio.run(run(args.commands, args.webhooks, args.concurrency, args.github_latency))
    )


if __name__ == "__main__":
    main()
