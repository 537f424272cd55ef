"""`vllm-bot serve` under a burst: slash commands and webhooks at once, on SQLite and
PostgreSQL, measured from a separate load-generator process.

    nice -n 10 .venv/bin/python -m bench.bench_serve_load [--commands 200] [--webhooks 200]
        [--rounds 3] [--databases sqlite,postgresql]

Per database: the real `python -m bot serve` (Slack HTTP mode, signing secret, the GitHub
webhook) against the fake Slack and GitHub of tests/fakes, the bench holding the fakes.
Each round a new process (`--generate`) sends every signed `/vllm pr N` and every signed
merged-PR webhook at once (no client-side limit), and reports each request's status and
time to answer; the bench records when each command's answer reaches the fake's
response_url. Figures per round: acks p50/p95/max and how many over Slack's 3 s, answers
(card at the response_url) p95, HTTP 404s, lost (a command with no answer, a webhook
without a 2xx), "busy" answers, and serve's RSS after the round. PostgreSQL needs a local
server (VLLM_BOT_TEST_POSTGRES, default postgres@127.0.0.1:5432); it is skipped otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import hmac
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.latency import percentile

ROOT = Path(__file__).resolve().parents[1]
BUSY = "busy right now"
ACK_LIMIT = 3.0


# ---------------------------------------------------------------------------- generator


def _signed(body: str, secret: str) -> dict[str, str]:
    timestamp = str(int(time.time()))
    base = f"v0:{timestamp}:{body}".encode()
    signature = "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return {
        "X-Slack-Request-Timestamp": timestamp,
        "X-Slack-Signature": signature,
        "Content-Type": "application/x-www-form-urlencoded",
    }


async def generate(plan: dict[str, Any]) -> list[dict[str, Any]]:
    """Send everything in `plan` at once; one record per request."""
    # Lazy: aiohttp is the generator's only need; the bench side never sends.
    from urllib.parse import urlencode

    import aiohttp

    base = plan["base"]
    records: list[dict[str, Any]] = []
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:

        async def command(item: dict[str, Any]) -> None:
            body = urlencode(
                {
                    "command": "/vllm",
                    "text": f"pr {item['number']}",
                    "channel_id": "C1",
                    "user_id": item.get("user", "U1"),
                    "team_id": "T1",
                    "response_url": item["response_url"],
                    "trigger_id": "1.2.3",
                }
            )
            sent = time.time()
            record = {"kind": "command", "key": item["key"], "sent": sent}
            try:
                async with session.post(
                    f"{base}/slack/events", data=body, headers=_signed(body, plan["secret"])
                ) as response:
                    text = await response.text()
                    record |= {"status": response.status, "text": text[:200]}
            except Exception as exc:  # a refused or dropped connection is a lost command
                record |= {"status": 0, "text": type(exc).__name__}
            record["seconds"] = time.time() - sent
            records.append(record)

        async def webhook(item: dict[str, Any]) -> None:
            body = json.dumps(item["payload"]).encode()
            digest = hmac.new(plan["hook_secret"].encode(), body, hashlib.sha256).hexdigest()
            headers = {
                "Content-Type": "application/json",
                "X-GitHub-Event": "pull_request",
                "X-GitHub-Delivery": item["delivery"],
                "X-Hub-Signature-256": f"sha256={digest}",
            }
            sent = time.time()
            record = {"kind": "webhook", "sent": sent}
            try:
                async with session.post(
                    f"{base}/github/webhook", data=body, headers=headers
                ) as response:
                    await response.read()
                    record["status"] = response.status
            except Exception as exc:
                record |= {"status": 0, "text": type(exc).__name__}
            record["seconds"] = time.time() - sent
            records.append(record)

        await asyncio.gather(
            *(command(c) for c in plan["commands"]), *(webhook(w) for w in plan["webhooks"])
        )
    return records


# ---------------------------------------------------------------------------- bench


class TimedResponses(list[tuple[str, Any]]):
    """The fake Slack's response_url record, with when each answer arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived: dict[str, float] = {}
        self.changed = asyncio.Event()

    def append(self, item: tuple[str, Any]) -> None:
        self.arrived.setdefault(item[0], time.time())
        super().append(item)
        self.changed.set()

    async def wait_for(self, keys: set[str], within: float) -> None:
        """Until every key has an answer, or `within` seconds passed."""
        deadline = time.monotonic() + within
        while not keys <= set(self.arrived) and (left := deadline - time.monotonic()) > 0:
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)


