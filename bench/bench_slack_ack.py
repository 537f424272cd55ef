"""Ack latency of `/vllm pr N` over Slack HTTP mode (signed requests, real slack-bolt app).

    .venv/bin/python bench/bench_slack_ack.py [--requests 200] [--github-latency 0.8]

Everything is real except Slack and GitHub: the bolt AsyncApp behind aiohttp on loopback, a
SQLite store (migrated), the shipped vLLM rule set, the real card and Slack formatter. The
fake Slack Web API answers auth.test and the response_urls; "GitHub" is a fetch that takes
`--github-latency` seconds.

cached:   the PR is in the store; the ack never waits on it (it says "looking up #N…") and
          the card follows at the response_url (goal: ack p95 < 100 ms).
uncached: every request asks for a PR not in the store; the ack must come at once with
          "looking up #N…" while the fetch runs (goal: every ack < 1 s), and the card must
          then arrive at the response_url.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import aiohttp
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.latency import percentile, slow_github_app
from bot.commands import Context
from bot.commands.context import Backend
from bot.slack.app import SlackBot, slack_web_app
from bot.slack.poster import slack_client
from bot.store import Store
from formatters.slack import render_slack
from tests.commands.fakes import NOW, config, make_pr
from tests.fakes.slack import FakeSlack
from tests.slack.helpers import command_body, signed_headers


async def run(requests: int, latency: float) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="bench-slack-"))
    cached_numbers = list(range(1000, 1000 + requests))
    uncached_numbers = [500_000 + i for i in range(requests)]
    async with (
        FakeSlack() as fake,
        await Store.open(f"sqlite+aiosqlite:///{tmp / 'bench.sqlite3'}") as store,
        slow_github_app(store, latency, map(make_pr, uncached_numbers)) as app,
    ):
        await store.prs.upsert([make_pr(n) for n in cached_numbers])
        base = Context("slack", config(), Backend(app), channel="C1", now=lambda: NOW)
        bot = SlackBot(
            client=slack_client(fake.token, fake.api_url),
            context_for=lambda channel, user: replace(base, channel=channel, user=user),
            store=store.deliveries,
            signing_secret="bench-secret",
            render=render_slack,
        )
        runner = web.AppRunner(slack_web_app(bot), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/slack/events"  # type: ignore[union-attr]

        async with aiohttp.ClientSession() as session:

            async def ack(text: str, key: str) -> tuple[float, dict[str, object]]:
                # One user each: a user's share of the queue is 5 commands pending.
                body = command_body(text, fake.response_url(key), user=f"U-{key}")
                headers = signed_headers(
                    body, secret="bench-secret", content_type="application/x-www-form-urlencoded"
                )
                started = time.perf_counter()
                async with session.post(url, data=body, headers=headers) as response:
                    payload = await response.json()
                    assert response.status == 200, payload
                return time.perf_counter() - started, payload

            await ack("help", "warm-up")  # bolt's one-time auth.test
            cached = []
            for n in cached_numbers:
                elapsed, payload = await ack(f"pr {n}", f"c{n}")
                assert payload["text"] == f"looking up #{n}…", payload
                cached.append(elapsed)
            uncached = []
            for n in uncached_numbers:
                elapsed, payload = await ack(f"pr {n}", f"u{n}")
                assert payload["text"] == f"looking up #{n}…", payload
                uncached.append(elapsed)
            await bot.drain()
        await runner.cleanup()
        delivered = sum(1 for key, _ in fake.responses if key.startswith("u"))
        cards = sum(1 for key, _ in fake.responses if key.startswith("c"))

    ms = 1000
    print(f"/vllm pr N over HTTP mode, {requests} sequential signed requests each")
    print("| case | p50 ms | p95 ms | p99 ms | max ms | goal |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, values, goal in (
        ("cached (card follows)", cached, "p95 < 100 ms"),
        (f"uncached (GitHub {latency:.1f} s)", uncached, "every ack < 1 s"),
    ):
        print(
            f"| {name} | {statistics.median(values) * ms:.1f} | "
            f"{percentile(values, 95) * ms:.1f} | {percentile(values, 99) * ms:.1f} | "
            f"{max(values) * ms:.1f} | {goal} |"
        )
    print(
        f"cards delivered to response_url: cached {cards}/{len(cached)}, "
        f"uncached {delivered}/{requests}"
    )
    ok = (
        percentile(cached, 95) < 0.1
        and max(uncached) < 1.0
        and delivered == requests
        and cards == len(cached)
    )
    print("goals met" if ok else "GOALS MISSED")
    return 0 if ok else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--github-latency", type=float, default=0.8)
    args = parser.parse_args()
    raise SystemExit(asyncio.run(run(args.requests, args.github_latency)))


if __name__ == "__main__":
    main()
