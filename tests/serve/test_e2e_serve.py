"""`vllm-bot serve` as it is deployed: the real process (`python -m bot serve`), the real
App, backend and platform wiring, talking to the local fakes of GitHub and Slack over HTTP.

Nothing in the bot is replaced: the Slack request is signed with the signing secret as
Slack signs it, the GitHub webhook with HMAC-SHA256 as GitHub does, and what the bot posts
is read back from the fake Slack. Discord's gateway is the fake's too (HELLO, IDENTIFY,
READY), so an INTERACTION_CREATE reaches the bot as it would in production. The scenario
is one deployment's life: a PR lookup, two subscriptions, a merged PR's alert, the weekly
module digest, health, metrics, the archive, then SIGTERM with a clean exit.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import re
import signal
import sys
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest

from bot.runtime.scheduler import week_before
from tests.fakes.discord import FakeDiscord
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import FakeFile, FakePR, make_prs
from tests.fakes.slack import FakeSlack, Message
from tests.slack.helpers import command_body, signed_headers

# The deployed process (signals, drain, exit status): the process boundary is the subject.
pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
REPO = "vllm-project/vllm"
SIGNING_SECRET = "e2e0signing0secret0for0the0fake0slack"
WEBHOOK_SECRET = "e2e webhook secret, as typed in GitHub's settings"
LOOKUP = 41_003  # a PR of last week, looked up with /vllm pr
MERGING = 42_000  # open at start; merged during the test, its webhook alerts
FORM = "application/x-www-form-urlencoded"


def rocm_pr(number: int, merged: datetime) -> FakePR:
    return FakePR(
        number=number,
        title=f"[ROCm] Enable AITER kernels on MI300 ({number})",
        author="rocm-dev",
        created_at=merged - timedelta(days=2),
        updated_at=merged,
        merged_at=merged,
        closed_at=merged,
        body="## Purpose\nROCm support.\n\n## Test Plan\npytest -q\n",
        labels=["rocm"],
        files=[
            FakeFile("vllm/platforms/rocm.py", 40, 3),
            FakeFile("csrc/rocm/attention.cu", 90, 0),
        ],
        merged_by="WoosukKwon",
    )


def pull_requests(now: datetime) -> list[FakePR]:
    """Last week's merges (what the weekly job posts, three of them ROCm) and one open PR."""
    week = week_before(now, UTC)
    prs = make_prs(12, week.start_utc, week.end_utc, seed=13, first_number=41_000)
    prs += [rocm_pr(41_100 + i, week.start_utc + timedelta(days=i + 1)) for i in range(3)]
    prs.append(
        FakePR(
            number=MERGING,
            title="[Attention] Faster paged attention decode",
            author="alice",
            created_at=now - timedelta(days=1),
            updated_at=now - timedelta(hours=1),
            state="OPEN",
            files=[FakeFile("vllm/v1/attention/backends/flash_attn.py", 120, 30)],
        )
    )
    return prs


CONFIG = """\
timezone = "UTC"

[[repos]]
name = "vllm-project/vllm"

[server]
host = "127.0.0.1"
port = 0

[slack]
mode = "http"

[alerts]
batch_window_seconds = 0  # a webhook's alert goes out on the next flush

[digest]
cron = "* * * * *"  # weekly module subscriptions: every minute, so the test sees a run

[serve]
sync_minutes = 0
shutdown_grace_seconds = 10
"""


@dataclass
class Serve:
    """The `vllm-bot serve` process; its stderr (the log) is read as it comes."""

    process: asyncio.subprocess.Process
    lines: list[str] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None
    base: str = ""

    async def _read(self) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self.lines.append(line.decode(errors="replace"))
            self.changed.set()
        self.changed.set()

    def start_reading(self) -> None:
        self.reader = asyncio.create_task(self._read())

    def commands(self) -> list[str]:
        """The log lines of answered commands (one per command, after its answer)."""
        return [line for line in self.lines if re.search(r"command \S+ on \w+: ", line)]

    @property
    def log(self) -> str:
        return "".join(self.lines)

    async def wait_log(self, pattern: str, within: float = 60) -> re.Match[str]:
        compiled = re.compile(pattern)

        async def search() -> re.Match[str]:
            while True:
                for line in self.lines:
                    if match := compiled.search(line):
                        return match
                if self.process.returncode is not None and self.reader and self.reader.done():
                    raise AssertionError(f"serve ended before {pattern!r}:\n{self.log}")
                self.changed.clear()
                await self.changed.wait()

        try:
            return await asyncio.wait_for(search(), within)
        except TimeoutError:
            raise AssertionError(f"no {pattern!r} in serve's log:\n{self.log}") from None