def _rss_mib(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _payload(repo: str, pr: Any) -> dict[str, Any]:
    merged = pr.merged_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "action": "closed",
        "number": pr.number,
        "repository": {"full_name": repo},
        "pull_request": {
            "number": pr.number,
            "title": pr.title,
            "html_url": f"https://github.com/{repo}/pull/{pr.number}",
            "state": "closed",
            "merged": True,
            "merged_at": merged,
            "created_at": merged,
            "user": {"login": pr.author},
            "labels": [],
            "base": {"ref": "main"},
            "body": "",
        },
    }


async def one_database(kind: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    # Lazy: the fakes and the serve harness are test code, loaded only when benching.
    from bot.runtime.scheduler import week_before
    from tests.fakes.databases import postgres_database
    from tests.fakes.github import FakeGitHub
    from tests.fakes.prdata import make_prs
    from tests.fakes.slack import FakeSlack
    from tests.serve.test_e2e_serve import (
        REPO,
        SIGNING_SECRET,
        WEBHOOK_SECRET,
        pull_requests,
        running_serve,
    )

    now = datetime.now(UTC).replace(microsecond=0)
    week = week_before(now, UTC)
    lookups = make_prs(args.commands, week.start_utc, week.end_utc, seed=5, first_number=60_000)
    merges = make_prs(args.webhooks * args.rounds, now - timedelta(hours=2), now, seed=6,
                      first_number=70_000)  # fmt: skip
    rows: list[dict[str, Any]] = []
    tmp = Path(tempfile.mkdtemp(prefix=f"bench-serve-{kind}-"))
    async with AsyncExitStack() as stack:
        github = await stack.enter_async_context(
            FakeGitHub({REPO: pull_requests(now) + lookups + merges})
        )
        slack = await stack.enter_async_context(FakeSlack())
        responses = TimedResponses()
        slack.responses = responses
        # Discord is left out: its fake gateway is not what is measured here.
        from tests.fakes.discord import FakeDiscord

        discord = await stack.enter_async_context(FakeDiscord())
        overrides: dict[str, str] = {}
        if kind == "postgresql":
            try:
                overrides["DATABASE_URL"] = await stack.enter_async_context(postgres_database())
            except BaseException as exc:  # pytest.skip when no server answers
                print(f"PostgreSQL skipped: {exc}")
                return []
        serve = await stack.enter_async_context(
            running_serve((github, slack, discord), tmp, "http", overrides)
        )
        # One command first, outside the figures: the first answer after a start loads
        # the analyzer and its rule sets (seconds), which a burst would otherwise share.
        await _warm_up(serve.base, slack, SIGNING_SECRET, pull_requests(now)[0].number)
        for round_ in range(1, args.rounds + 1):
            commands = []
            for index, pr in enumerate(lookups):
                key = f"r{round_}-{pr.number}-{uuid.uuid4().hex[:6]}"
                # A burst of many people: one user's share of the queue is 5 commands.
                commands.append(
                    {
                        "key": key,
                        "number": pr.number,
                        "user": f"U{index}",
                        "response_url": slack.response_url(key),
                    }
                )
            batch = merges[(round_ - 1) * args.webhooks : round_ * args.webhooks]
            webhooks = [
                {"delivery": str(uuid.uuid4()), "payload": _payload(REPO, pr)} for pr in batch
            ]
            plan = {
                "base": serve.base,
                "secret": SIGNING_SECRET,
                "hook_secret": WEBHOOK_SECRET,
                "commands": commands,
                "webhooks": webhooks,
            }
            plan_file = tmp / f"plan-{round_}.json"
            plan_file.write_text(json.dumps(plan))
            generator = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.bench_serve_load", "--generate", str(plan_file),
                cwd=ROOT, stdout=asyncio.subprocess.PIPE,
            )  # fmt: skip
            out, _ = await generator.communicate()
            records = json.loads(out)
            # Answers still on their way: wait for them (bounded), then count the lost.
            keys = {str(c["key"]) for c in commands}
            busy_keys = {
                r["key"] for r in records if r["kind"] == "command" and BUSY in r.get("text", "")
            }
            await responses.wait_for(keys - busy_keys, 30)
            rows.append(
                _row(kind, round_, records, responses, busy_keys, _rss_mib(serve.process.pid))
            )
        if args.log:
            print("".join(serve.lines[-args.log :]))
        serve.process.terminate()
        await serve.process.wait()
    return rows


