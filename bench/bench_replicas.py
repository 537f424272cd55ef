"""Several instances on one PostgreSQL database: the trials of issue 24.

    nice -n 10 .venv/bin/python -m bench.bench_replicas [--trials 10]

1. Migrations race: `--starters` processes open the store at once on an empty database
   (what N replicas do at start); a trial fails when any of them exits non-zero.
2. Shared hostname, PID namespaces: two `vllm-bot digest --post` runs at once, each PID 1
   in its own PID namespace (`unshare --pid --fork --mount-proc`, as root) on this one
   hostname, against the fake Slack; the first is held mid-delivery while the second
   runs. Counted: parts missing and duplicated in the channel after both end.
3. Leader killed mid-digest: two `serve` replicas; the leader's catch-up posts a digest
   target's week, its third message is held and the leader is killed (SIGKILL); the
   standby takes over and finishes the thread. Counted: parts missing and duplicated.
4. Outbox after a kill: a real `serve` holds an alert in its batch window, is killed with
   SIGKILL and started again; measured: seconds from the restart's "listening" to the
   alert in the channel.

Needs PostgreSQL (VLLM_BOT_TEST_POSTGRES, default postgres@127.0.0.1:5432).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]


async def migrations_race(trials: int, starters: int) -> tuple[int, int]:
    from tests.fakes.databases import postgres_database
    from tests.serve.test_replicas import start_together

    failures = 0
    for _ in range(trials):
        async with postgres_database() as url:
            results = await start_together(url, starters)
        failures += any(code != 0 for code, _ in results)
    return failures, trials


def shared_hostname(trials: int, tmp: Path, url: str) -> list[tuple[int, int, int, int]]:
    """(missing, duplicates, first exit, second exit) per trial."""
    from tests.fakes.crash import WEEK, CrashRig

    if shutil.which("unshare") is None or os.geteuid() != 0:
        raise SystemExit("shared-hostname trial: needs `unshare` and root (PID namespaces)")
    results = []
    with CrashRig(tmp) as rig:
        rig.env["DATABASE_URL"] = url
        synced = rig.run("sync", "--week", WEEK, "--weeks", "2")
        assert synced.returncode == 0, synced.stderr[-500:]
        parts = rig.parts["slack"]
        for _ in range(trials):
            channel = rig.new_channel("slack")
            command = ["unshare", "--pid", "--fork", "--mount-proc", *rig._args(f"slack:{channel}")]
            # The first run holds part 2 (index 1) while the second one runs.
            gate = rig.slack.hold("chat.postMessage", 2)
            with subprocess.Popen(
                command, env=rig.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            ) as first:
                assert gate.reached.wait(120), "the first run never reached part 2"
                second = subprocess.Popen(
                    command, env=rig.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
                # Let the second run meet the first one's claims, then let both finish.
                time.sleep(3)
                gate.release()
                rig.slack.gates.clear()
                second_exit = second.wait(180)
                first_exit = first.wait(180)
            missing, duplicates, _ = rig.score("slack", channel, parts)
            results.append((missing, duplicates, first_exit, second_exit))
    return results


async def outbox_after_kill(trials: int) -> list[float]:
    from datetime import UTC, datetime

    from tests.fakes.discord import FakeDiscord
    from tests.fakes.github import FakeGitHub
    from tests.fakes.slack import FakeSlack
    from tests.serve.test_e2e_serve import REPO, pull_requests, running_serve, until
    from tests.serve.test_flaky_platforms import HOLDING, kill_with_an_alert_held

    seconds = []
    for _ in range(trials):
        tmp = Path(tempfile.mkdtemp(prefix="bench-outbox-"))
        now = datetime.now(UTC).replace(microsecond=0)
        async with (
            FakeGitHub({REPO: pull_requests(now)}) as github,
            FakeSlack() as slack,
            FakeDiscord() as discord,
        ):
            fakes = (github, slack, discord)
            await kill_with_an_alert_held(fakes, tmp)
            started = time.monotonic()
            async with running_serve(fakes, tmp, "http", config_text=HOLDING) as again:
                await until("alert", lambda: slack.channel_messages("C2"), again, 60)
                seconds.append(time.monotonic() - started)
    return seconds


DIGEST_TARGET = """
[[digest.targets]]
platform = "slack"
channel = "CDIG"
cron = "0 9 * * MON"
catch_up_hours = 200  # the last Monday's run is always inside: the leader posts it at start
"""


async def leader_killed_mid_digest(trials: int) -> list[tuple[int, int, float]]:
    """(missing, duplicates, seconds from the kill to the complete thread) per trial."""
    from collections import Counter
    from datetime import UTC, datetime

    from tests.fakes.databases import postgres_database
    from tests.fakes.discord import FakeDiscord
    from tests.fakes.github import FakeGitHub
    from tests.fakes.slack import FakeSlack
    from tests.serve.test_e2e_serve import CONFIG, REPO, pull_requests, running_serve

    config = CONFIG + "leader_retry_seconds = 1\n" + DIGEST_TARGET
    results = []
    for _ in range(trials):
        tmp = Path(tempfile.mkdtemp(prefix="bench-leader-"))
        for name in ("a", "b"):
            (tmp / name).mkdir()
        now = datetime.now(UTC).replace(microsecond=0)
        async with (
            FakeGitHub({REPO: pull_requests(now)}) as github,
            FakeSlack() as slack,
            FakeDiscord() as discord,
            postgres_database() as url,
        ):
            fakes = (github, slack, discord)
            slack.channels["CDIG"] = True
            env = {"DATABASE_URL": url}
            # The leader's catch-up posts the digest; its third message is held, then the
            # leader is killed with the first two posted.
            gate = slack.hold("chat.postMessage", 3)
            async with (
                running_serve(fakes, tmp / "a", "http", env, config_text=config) as lead,
                running_serve(
                    fakes, tmp / "b", "http", env, config_text=config,
                    started="another instance runs the scheduler",
                ) as standby,
            ):  # fmt: skip
                assert await asyncio.to_thread(gate.reached.wait, 120), lead.log
                lead.process.kill()
                await lead.process.wait()
                killed = time.monotonic()
                gate.release(drop=True)
                await standby.wait_log(r"now runs the scheduler", within=60)
                await standby.wait_log(r"digest .*(posted in|already delivered)", within=120)
                took = time.monotonic() - killed
            parts = Counter(
                int(((m.metadata or {}).get("event_payload") or {}).get("part", -1))
                for m in slack.channel_messages("CDIG")
            )
            texts = max(parts, default=-1) + 1
            missing = sum(1 for p in range(texts) if parts[p] == 0)
            duplicates = sum(n - 1 for p, n in parts.items() if n > 1 and p >= 0)
            results.append((missing, duplicates, took))
    return results


async def bench(args: argparse.Namespace) -> int:
    from tests.fakes.databases import postgres_database

    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    failures, trials = await migrations_race(args.trials, args.starters)
    print(f"migrations race: {failures} failures in {trials} trials of {args.starters} starts")
    async with postgres_database() as url:
        tmp = Path(tempfile.mkdtemp(prefix="bench-replicas-"))
        found = await asyncio.to_thread(shared_hostname, args.trials, tmp, url)
    duplicates = sum(d for _, d, _, _ in found)
    missing = sum(m for m, _, _, _ in found)
    exits = sorted({(a, b) for _, _, a, b in found})
    print(
        f"shared hostname, both PID 1: {duplicates} duplicate and {missing} missing parts in "
        f"{len(found)} trials (exit statuses first/second: {exits})"
    )
    killed = await leader_killed_mid_digest(args.leader_trials)
    print(
        "leader killed mid-digest: "
        + "; ".join(f"{m} missing, {d} duplicates, complete {t:.1f} s after" for m, d, t in killed)
    )
    outbox = await outbox_after_kill(args.outbox_trials)
    print(
        "outbox after SIGKILL: delivered "
        + ", ".join(f"{s:.1f}" for s in outbox)
        + " s after the restart began"
    )
    ok = (
        failures == 0
        and duplicates == 0
        and missing == 0
        and all(m == 0 and d == 0 for m, d, _ in killed)
        and all(s < 10 for s in outbox)
    )
    print("goals met" if ok else "GOALS MISSED")
    return 0 if ok else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--starters", type=int, default=3)
    parser.add_argument("--outbox-trials", type=int, default=3)
    parser.add_argument("--leader-trials", type=int, default=3)
    parser.add_argument("--only-leader", action="store_true", help=argparse.SUPPRESS)
    raise SystemExit(asyncio.run(bench(parser.parse_args())))


if __name__ == "__main__":
    main()
