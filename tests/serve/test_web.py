"""/healthz, /readyz and /metrics over real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from aiohttp import web

from bot.core.config import Environment
from bot.core.metrics import Metrics
from bot.core.settings import ServeConfig
from bot.core.tasks import Admission, AdmissionTicket
from bot.delivery import DeliveryResult
from bot.platform import Route
from bot.runtime.integrations import Integrations
from bot.runtime.leader import AlwaysLeader
from bot.serve import Server
from tests.serve.conftest import FakeServices, make_config
from tests.serve.fakes import SLACK_TOKEN, FakeAPIs

SAMPLE = re.compile(r'^[a-z_]+(\{([a-z_]+="[^"]*",?)+\})? (-?[0-9.]+(e[+-]?[0-9]+)?|\+Inf|NaN)$')


async def _start(services: FakeServices, metrics: Metrics, **kw) -> Server:
    server = Server(
        services,
        integrations=kw.pop("integrations", Integrations()),
        leadership=AlwaysLeader(),
        metrics=metrics,
        sync=None,
        settings=ServeConfig(readiness_cache_seconds=0),
        **kw,
    )
    await server.start()
    return server


@pytest.fixture
async def running(store) -> AsyncIterator[tuple[Server, Metrics]]:
    metrics = Metrics()
    server = await _start(FakeServices(make_config(), store), metrics)
    yield server, metrics
    await server.shutdown()


async def test_healthz_answers_without_external_services(running) -> None:
    server, _ = running
    async with httpx.AsyncClient() as client:
        response = await client.get(f"http://127.0.0.1:{server.port}/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_readyz_is_503_with_each_check_when_github_is_unreachable(running) -> None:
    server, _ = running
    async with httpx.AsyncClient() as client:
        response = await client.get(f"http://127.0.0.1:{server.port}/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["ready"] is False
    assert body["checks"]["store"] == {"ok": True, "detail": "reachable"}
    assert body["checks"]["github"]["ok"] is False
    assert "cannot reach" in body["checks"]["github"]["detail"]


async def test_readyz_ready_with_github_and_slack_logged_in(store, fake_apis: FakeAPIs) -> None:
    metrics = Metrics()
    services = FakeServices(
        make_config(slack={"mode": "http"}),
        store,
        Environment(slack_bot_token=SLACK_TOKEN, slack_signing_secret="signing-secret-x"),
    )
    server = await _start(services, metrics)
    try:
        async with httpx.AsyncClient() as client:
            ready = await client.get(f"http://127.0.0.1:{server.port}/readyz")
            scraped = await client.get(f"http://127.0.0.1:{server.port}/metrics")
    finally:
        await server.shutdown()
    assert ready.status_code == 200, ready.text
    checks = ready.json()["checks"]
    assert set(checks) == {"store", "github", "slack"}
    assert checks["slack"]["detail"] == "bot vllm-bot in workspace vLLM"
    # The rate limit seen by the readiness probe is exported.
    assert "vllm_bot_github_rate_limit_remaining 4999" in scraped.text


async def test_readyz_turns_503_while_shutting_down(store, fake_apis: FakeAPIs) -> None:
    server = await _start(FakeServices(make_config(), store), Metrics())
    try:
        server.readiness.draining = True
        async with httpx.AsyncClient() as client:
            response = await client.get(f"http://127.0.0.1:{server.port}/readyz")
    finally:
        await server.shutdown()
    assert response.status_code == 503
    assert response.json()["checks"]["shutdown"] == {"ok": False, "detail": "shutting down"}


async def test_metrics_exposition(running) -> None:
    server, metrics = running
    metrics.digests_posted.inc(platform="slack")
    metrics.alerts_posted.inc(3, platform="discord")
    metrics.errors.inc(kind="github")
    with metrics.command("slack", "pr"):
        pass
    with pytest.raises(ValueError), metrics.command("discord", "digest"):
        raise ValueError("boom")
    async with httpx.AsyncClient() as client:
        response = await client.get(f"http://127.0.0.1:{server.port}/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    text = response.text
    for line in text.splitlines():
        assert line.startswith("# HELP ") or line.startswith("# TYPE ") or SAMPLE.match(line), line
    assert 'vllm_bot_digests_posted_total{platform="slack"} 1' in text
    assert 'vllm_bot_alerts_posted_total{platform="discord"} 3' in text
    assert 'vllm_bot_errors_total{kind="github"} 1' in text
    assert 'vllm_bot_errors_total{kind="internal"} 1' in text
    assert "# TYPE vllm_bot_command_duration_seconds histogram" in text
    assert (
        'vllm_bot_command_duration_seconds_bucket{platform="slack",command="pr",le="+Inf"} 1'
        in (text)
    )
    assert 'vllm_bot_command_duration_seconds_count{platform="discord",command="digest"} 1' in text
    assert "vllm_bot_scheduler_leader 1" in text


async def test_platform_routes_are_mounted(store) -> None:
    async def events(request: web.Request) -> web.Response:
        return web.json_response({"got": await request.json()})

    integrations = Integrations(routes=[Route("POST", "/github/webhook", events)])
    server = await _start(FakeServices(make_config(), store), Metrics(), integrations=integrations)
    try:
        async with httpx.AsyncClient() as client:
            response = await client.post(
                f"http://127.0.0.1:{server.port}/github/webhook", json={"zen": "hi"}
            )
            missing = await client.post(f"http://127.0.0.1:{server.port}/slack/events", json={})
    finally:
        await server.shutdown()
    assert response.json() == {"got": {"zen": "hi"}}
    assert missing.status_code == 404


async def test_scheduled_posts_are_counted_in_metrics(store) -> None:
    metrics = Metrics()
    target = {"platform": "slack", "channel": "C0123", "cron": "0 9 * * MON"}
    services = FakeServices(
        make_config(digest={"targets": [target]}, slack={"mode": "http"}),
        store,
        Environment(slack_bot_token=SLACK_TOKEN, slack_signing_secret="signing-secret-x"),
    )
    posted: list[str] = []

    async def post(_services, job, window) -> DeliveryResult:
        posted.append(window.label)
        return DeliveryResult(job.document_id(window.label), job.platform, job.channel, 1, sent=[0])

    server = Server(
        services,
        integrations=Integrations(),
        leadership=AlwaysLeader(),
        metrics=metrics,
        sync=None,
        post=post,
        catch_up=False,
    )
    server.jobs.clock = lambda: datetime(2026, 6, 8, 7, 5, tzinfo=UTC) + timedelta(0)
    assert await server.jobs.run_digest("digest:slack:C0123:vllm-project/vllm:en") == "posted"
    assert posted == ["2026-W23"]
    assert 'vllm_bot_digests_posted_total{platform="slack"} 1' in metrics.render()


def _sample(text: str, name: str) -> float | None:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


async def test_metrics_show_the_command_queue_and_the_database_pool(running) -> None:
    server, _ = running
    admission = Admission(1, 2)
    working, waiting = admission.ticket(), admission.ticket()
    assert isinstance(working, AdmissionTicket) and isinstance(waiting, AdmissionTicket)
    await working.__aenter__()
    try:
        async with httpx.AsyncClient() as client:
            text = (await client.get(f"http://127.0.0.1:{server.port}/metrics")).text
    finally:
        waiting.cancel()
        await working.__aexit__(None, None, None)
    # Other tests' bots may still be alive in this process: ours are counted among them.
    depth, running_now = (
        _sample(text, "vllm_bot_command_queue_depth"),
        _sample(text, "vllm_bot_commands_running"),
    )
    assert depth is not None and depth >= 1
    assert running_now is not None and running_now >= 1
    size, in_use = _sample(text, "vllm_bot_db_pool_size"), _sample(text, "vllm_bot_db_pool_in_use")
    assert size is not None and size >= 1
    assert in_use is not None and 0 <= in_use <= size


async def raw_status(port: int, target: str) -> int:
    """The status of a request no HTTP client library would send."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET {target} HTTP/1.1\r\nHost: bot\r\n\r\n".encode())
        await writer.drain()
        return int((await reader.readline()).split()[1])
    finally:
        writer.close()


