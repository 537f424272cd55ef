"""Crash trials: SIGKILL a real `vllm-bot digest --post` mid-delivery, re-run it at once, and
count what reached the (fake) platform. Shared by tests/core/test_crash_delivery.py and
bench/bench_crash.py.

A trial holds one request of the delivery in the fake (a gate), kills the CLI while it
waits, then releases the request:

- "boundary": held before it takes effect and then dropped, as if the process died
  between parts (its claim is in the ledger, the platform never saw the part);
- "inside": held after the platform accepted it, before the answer: the process dies
  between the send and its ledger record, the case that used to duplicate a part.

Every part is identified on the platform by what the bot attaches to it: Slack message
metadata (document, part), the Discord nonce, the chart's file name.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.discord.poster import part_nonce
from tests.fakes.background import BackgroundFake
from tests.fakes.discord import FakeDiscord
from tests.fakes.gates import Gate
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import make_prs
from tests.fakes.slack import FakeSlack

REPO = "vllm-project/vllm"
WEEK = "2026-W23"
DOCUMENT = f"digest:{REPO}:{WEEK}:en"
W23 = (datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC))
W22 = (datetime(2026, 5, 25, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC))
MESSAGES_ROUTE = "POST /channels/{channel_id}/messages"


@dataclass(frozen=True, slots=True)
class Trial:
    platform: str
    mode: str  # "boundary" | "inside"
    part: int  # the part (0-based) being sent when the process was killed
    parts: int
    killed: bool  # False: the run finished before the gate was reached
    missing: int
    duplicates: int
    in_order: bool
    rerun_exit: int
    rerun_line: str


class CrashRig:
    """Fake GitHub, Slack and Discord on background loops, a synced store, the CLI."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self._stack = ExitStack()
        prs = make_prs(40, *W23, seed=3, first_number=30000) + make_prs(
            25, *W22, seed=4, first_number=29000
        )
        self.github = self._stack.enter_context(BackgroundFake(FakeGitHub({REPO: prs})))
        self.slack = self._stack.enter_context(BackgroundFake(FakeSlack()))
        self.discord = self._stack.enter_context(BackgroundFake(FakeDiscord()))
        self.env = dict(os.environ)
        self.env.update(
            GITHUB_TOKEN=self.github.token,
            GITHUB_API_URL=self.github.api_url,
            GITHUB_GRAPHQL_URL=self.github.graphql_url,
            DATABASE_URL=f"sqlite+aiosqlite:///{tmp / 'crash.sqlite3'}",
            SLACK_BOT_TOKEN=self.slack.token,
            SLACK_API_URL=self.slack.api_url,
            DISCORD_BOT_TOKEN=self.discord.token,
            DISCORD_API_URL=self.discord.api_url,
            COLUMNS="200",
        )
        self._channels = 0
        synced = self.run("sync", "--week", WEEK, "--weeks", "2")
        if synced.returncode != 0:
            raise RuntimeError(f"sync failed: {synced.stderr[-500:]}")
        self.parts = {p: self._count(p) for p in ("slack", "discord")}

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> CrashRig:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _args(self, target: str) -> list[str]:
        return [sys.executable, "-m", "bot", "digest", "--week", WEEK, "--post", target]

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
        )

    def new_channel(self, platform: str) -> str:
        self._channels += 1
        if platform == "slack":
            channel = f"CCRASH{self._channels}"
            self.slack.channels[channel] = True
            return channel
        return str(self.discord.add_channel().id)

    def _count(self, platform: str) -> int:
        """Parts of an uninterrupted delivery (the baseline)."""
        channel = self.new_channel(platform)
        done = self.run("digest", "--week", WEEK, "--post", f"{platform}:{channel}")
        if done.returncode != 0:
            raise RuntimeError(f"baseline post failed: {done.stderr[-500:]}")
        seen = self.seen(platform, channel)
        return len(seen)

    # ------------------------------------------------------------------ what arrived

    def seen(self, platform: str, channel: str) -> list[tuple[int, str, str | None]]:
        """(part, position, thread) of every part in the channel, in arrival order."""
        if platform == "slack":
            return self._seen_slack(channel)
        return self._seen_discord(channel)

    def _seen_slack(self, channel: str) -> list[tuple[int, str, str | None]]:
        found: list[tuple[float, int, str, str | None]] = []
        for m in self.slack.channel_messages(channel):
            payload = (m.metadata or {}).get("event_payload") or {}
            if payload.get("document") == DOCUMENT:
                found.append((float(m.ts), int(payload["part"]), m.ts, m.thread_ts))
        texts = max((p for _, p, _, _ in found), default=-1)
        for upload in self.slack.shared_files(channel):
            found.append((float(upload.ts or 0), texts + 1, upload.ts or "", upload.thread_ts))
        return [(p, ts, thread) for _, p, ts, thread in sorted(found)]

    def _seen_discord(self, channel: str) -> list[tuple[int, str, str | None]]:
        nonces = {part_nonce(DOCUMENT, channel, i): i for i in range(64)}
        found = []
        for m in self.discord.messages:
            part = nonces.get(m.nonce or "")
            if part is None:
                continue
            if m.channel_id == int(channel):
                found.append((m.id, part, str(m.id), None))
            else:
                found.append((m.id, part, str(m.id), str(m.channel_id)))
        return [(p, mid, thread) for _, p, mid, thread in sorted(found)]

    def score(self, platform: str, channel: str, parts: int) -> tuple[int, int, bool]:
        """(missing, duplicates, in order and threaded) of what the channel holds."""
        seen = self.seen(platform, channel)
        counts = Counter(p for p, _, _ in seen)
        missing = sum(1 for p in range(parts) if counts[p] == 0)
        duplicates = sum(n - 1 for n in counts.values() if n > 1)
        order = [p for p, _, _ in seen]
        root = next((pos for p, pos, thread in seen if p == 0 and thread is None), None)
        # Slack threads on the root's ts; a Discord thread started from the root has its id.
        threaded = root is not None and all(thread == root for p, _, thread in seen if p > 0)
        return missing, duplicates, order == sorted(order) and threaded

    # ------------------------------------------------------------------ one trial

    def _gate(self, platform: str, part: int, mode: str, parts: int) -> Gate:
        after = mode == "inside"
        if platform == "slack":
            last_is_chart = bool(self.slack.uploads)
            if last_is_chart and part == parts - 1:
                return self.slack.hold("files.completeUploadExternal", 1, after=after)
            return self.slack.hold("chat.postMessage", part + 1, after=after)
        return self.discord.hold(MESSAGES_ROUTE, part + 1, after=after)

    def trial(self, platform: str, part: int, mode: str) -> Trial:
        parts = self.parts[platform]
        channel = self.new_channel(platform)
        target = f"{platform}:{channel}"
        gate = self._gate(platform, part, mode, parts)
        killed = False
        with subprocess.Popen(
            self._args(target),
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ) as proc:
            deadline = time.monotonic() + 180
            while proc.poll() is None and time.monotonic() < deadline:
                if gate.reached.wait(0.05):
                    proc.send_signal(signal.SIGKILL)
                    killed = True
                    break
            proc.wait(30)  # reaped: its pid is gone
        gate.release(drop=mode == "boundary")
        if platform == "slack":
            self.slack.gates.clear()
        else:
            self.discord.gates.clear()
        if mode == "inside" and killed:
            _wait_until(lambda: len(self.seen(platform, channel)) >= part + 1)
        rerun = subprocess.run(
            self._args(target), env=self.env, capture_output=True, text=True, timeout=180
        )
        missing, duplicates, in_order = self.score(platform, channel, parts)
        line = (rerun.stderr.strip().splitlines() or [""])[-1]
        return Trial(
            platform, mode, part, parts, killed, missing, duplicates, in_order,
            rerun.returncode, line,
        )  # fmt: skip


def _wait_until(predicate: Any, within: float = 10.0) -> None:
    # The released request finishes on the fake's loop; the score must see it.
    deadline = time.monotonic() + within
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.02)


@contextmanager
def crash_rig(tmp: Path) -> Iterator[CrashRig]:
    rig = CrashRig(tmp)
    try:
        yield rig
    finally:
        rig.close()


def plan(parts: int, trials: int) -> list[tuple[int, str]]:
    """`trials` (part, mode) pairs: alternate modes, spread over every part."""
    return [(t * parts // trials, ("boundary", "inside")[t % 2]) for t in range(trials)]
