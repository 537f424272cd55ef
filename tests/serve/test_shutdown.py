"""SIGTERM/SIGINT: in-flight posts finish (bounded), then a clean exit."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.core.metrics import Metrics
from bot.core.settings import ServeConfig
from bot.delivery import DeliveryResult
from bot.runtime.integrations import Integrations
from bot.runtime.leader import AlwaysLeader
from bot.runtime.scheduler import digest_document_id
from bot.serve import Server, serve_forever
from tests.serve.conftest import FakeServices, make_config

WEBHOOK = "https://discord.example/api/webhooks/1/secret-webhook-token"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _webhook_in_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_DISCORD_WEBHOOK", WEBHOOK)


def services_with_a_due_digest(store) -> FakeServices:
    # Every minute, catch-up window of a few minutes: the start-up catch-up always has a
    # run to post. A Discord webhook target needs no bot token.
    target = {
        "platform": "discord",
        "channel": "111",
        "cron": "* * * * *",
        "catch_up_hours": 0.05,
        "webhook_url_env": "TEST_DISCORD_WEBHOOK",
    }
    return FakeServices(make_config(digest={"targets": [target]}), store)


class SlowPost:
    """A post that takes `seconds` (None: until cancelled) and then records its part."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.started = asyncio.Event()
        self.finished: list[str] = []
        self.cancelled = False

    async def __call__(self, services: Any, job: Any, window: Any) -> DeliveryResult:
        self.started.set()
        try:
            if self.seconds is None:
                await asyncio.Event().wait()
            else:
                await asyncio.sleep(self.seconds)  # the platform API taking its time
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        document = digest_document_id(job.repo, window.label, job.language)
        await services.store.deliveries.record(document, job.platform, job.channel, 0, 1, "m", None)
        self.finished.append(window.label)
        return DeliveryResult(document, job.platform, job.channel, 1, sent=[0])


def options(post: SlowPost, **kw: Any) -> dict[str, Any]:
    return {
        "port": 0,
        "integrations": Integrations(),
        "leadership": AlwaysLeader(),
        "sync": None,
        "post": post,
        "metrics": Metrics(),
        **kw,
    }


async def test_sigterm_during_a_digest_post_lets_it_finish(store) -> None:
    services = services_with_a_due_digest(store)
    post = SlowPost(0.3)
    task = asyncio.create_task(serve_forever(services, **options(post)))
    await asyncio.wait_for(post.started.wait(), 10)
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(task, 10)  # returned normally: the CLI exits 0
    assert post.finished and not post.cancelled
    document = digest_document_id("vllm-project/vllm", post.finished[0], "en")
    assert await store.deliveries.sent(document, "discord", "111")


async def test_second_signal_skips_the_grace_period(store) -> None:
    services = services_with_a_due_digest(store)
    post = SlowPost(None)
    task = asyncio.create_task(serve_forever(services, **options(post)))
    await asyncio.wait_for(post.started.wait(), 10)
    os.kill(os.getpid(), signal.SIGINT)
    os.kill(os.getpid(), signal.SIGINT)
    # The default grace is 30 s; returning well within 10 s means the second signal cut it.
    await asyncio.wait_for(task, 10)
    assert post.cancelled and not post.finished


async def test_grace_period_bounds_the_wait_and_names_what_was_cancelled(store) -> None:
    services = services_with_a_due_digest(store)
    post = SlowPost(None)
    server = Server(services, **options(post, settings=ServeConfig(shutdown_grace_seconds=0.2)))
    await server.start()
    await asyncio.wait_for(post.started.wait(), 10)
    cancelled = await asyncio.wait_for(server.shutdown(), 10)
    assert len(cancelled) == 1 and cancelled[0].startswith("digest vllm-project/vllm (en)")
    assert post.cancelled
    # Nothing reached the ledger, so the next start posts it.
    assert not server.scheduler.running


async def _read_until(stream: asyncio.StreamReader, pattern: re.Pattern[str]) -> re.Match[str]:
    seen: list[str] = []
    while True:
        line = (await stream.readline()).decode()
        if not line:
            raise AssertionError("process ended before: " + pattern.pattern + "\n" + "".join(seen))
        seen.append(line)
        if match := pattern.search(line):
            return match


@pytest.mark.subprocess
async def test_vllm_bot_serve_process_answers_health_and_exits_0_on_sigterm(
    tmp_path: Path,
) -> None:
    config = tmp_path / "bot.toml"
    config.write_text('[server]\nhost = "127.0.0.1"\nport = 0\n')
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--config",
        str(config),
        "serve",
        "--port",
        "0",
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stderr is not None
        listening = await asyncio.wait_for(
            _read_until(process.stderr, re.compile(r"listening on http://127\.0\.0\.1:(\d+)")), 30
        )
        await asyncio.wait_for(
            _read_until(process.stderr, re.compile(r"now runs the scheduler")), 10
        )
        async with httpx.AsyncClient() as client:
            health = await client.get(f"http://127.0.0.1:{listening[1]}/healthz")
        assert health.status_code == 200
        process.send_signal(signal.SIGTERM)
        rest = (await asyncio.wait_for(process.stderr.read(), 30)).decode()
        assert await asyncio.wait_for(process.wait(), 10) == 0, rest
        assert "stopped" in rest
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