async def test_over_long_urls_and_headers_are_414_and_431_with_one_log_line(
    running, caplog: pytest.LogCaptureFixture
) -> None:
    server, _ = running
    base = f"http://127.0.0.1:{server.port}"
    caplog.set_level(logging.INFO)
    async with httpx.AsyncClient() as client:
        urls = [await client.get(f"{base}/healthz?q={'x' * (9000 + i)}") for i in range(20)]
        headers = [
            await client.get(f"{base}/healthz", headers={"X-Junk": "y" * 9000}) for _ in range(20)
        ]
        # Past what the parser reads at all: aiohttp's 400, still without its traceback.
        huge = await raw_status(server.port, f"/healthz?q={'z' * 70_000}")
        fine = await client.get(f"{base}/healthz?q={'x' * 100}")
    assert {r.status_code for r in urls} == {414}
    assert {r.status_code for r in headers} == {431}
    assert huge == 400 and fine.status_code == 200
    lines = [r for r in caplog.records if r.name.startswith(("bot.web", "aiohttp"))]
    assert all(r.exc_info is None for r in lines)
    assert all(r.levelno < logging.ERROR for r in lines)
    # One line per kind (the interval is a minute), whatever the number of requests.
    assert sorted(r.getMessage().split(":")[0] for r in lines) == [
        "HTTP 400",
        "HTTP 414",
        "HTTP 431",
    ]
