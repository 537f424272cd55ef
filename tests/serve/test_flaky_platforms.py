"""Flaky platforms and crashes, with the real `serve` process.

A platform that is down never stops the others: with Slack unreachable in Socket Mode,
serve still elects itself leader (scheduler on), connects Discord, answers health checks,
logs one line per connection attempt, names Slack in /readyz and stops on SIGTERM within
its grace period. Alerts held when an instance was killed go out when it starts again,
not at the next poll."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import socket
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from tests.serve.test_e2e_serve import (  # noqa: F401 (fakes: the fixture)
    CONFIG,
    MERGING,
    REPO,
    Fakes,
    fakes,
    github_delivery,
    running_serve,
    slash,
    until,
)


def held_alerts(tmp_path: Path) -> int:
    """Rows in the outbox of the serve under test (its SQLite file, read as is)."""
    with contextlib.closing(sqlite3.connect(tmp_path / "serve.sqlite3", timeout=5)) as db:
        try:
            return int(db.execute("SELECT count(*) FROM held_alerts").fetchone()[0])
        except sqlite3.OperationalError:  # not migrated yet
            return 0


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_slack_down_in_socket_mode_stops_nothing_else(
    fakes: Fakes,  # noqa: F811
    tmp_path: Path,
) -> None:
    _github, _slack, discord = fakes
    unreachable = {"SLACK_API_URL": f"http://127.0.0.1:{closed_port()}/api/"}
    async with running_serve(fakes, tmp_path, "socket", unreachable) as serve:
        # running_serve waited for "now runs the scheduler": leader elected meanwhile.
        await asyncio.wait_for(discord.gateway_identified.wait(), 60)
        await serve.wait_log(r"Slack: Socket Mode cannot connect: .*attempt 2\)", within=30)
        async with httpx.AsyncClient() as client:
            ready = await client.get(f"{serve.base}/readyz")
            metrics = (await client.get(f"{serve.base}/metrics")).text
            health = await client.get(f"{serve.base}/healthz")
        assert health.status_code == 200
        assert ready.status_code == 503
        slack_check = ready.json()["checks"]["slack"]
        assert not slack_check["ok"] and "Socket Mode not connected" in slack_check["detail"]
        assert "vllm_bot_scheduler_leader 1" in metrics
        attempts = [line for line in serve.lines if "Socket Mode cannot connect" in line]
        # One line per attempt, ours: slack_sdk's "The current session () has been abandoned
        # by disconnect() method call" followed each (issue 36).
        assert [line for line in serve.lines if " bot.slack." in line] == attempts
        # One line per attempt, no traceback (that is for --debug).
        assert len(attempts) == len(re.findall(r"attempt \d+\)", "".join(attempts)))
        assert "Traceback" not in serve.log, serve.log
        started = time.monotonic()
        serve.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(serve.process.wait(), 30) == 0, serve.log
        assert time.monotonic() - started < 10  # the grace period in the test config


# A batch window holds a webhook's alert in the outbox for a few seconds.
HOLDING = CONFIG.replace("batch_window_seconds = 0", "batch_window_seconds = 3")


async def kill_with_an_alert_held(fakes: Fakes, tmp_path: Path) -> None:  # noqa: F811
    """A serve on `tmp_path` gets a merge for a subscribed channel and is killed (SIGKILL)
    while the alert waits in its outbox (bench/bench_replicas.py runs it too)."""
    github, slack, _discord = fakes
    async with (
        running_serve(fakes, tmp_path, "http", config_text=HOLDING) as serve,
        httpx.AsyncClient(timeout=30) as client,
    ):
        await slash(client, serve, slack, "subscribe attention", "C2")
        merged_at = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=1)
        title = next(p.title for p in github.repos[REPO] if p.number == MERGING)
        github.touch(REPO, MERGING, state="MERGED", merged_at=merged_at, closed_at=merged_at)
        body, headers = github_delivery(MERGING, merged_at, title)
        delivered = await client.post(f"{serve.base}/github/webhook", content=body, headers=headers)
        assert delivered.status_code == 202, delivered.text
        await until("the alert in the outbox", lambda: held_alerts(tmp_path) > 0, serve, 10)
        serve.process.kill()
        await serve.process.wait()


async def test_held_alerts_go_out_when_a_killed_instance_starts_again(
    fakes: Fakes,  # noqa: F811
    tmp_path: Path,
) -> None:
    slack = fakes[1]
    await kill_with_an_alert_held(fakes, tmp_path)
    assert slack.channel_messages("C2") == []  # still held when the instance died

    async with running_serve(fakes, tmp_path, "http", config_text=HOLDING) as again:
        restarted = time.monotonic()
        # No webhook, no poll (every 10 minutes): the start itself flushes the outbox.
        await until("the held alert in C2", lambda: slack.channel_messages("C2"), again, 10)
        assert time.monotonic() - restarted < 10
        assert len(slack.channel_messages("C2")) == 1
