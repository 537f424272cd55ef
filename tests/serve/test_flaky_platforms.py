"""A platform that is down never stops the others: `serve` with Slack unreachable in
Socket Mode still elects itself leader (scheduler on), connects Discord, answers
webhooks and health checks, logs one line per connection attempt, names Slack in
/readyz, and stops on SIGTERM within its grace period."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import time
from pathlib import Path

import httpx

from tests.serve.test_e2e_serve import Fakes, fakes, running_serve  # noqa: F401 (fixture)


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
        # One line per attempt, no traceback (that is for --debug).
        assert len(attempts) == len(re.findall(r"attempt \d+\)", "".join(attempts)))
        assert "Traceback" not in serve.log, serve.log
        started = time.monotonic()
        serve.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(serve.process.wait(), 30) == 0, serve.log
        assert time.monotonic() - started < 10  # the grace period in the test config