async def until(what: str, check: Callable[[], Any], serve: Serve, within: float = 90) -> Any:
    """Poll a fake's record until `check()` is truthy (waiting for an event, not timing it)."""

    async def poll() -> Any:
        while not (result := check()):
            if serve.process.returncode is not None:
                raise AssertionError(f"serve exited while waiting for {what}:\n{serve.log}")
            await asyncio.sleep(0.05)
        return result

    try:
        return await asyncio.wait_for(poll(), within)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}; serve's log:\n{serve.log}") from None


Fakes = tuple[FakeGitHub, FakeSlack, FakeDiscord]


@pytest.fixture
async def fakes() -> AsyncIterator[Fakes]:
    now = datetime.now(UTC).replace(microsecond=0)
    async with (
        FakeGitHub({REPO: pull_requests(now)}) as github,
        FakeSlack() as slack,
        FakeDiscord() as discord,
    ):
        yield github, slack, discord


@asynccontextmanager
async def running_serve(
    fakes: Fakes,
    tmp_path: Path,
    slack_mode: str,
    overrides: dict[str, str] | None = None,
    args: tuple[str, ...] = (),
    config_text: str = CONFIG,
    started: str = r"now runs the scheduler",
) -> AsyncIterator[Serve]:
    """`python -m bot serve` with every platform configured, until the test ends.
    `overrides` replace environment variables (a platform made unreachable); `args` go
    before `serve` (`--debug`)."""
    github, slack, discord = fakes
    config = tmp_path / "bot.toml"
    config.write_text(
        config_text.replace('mode = "http"', f'mode = "{slack_mode}"')
        + f"\n[discord]\nguild_ids = [{discord.guild_id}]\n"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SLACK_", "DISCORD_", "GITHUB_", "DATABASE_URL"))
    }
    env.update(
        GITHUB_TOKEN=github.token,
        GITHUB_API_URL=github.api_url,
        GITHUB_GRAPHQL_URL=github.graphql_url,
        GITHUB_WEBHOOK_SECRET=WEBHOOK_SECRET,
        SLACK_BOT_TOKEN=slack.token,
        SLACK_API_URL=slack.api_url,
        DISCORD_BOT_TOKEN=discord.token,
        DISCORD_API_URL=discord.api_url,  # the gateway comes from its /gateway/bot
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'serve.sqlite3'}",
    )
    if slack_mode == "http":
        env["SLACK_SIGNING_SECRET"] = SIGNING_SECRET
    else:
        env["SLACK_APP_TOKEN"] = slack.app_token
    env.update(overrides or {})
    # VLLM_BOT_TEST_PROFILE=FILE runs serve under cProfile (benches looking for hot spots).
    profile = os.environ.get("VLLM_BOT_TEST_PROFILE")
    runner = ["-m", "cProfile", "-o", profile] if profile else []
    command = [*runner, "-m", "bot", *args, "--config", str(config), "serve", "--port", "0"]
    process = await asyncio.create_subprocess_exec(
        sys.executable, *command,
        cwd=ROOT, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    running = Serve(process)
    running.start_reading()
    try:
        port = (await running.wait_log(r"listening on http://127\.0\.0\.1:(\d+)"))[1]
        running.base = f"http://127.0.0.1:{port}"
        await running.wait_log(started)
        yield running
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        if running.reader is not None:
            await running.reader


@pytest.fixture
async def serve(fakes: Fakes, tmp_path: Path) -> AsyncIterator[Serve]:
    async with running_serve(fakes, tmp_path, "http") as running:
        yield running


async def slash(
    client: httpx.AsyncClient, serve: Serve, slack: FakeSlack, text: str, channel: str
) -> str:
    """`/vllm text` in `channel`, signed as Slack signs it. Returns everything the user saw:
    the ack and what came through the response_url (the driver answers in the ack when it
    can, else acks with a progress line and follows up)."""
    key = uuid.uuid4().hex
    done = len(serve.commands())
    body = command_body(text, slack.response_url(key), channel=channel)
    response = await client.post(
        f"{serve.base}/slack/events",
        content=body,
        headers=signed_headers(body, secret=SIGNING_SECRET, content_type=FORM),
    )
    assert response.status_code == 200, response.text
    acked = response.json() if response.content else {}
    # The command's log line is written after its last response went out.
    await until(f"/vllm {text} to finish", lambda: len(serve.commands()) > done, serve)
    answers = [b for k, b in slack.responses if k == key]
    return json.dumps([acked, *answers], ensure_ascii=False)


def github_delivery(number: int, merged_at: datetime, title: str) -> tuple[bytes, dict[str, str]]:
    payload = {
        "action": "closed",
        "number": number,
        "repository": {"full_name": REPO},
        "pull_request": {
            "number": number,
            "title": title,
            "html_url": f"https://github.com/{REPO}/pull/{number}",
            "state": "closed",
            "merged": True,
            "merged_at": merged_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "created_at": (merged_at - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "user": {"login": "alice"},
            "labels": [],
            "base": {"ref": "main"},
            "body": "",
        },
    }
    body = json.dumps(payload).encode()
    # As GitHub documents X-Hub-Signature-256 (computed here, not with the bot's helper).
    digest = hmac.new(WEBHOOK_SECRET.encode(), body, hashlib.sha256).hexdigest()
    headers = {
        "Content-Type": "application/json",
        "X-GitHub-Event": "pull_request",
        "X-GitHub-Delivery": str(uuid.uuid4()),
        "X-Hub-Signature-256": f"sha256={digest}",
    }
    return body, headers


def top_level(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m.thread_ts is None]


def message_text(message: Message) -> str:
    return json.dumps({"text": message.text, "blocks": message.blocks}, ensure_ascii=False)


async def test_serve_answers_slack_alerts_on_a_webhook_posts_the_weekly_digest_and_drains(
    serve: Serve, fakes: Fakes
) -> None:
    github, slack, _discord = fakes
    async with httpx.AsyncClient(timeout=30) as client:
        health = await client.get(f"{serve.base}/healthz")
        assert health.status_code == 200

        # Slack: a request without Slack's signature is refused before any command runs.
        body = command_body("pr 1", slack.response_url("forged"), channel="C1")
        forged = await client.post(
            f"{serve.base}/slack/events",
            content=body,
            headers=signed_headers(body, secret="not-the-secret", content_type=FORM),
        )
        assert forged.status_code == 401

        # /vllm pr N: the card, fetched from (fake) GitHub by the real backend.
        card = await slash(client, serve, slack, f"pr {LOOKUP}", "C1")
        looked_up = next(p for p in github.repos[REPO] if p.number == LOOKUP)
        assert f"#{LOOKUP}" in card and looked_up.title in card

        # Subscriptions: instant alerts for attention in C2, the weekly ROCm digest in C1.
        subscribed = await slash(client, serve, slack, "subscribe attention", "C2")
        assert "attention" in subscribed.lower()
        weekly = await slash(client, serve, slack, "subscribe rocm weekly", "C1")
        assert "rocm" in weekly.lower()
        listed = await slash(client, serve, slack, "subscriptions", "C2")
        assert "attention" in listed.lower()

        # GitHub merges the attention PR and delivers the signed webhook.
        # GitHub's times have whole seconds; rounded up, the merge is after the subscription.
        merged_at = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=1)
        title = next(p.title for p in github.repos[REPO] if p.number == MERGING)
        github.touch(REPO, MERGING, state="MERGED", merged_at=merged_at, closed_at=merged_at)
        body, headers = github_delivery(MERGING, merged_at, title)
        unsigned = await client.post(
            f"{serve.base}/github/webhook",
            content=body,
            headers={k: v for k, v in headers.items() if k != "X-Hub-Signature-256"},
        )
        assert unsigned.status_code == 401
        delivered = await client.post(f"{serve.base}/github/webhook", content=body, headers=headers)
        assert delivered.status_code == 202, delivered.text
        alerts = await until("the alert in C2", lambda: slack.channel_messages("C2"), serve)
        assert f"#{MERGING}" in message_text(alerts[0])
        # GitHub's "Redeliver": the same delivery id does nothing again.
        again = await client.post(f"{serve.base}/github/webhook", content=body, headers=headers)
        assert again.status_code == 200

        # The weekly job (every minute here) posts C1's ROCm module digest: one thread.
        digests = await until(
            "the weekly ROCm digest in C1",
            lambda: top_level(slack.channel_messages("C1")),
            serve,
            within=150,
        )
        await serve.wait_log(r"digest \S+ \[rocm\] .* posted in", within=60)
        head = message_text(digests[0])
        assert "ROCm" in head
        rocm_numbers = [p.number for p in github.repos[REPO] if p.title.startswith("[ROCm]")]
        thread = "".join(message_text(m) for m in slack.channel_messages("C1"))
        assert all(str(n) in thread for n in rocm_numbers), thread
        # By now the alert flush has run many times: still exactly one alert, one digest.
        assert len(slack.channel_messages("C2")) == 1
        assert len(top_level(slack.channel_messages("C1"))) == 1
        assert slack.rejections == []

        metrics = (await client.get(f"{serve.base}/metrics")).text
        assert re.search(
            r'^vllm_bot_alerts_posted_total\{platform="slack"\} 1(\.0)?$', metrics, re.M
        )
        assert re.search(
            r'^vllm_bot_digests_posted_total\{platform="slack"\} 1(\.0)?$', metrics, re.M
        )
        ready = await client.get(f"{serve.base}/readyz")
        assert ready.status_code == 200, ready.text

        archive = await client.get(f"{serve.base}/digests/")
        assert archive.status_code == 200
        assert "text/html" in archive.headers["content-type"]
        assert REPO in archive.text

    await stops_cleanly(serve)


async def stops_cleanly(serve: Serve) -> None:
    """SIGTERM: stop taking work, drain, close, exit 0."""
    serve.process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(serve.process.wait(), 60) == 0, serve.log
    assert serve.reader is not None
    await serve.reader
    assert re.search(r"SIGTERM received", serve.log)
    assert "shutting down" in serve.log and "stopped" in serve.log
    assert "Traceback" not in serve.log, serve.log
    assert "cancelled after" not in serve.log


async def test_serve_answers_a_discord_slash_command_from_the_gateway(
    serve: Serve, fakes: Fakes
) -> None:
    github, _slack, discord = fakes
    await asyncio.wait_for(discord.gateway_identified.wait(), 60)
    await serve.wait_log(r"discord: synced \d+ commands to guild")
    assert discord.commands, "the /vllm command group is registered"
    channel = discord.add_channel().id
    done = len(serve.commands())
    options = [{"name": "number", "type": 4, "value": LOOKUP}]
    payload = discord.slash_interaction("pr", options, channel_id=channel)
    await discord.gateway_dispatch("INTERACTION_CREATE", payload)
    await until("/vllm pr on Discord to finish", lambda: len(serve.commands()) > done, serve)
    assert re.search(r"command pr on discord: ok", serve.log), serve.log
    token = payload["token"]
    answered = [r for r in discord.requests if token in r.path]
    assert answered and all(r.status < 300 for r in answered), answered
    title = next(p.title for p in github.repos[REPO] if p.number == LOOKUP)
    sent = json.dumps([r.json for r in answered], ensure_ascii=False)
    # Discord markdown escapes the title's [tag]; the words and the number are as typed.
    assert str(LOOKUP) in sent and title.split("] ", 1)[-1] in sent, sent
    await stops_cleanly(serve)


async def test_serve_in_socket_mode_answers_a_slash_command_over_the_socket(
    fakes: Fakes, tmp_path: Path
) -> None:
    github, slack, _discord = fakes
    async with running_serve(fakes, tmp_path, "socket") as serve:
        await asyncio.wait_for(slack.socket_connected.wait(), 60)
        await serve.wait_log(r"Slack: Socket Mode connected")
        done = len(serve.commands())
        command = dict(parse_qsl(command_body(f"pr {LOOKUP}", slack.response_url("sock"))))
        ack = await slack.socket_request("slash_commands", command)
        await until(
            "/vllm pr over the socket to finish", lambda: len(serve.commands()) > done, serve
        )
        seen = json.dumps(
            [ack, *(b for k, b in slack.responses if k == "sock")], ensure_ascii=False
        )
        title = next(p.title for p in github.repos[REPO] if p.number == LOOKUP)
        assert str(LOOKUP) in seen and title in seen, seen
        await stops_cleanly(serve)


async def test_sigterm_while_a_command_is_answered_drains_it_then_exits_0(
    serve: Serve, fakes: Fakes
) -> None:
    github, slack, _discord = fakes
    number = 41_005
    github.inject(delay=5.0)  # GitHub takes its time with the lookup's first request
    body = command_body(f"pr {number}", slack.response_url("draining"), channel="C1")
    async with httpx.AsyncClient(timeout=30) as client:
        acked = await client.post(
            f"{serve.base}/slack/events",
            content=body,
            headers=signed_headers(body, secret=SIGNING_SECRET, content_type=FORM),
        )
    assert acked.status_code == 200, acked.text
    serve.process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(serve.process.wait(), 60) == 0, serve.log
    assert serve.reader is not None
    await serve.reader
    # It was still being answered when the signal came, and its answer still went out.
    assert re.search(r"shutting down: finishing in-flight work .*/vllm in C1", serve.log), serve.log
    title = next(p.title for p in github.repos[REPO] if p.number == number)
    answers = json.dumps([b for k, b in slack.responses if k == "draining"], ensure_ascii=False)
    assert title in answers, serve.log
    assert "cancelled after" not in serve.log and "Traceback" not in serve.log
