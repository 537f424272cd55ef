"""Fenced takeovers on PostgreSQL: the fleet trials of issue 36.

    nice -n 10 .venv/bin/python -m bench.bench_fencing [--trials 3] [--restarts 2]

Two real `serve` processes (A and B) on one PostgreSQL database, the fake Slack holding one
message of the digest the leader's catch-up posts (a slow Slack: it lands `--hold` seconds
after the fault), then:

1. liveness ended: A's liveness-lock connection is ended (`pg_terminate_backend`) while A
   posts; B is asked for the same digest (`/vllm digest last post` in its channel).
2. scheduler lock ended: A's scheduler-lock connection is ended while A posts.
3. PostgreSQL restarted while A posts (`pg_ctlcluster … restart`; `--restarts 0` skips it:
   it restarts the server for everyone on this machine).
4. idle timeout: the database gets `idle_session_timeout = 8s`, both replicas run
   `--idle-seconds` with the default `leader_retry_seconds` (15) and a digest posted at
   start; counted: elections, and what the log says about it.

Counted per trial: parts posted twice, seconds with two instances running the scheduler
(from each log's "now runs the scheduler" to its "scheduler stopped"), elections, ERROR
lines and tracebacks. Goals: 0 duplicates, 0 s of two leaders, 1 election under the idle
timeout. Needs PostgreSQL (VLLM_BOT_TEST_POSTGRES, default postgres@127.0.0.1:5432); the
serve processes run the tree this file is in (its `python -m bot`), from the current
directory's `bot` when run from another tree's root.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

if TYPE_CHECKING:
    from tests.fakes.gates import Gate
    from tests.fakes.slack import FakeSlack
    from tests.serve.test_e2e_serve import Serve

LEADS = r"now runs the scheduler"
STANDS_BY = r"another instance runs the scheduler"
STOPPED = r"scheduler stopped on this instance"
CHANNEL = "CDIG"
SCHEDULER_KEY = 0x766C6C6D_626F7401  # bot.runtime.leader.SCHEDULER_LOCK_KEY

DIGEST_TARGET = f"""
[[digest.targets]]
platform = "slack"
channel = "{CHANNEL}"
cron = "0 9 * * MON"
catch_up_hours = 200  # the last Monday's run is always inside: the leader posts it at start
"""


@dataclass
class Trial:
    duplicates: int = 0
    missing: int = 0
    two_leaders: float = 0.0
    elections: int = 0
    errors: int = 0
    tracebacks: int = 0
    notes: list[str] = field(default_factory=list)


def _stamp(line: str) -> float | None:
    match = re.match(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})", line)
    if match is None:
        return None
    at = datetime.strptime(match[1], "%Y-%m-%d %H:%M:%S").timestamp()
    return at + int(match[2]) / 1000


def leading_spans(lines: list[str], end: float) -> list[tuple[float, float]]:
    """When one process ran the scheduler, from its log: from "now runs the scheduler" to
    "scheduler stopped", or to the end of the catch-up digest its scheduler had started
    when that digest went on after the stop."""
    spans: list[tuple[float, float]] = []
    since: float | None = None
    digest = False  # a catch-up digest of this process is running
    stopped_at: float | None = None  # leadership ended, its digest still running
    for line in lines:
        at = _stamp(line)
        if at is None:
            continue
        if re.search(r"catching up the run of", line):
            digest = True
        elif re.search(r"digest .*(posted in|incomplete|failed|delivered|held|stopped)", line):
            digest = False
            if stopped_at is not None and since is not None:
                spans.append((since, at))
                since = stopped_at = None
        if re.search(LEADS, line) and since is None:
            since = at
        elif re.search(STOPPED, line) and since is not None and stopped_at is None:
            if digest:
                stopped_at = at
            else:
                spans.append((since, at))
                since = None
    if since is not None:
        spans.append((since, end))
    return spans


def overlap(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> float:
    return sum(max(0.0, min(x1, y1) - max(x0, y0)) for x0, x1 in a for y0, y1 in b)


def score(slack: FakeSlack, trial: Trial, replicas: list[Serve]) -> Trial:
    parts = Counter(
        int(((m.metadata or {}).get("event_payload") or {}).get("part", -1))
        for m in slack.channel_messages(CHANNEL)
    )
    texts = max(parts, default=-1) + 1
    trial.missing = sum(1 for p in range(texts) if parts[p] == 0)
    trial.duplicates = sum(n - 1 for p, n in parts.items() if n > 1 and p >= 0)
    end = time.time()
    spans = [leading_spans(r.lines, end) for r in replicas]
    trial.two_leaders = overlap(spans[0], spans[1])
    trial.elections = sum(len(s) for s in spans)
    for r in replicas:
        trial.errors += sum(1 for line in r.lines if re.search(r"\d ERROR ", line))
        trial.tracebacks += r.log.count("Traceback")
    return trial


async def _admin(url: str) -> Any:
    import asyncpg

    from bot.runtime.leader import asyncpg_dsn

    return await asyncpg.connect(asyncpg_dsn(url), timeout=10)


async def terminate(url: str, query: str, *args: object) -> int:
    """End the backends `query` names (their pids); returns how many."""
    admin = await _admin(url)
    try:
        pids = [row[0] for row in await admin.fetch(query, *args)]
        for pid in pids:
            await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
        return len(pids)
    finally:
        await admin.close()


async def end_liveness(url: str) -> int:
    """End the liveness connection of the instance holding a claim now."""
    admin = await _admin(url)
    try:
        token = await admin.fetchval(
            "SELECT claimed_by FROM deliveries WHERE state = 'claimed' LIMIT 1"
        )
    finally:
        await admin.close()
    if not token:
        return 0
    instance = str(token).split(".")[0]
    return await terminate(
        url,
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1",
        f"vllm-bot instance {instance}",
    )


async def end_scheduler_lock(url: str) -> int:
    return await terminate(
        url,
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND ((classid::bigint << 32) | objid::bigint) = $1",
        SCHEDULER_KEY,
    )


async def restart_postgres(url: str) -> int:
    versions = os.listdir("/etc/postgresql")
    command = ["pg_ctlcluster", "--skip-systemctl-redirect", versions[0], "main", "restart"]
    await asyncio.to_thread(subprocess.run, command, check=True, capture_output=True)
    return 1


@asynccontextmanager
async def database() -> AsyncIterator[str]:
    """A throw-away database, dropped on a connection of its own (a restart in the trial
    ends every connection made before it)."""
    import uuid

    import asyncpg

    from tests.fakes.databases import ADMIN_URL

    name = f"vllm_bot_bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(ADMIN_URL, timeout=10)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    base = ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    try:
        yield f"{base}/{name}"
    finally:
        for _ in range(30):  # PostgreSQL may still be coming back
            try:
                admin = await asyncpg.connect(ADMIN_URL, timeout=10)
            except (OSError, asyncpg.PostgresError):
                await asyncio.sleep(1)
                continue
            try:
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            finally:
                await admin.close()
            break


@asynccontextmanager
async def fleet(
    retry: float, *, hold: int | None = None, idle_timeout: str | None = None
) -> AsyncIterator[tuple[FakeSlack, Gate | None, str, list[Serve]]]:
    """The fakes, a fresh database (with `idle_timeout` as its `idle_session_timeout`), the
    fake Slack holding its `hold`-th message, and the replicas A (leading) and B."""
    from tests.fakes.discord import FakeDiscord
    from tests.fakes.github import FakeGitHub
    from tests.fakes.slack import FakeSlack
    from tests.serve.test_e2e_serve import CONFIG, REPO, pull_requests, running_serve

    config = CONFIG + f"leader_retry_seconds = {retry}\n" + DIGEST_TARGET
    tmp = Path(tempfile.mkdtemp(prefix="bench-fencing-"))
    now = datetime.now(UTC).replace(microsecond=0)
    async with (
        FakeGitHub({REPO: pull_requests(now)}) as github,
        FakeSlack() as slack,
        FakeDiscord() as discord,
        database() as url,
        AsyncExitStack() as stack,
    ):
        slack.channels[CHANNEL] = True
        if idle_timeout is not None:
            admin = await _admin(url)
            try:
                name = url.rsplit("/", 1)[1]
                await admin.execute(
                    f"ALTER DATABASE \"{name}\" SET idle_session_timeout = '{idle_timeout}'"
                )
            finally:
                await admin.close()
        gate = None if hold is None else slack.hold("chat.postMessage", hold)
        fakes = (github, slack, discord)
        env = {"DATABASE_URL": url}
        both = []
        # B may find the lock free already (A's lost to an idle timeout): either line.
        for name, started in (("a", LEADS), ("b", f"{LEADS}|{STANDS_BY}")):
            (tmp / name).mkdir()
            both.append(
                await stack.enter_async_context(
                    running_serve(
                        fakes, tmp / name, "http", env, config_text=config, started=started
                    )
                )
            )
        yield slack, gate, url, both


Fault = Callable[[str], Awaitable[int]]


async def fault_mid_digest(
    fault: Fault, ask_b: bool, hold: float, retry: float, settle: float
) -> Trial:
    """A's catch-up posts the digest; its second message is held; `fault` strikes; the
    message lands `hold` seconds later; both replicas run on for `settle` seconds."""
    import httpx

    from tests.serve.test_e2e_serve import slash

    trial = Trial()
    async with fleet(retry, hold=2) as (slack, gate, url, both):
        assert gate is not None
        a, b = both
        if not await asyncio.to_thread(gate.reached.wait, 120):
            raise SystemExit(f"A never posted its second message:\n{a.log}")
        if not await fault(url):
            trial.notes.append("nothing to end")
        struck = time.monotonic()
        async with httpx.AsyncClient(timeout=120) as client:
            asked = None
            if ask_b:
                asked = asyncio.create_task(slash(client, b, slack, "digest last post", CHANNEL))
            await asyncio.sleep(max(0.0, hold - (time.monotonic() - struck)))
            gate.release()
            if asked is not None:
                await asyncio.wait_for(asked, 120)
        await asyncio.sleep(settle)
        score(slack, trial, both)
    return trial


async def idle_timeout(seconds: float) -> Trial:
    trial = Trial()
    async with fleet(15, idle_timeout="8s") as (slack, _, _url, both):
        await asyncio.sleep(seconds)
        score(slack, trial, both)
        trial.notes.append(f"'lost' lines: {sum(r.log.count('lost') for r in both)}")
    return trial


def line(name: str, trials: list[Trial]) -> str:
    dups = sum(t.duplicates for t in trials)
    missing = sum(t.missing for t in trials)
    two = ", ".join(f"{t.two_leaders:.1f}" for t in trials)
    elections = ", ".join(str(t.elections) for t in trials)
    errors = sum(t.errors for t in trials)
    tracebacks = sum(t.tracebacks for t in trials)
    notes = sorted({n for t in trials for n in t.notes})
    return (
        f"{name}: {len(trials)} trials, {dups} duplicate and {missing} missing parts "
        f"(per trial: {[t.duplicates for t in trials]}), two leaders for [{two}] s, "
        f"elections [{elections}], {errors} ERROR lines, {tracebacks} tracebacks"
        + (f" ({'; '.join(notes)})" if notes else "")
    )


async def bench(args: argparse.Namespace) -> int:
    # A send the bot cuts short leaves the fake Slack a request it cannot read: not news.
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    results: dict[str, list[Trial]] = {}
    cases: list[tuple[str, Fault, bool, int]] = [
        ("liveness ended, B asked", end_liveness, True, args.trials),
        ("scheduler lock ended", end_scheduler_lock, False, args.trials),
        ("PostgreSQL restarted", restart_postgres, False, args.restarts),
    ]
    for name, fault, ask, count in cases:
        if args.only and args.only not in name:
            continue
        results[name] = []
        for _ in range(count):
            trial = await fault_mid_digest(fault, ask, args.hold, args.retry, args.settle)
            results[name].append(trial)
        if results[name]:
            print(line(name, results[name]), flush=True)
    if not args.only or args.only in "idle timeout":
        results["idle timeout"] = [await idle_timeout(args.idle_seconds)]
        print(
            line(f"idle timeout 8 s, {args.idle_seconds:.0f} s", results["idle timeout"]),
            flush=True,
        )
    everything = [t for trials in results.values() for t in trials]
    idle = results.get("idle timeout", [])
    ok = all(t.duplicates == 0 and t.two_leaders == 0 for t in everything) and all(
        t.elections == 1 for t in idle
    )
    print("goals met" if ok else "GOALS MISSED")
    return 0 if ok else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--restarts", type=int, default=2)
    parser.add_argument("--hold", type=float, default=4, help="seconds Slack holds a message")
    parser.add_argument("--retry", type=float, default=5, help="leader_retry_seconds")
    parser.add_argument("--settle", type=float, default=15, help="seconds run after the fault")
    parser.add_argument("--idle-seconds", type=float, default=75)
    parser.add_argument("--only", default="", help="run the cases whose name contains this")
    raise SystemExit(asyncio.run(bench(parser.parse_args())))


if __name__ == "__main__":
    main()