async def _warm_up(base: str, slack: Any, secret: str, number: int) -> None:
    plan = {
        "base": base,
        "secret": secret,
        "hook_secret": "",
        "commands": [{"key": "warm", "number": number, "response_url": slack.response_url("warm")}],
        "webhooks": [],
    }
    await generate(plan)
    await slack.responses.wait_for({"warm"}, 60)


def _row(
    kind: str,
    round_: int,
    records: list[dict[str, Any]],
    responses: TimedResponses,
    busy: set[str],
    rss: float | None,
) -> dict[str, Any]:
    acks = [r for r in records if r["kind"] == "command"]
    hooks = [r for r in records if r["kind"] == "webhook"]
    ack_times = [r["seconds"] for r in acks if r["status"] == 200]
    answers = [
        responses.arrived[r["key"]] - r["sent"] for r in acks if r["key"] in responses.arrived
    ]
    lost = sum(
        1
        for r in acks
        if r["status"] != 200 or (r["key"] not in responses.arrived and r["key"] not in busy)
    ) + sum(1 for r in hooks if not 200 <= r["status"] < 300)
    return {
        "database": kind,
        "round": round_,
        "commands": len(acks),
        "webhooks": len(hooks),
        "ack_p50": statistics.median(ack_times) if ack_times else None,
        "ack_p95": percentile(ack_times, 95) if ack_times else None,
        "ack_max": max(ack_times) if ack_times else None,
        "acks_over_3s": sum(1 for t in ack_times if t > ACK_LIMIT),
        "answer_p95": percentile(answers, 95) if answers else None,
        "webhook_p95": percentile([r["seconds"] for r in hooks], 95) if hooks else None,
        "http_404": sum(1 for r in records if r["status"] == 404),
        "busy": len(busy),
        "lost": lost,
        "rss_mib": rss,
    }


def _ms(value: float | None) -> str:
    return "unknown" if value is None else f"{value * 1000:.0f}"


def print_table(rows: list[dict[str, Any]]) -> None:
    print(
        "| db | round | ack p50 ms | ack p95 ms | ack max ms | acks > 3 s | answer p95 ms "
        "| webhook p95 ms | 404s | busy | lost | RSS MiB |"
    )
    print("| --- " * 12 + "|")
    for r in rows:
        rss = "unknown" if r["rss_mib"] is None else f"{r['rss_mib']:.0f}"
        print(
            f"| {r['database']} | {r['round']} | {_ms(r['ack_p50'])} | {_ms(r['ack_p95'])} | "
            f"{_ms(r['ack_max'])} | {r['acks_over_3s']} | {_ms(r['answer_p95'])} | "
            f"{_ms(r['webhook_p95'])} | {r['http_404']} | {r['busy']} | {r['lost']} | {rss} |"
        )


async def bench(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for kind in args.databases.split(","):
        rows += await one_database(kind, args)
    load = os.getloadavg()
    print(
        f"{args.commands} `/vllm pr N` + {args.webhooks} webhooks at once per round, "
        f"{args.rounds} rounds; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
        f"({os.cpu_count()} CPUs)"
    )
    print_table(rows)
    ok = all(
        r["acks_over_3s"] == 0
        and r["http_404"] == 0
        and r["lost"] == 0
        and r["answer_p95"] is not None
        and r["answer_p95"] < ACK_LIMIT
        for r in rows
    )
    print("goals met" if ok and rows else "GOALS MISSED")
    return 0 if ok and rows else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--webhooks", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--log", type=int, default=0, help="print serve's last N log lines")
    parser.add_argument("--generate", help=argparse.SUPPRESS)  # the load-generator process
    args = parser.parse_args()
    if args.generate:
        plan = json.loads(Path(args.generate).read_text())
        print(json.dumps(asyncio.run(generate(plan))))
        return
    raise SystemExit(asyncio.run(bench(args)))


if __name__ == "__main__":
    main()
