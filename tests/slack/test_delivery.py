"""`bot.delivery.deliver` on its own: the ledger logic Slack and Discord share."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.delivery import DeliveryResult, Send, Sent, deliver
from bot.store import Store
from bot.store.ledger import LEASE, Outcome, Owner
from tests.fakes.databases import postgres_database
from tests.fakes.processes import gone_owner

DOC = "digest:vllm-project/vllm:2026-W23:en"


class Recorder:
    """A platform that numbers messages and can report a separate thread id (Discord-like)."""

    def __init__(self, thread_for_root: bool = False) -> None:
        self.calls: list[tuple[int, str | None]] = []
        self.thread_for_root = thread_for_root

    async def __call__(self, index: int, payload: dict[str, Any], thread: str | None) -> Sent:
        self.calls.append((index, thread))
        message_id = f"m{len(self.calls)}"
        return Sent(message_id, f"t-{message_id}" if index == 0 and self.thread_for_root else None)


def payloads(n: int) -> list[dict[str, Any]]:
    return [{"text": str(i)} for i in range(n)]


async def test_replies_go_to_the_thread_the_platform_reported(store: Store) -> None:
    send = Recorder(thread_for_root=True)
    result = await deliver(
        store.deliveries,
        document_id=DOC,
        platform="discord",
        channel="1",
        payloads=payloads(3),
        send=send,
    )
    assert send.calls == [(0, None), (1, "t-m1"), (2, "t-m1")]
    assert (result.root_id, result.thread_id) == ("m1", "t-m1")
    ledger = await store.deliveries.sent(DOC, "discord", "1")
    assert [(d.part, d.parts, d.message_id, d.thread_id) for d in ledger.values()] == [
        (0, 3, "m1", "t-m1"),
        (1, 3, "m2", "t-m1"),
        (2, 3, "m3", "t-m1"),
    ]


async def test_delivered_document_that_now_renders_differently_posts_nothing(
    store: Store,
) -> None:
    await post3(store, Recorder())
    send = Recorder()
    result = await deliver(
        store.deliveries,
        document_id=DOC,
        platform="slack",
        channel="C1",
        payloads=payloads(4),
        send=send,
    )
    assert send.calls == [] and result.nothing_new and result.parts == 3


async def test_concurrent_deliveries_post_each_part_once(store: Store) -> None:
    send = Recorder()
    results = await asyncio.gather(*(post3(store, send) for _ in range(3)))
    assert sorted(i for i, _ in send.calls) == [0, 1, 2]
    assert sum(len(r.sent) for r in results) == 3


# ---------------------------------------------------------------------------- across processes
#
# The in-process lock serialises deliveries on one event loop. Separate processes (two
# `vllm-bot digest --post` at once, a CLI run next to `serve`) share only the database:
# each runner below has its own event loop in its own thread and its own Store, exactly
# what a second process has, so only the ledger's claims can keep them apart.


@dataclass
class Channel:
    """A platform channel shared by the runners: messages in arrival order, thread-safe."""

    posted: list[tuple[int, str | None, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def sender(self, runner: str, hook: Callable[[int], None] | None = None) -> Send:
        async def send(index: int, payload: dict[str, Any], thread: str | None) -> Sent:
            if hook is not None:
                # Blocking on purpose: it holds this runner mid-send while the other runs.
                await asyncio.to_thread(hook, index)
            with self.lock:
                message_id = f"{runner}-m{len(self.posted)}"
                self.posted.append((index, thread, message_id))
            return Sent(message_id)

        return send


def run_in_own_loop(url: str, send: Send, parts: int) -> DeliveryResult:
    """One runner as a separate process would be: its own loop and its own Store."""

    async def go() -> DeliveryResult:
        # Migrated already by `database`; alembic's module state is not thread-safe.
        async with await Store.open(url, migrate=False) as store:
            return await deliver(
                store.deliveries,
                document_id=DOC,
                platform="slack",
                channel="C1",
                payloads=payloads(parts),
                send=send,
            )

    return asyncio.run(go())


@asynccontextmanager
async def database(kind: str, tmp_path: Path) -> AsyncIterator[str]:
    if kind == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'shared.sqlite3'}"
        await (await Store.open(url)).close()  # migrate once, as an earlier run would have
        yield url
        return
    async with postgres_database() as url:
        await (await Store.open(url)).close()
        yield url


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_run_that_finds_a_part_being_posted_elsewhere_stops(
    kind: str, tmp_path: Path
) -> None:
    channel = Channel()
    first_is_posting_part_1 = threading.Event()
    second_done = threading.Event()

    def hold_part_1(index: int) -> None:
        if index == 1:
            first_is_posting_part_1.set()
            assert second_done.wait(30), "the second run never finished"

    async with database(kind, tmp_path) as url:
        first = asyncio.create_task(
            asyncio.to_thread(run_in_own_loop, url, channel.sender("a", hold_part_1), 4)
        )
        assert await asyncio.to_thread(first_is_posting_part_1.wait, 30)
        second = await asyncio.to_thread(run_in_own_loop, url, channel.sender("b"), 4)
        second_done.set()
        first_result = await first

    assert second.sent == [] and second.skipped == [0] and second.busy_part == 1
    line = second.summary_line()
    assert not second.complete and second.missing == [1, 2, 3]
    assert "missing 2, 3, 4" in line and "is posting message 2 right now" in line
    assert f"pid {os.getpid()}" in line  # the live owner is named
    assert first_result.sent == [0, 1, 2, 3] and first_result.complete
    assert [(index, thread) for index, thread, _ in channel.posted] == [
        (0, None),
        (1, "a-m0"),
        (2, "a-m0"),
        (3, "a-m0"),
    ]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_two_runs_at_once_post_every_part_once_in_order_in_one_thread(
    kind: str, tmp_path: Path
) -> None:
    channel = Channel()
    parts = 6
    async with database(kind, tmp_path) as url:
        results = await asyncio.gather(
            asyncio.to_thread(run_in_own_loop, url, channel.sender("a"), parts),
            asyncio.to_thread(run_in_own_loop, url, channel.sender("b"), parts),
        )
        async with await Store.open(url) as store:
            ledger = await store.deliveries.sent(DOC, "slack", "C1")

    # Whoever won each claim, every part went out once, in order, threaded under part 0.
    assert [index for index, _, _ in channel.posted] == list(range(parts))
    root = channel.posted[0][2]
    assert all(thread == root for _, thread, _ in channel.posted[1:])
    assert sorted(results[0].sent + results[1].sent) == list(range(parts))
    assert sorted(ledger) == list(range(parts))
    assert [ledger[i].message_id for i in range(parts)] == [m for _, _, m in channel.posted]


async def post3(store: Store, send: Send, find: Finder | None = None) -> DeliveryResult:
    """A 3-part delivery to slack:C1."""
    return await deliver(
        store.deliveries,
        document_id=DOC,
        platform="slack",
        channel="C1",
        payloads=payloads(3),
        send=send,
        find=find,
    )


async def crashed_run_holding_part_1(store: Store, owner: Owner) -> None:
    """What a run killed while posting part 1 leaves: part 0 sent, part 1 claimed."""
    await store.deliveries.record(DOC, "slack", "C1", 0, 3, "m0", None)
    claim = await store.deliveries.claim(DOC, "slack", "C1", 1, 3, owner=owner)
    assert claim.outcome is Outcome.NEW


class Finder:
    """The platform lookup: which parts an earlier attempt had posted."""

    def __init__(self, posted: dict[int, str]) -> None:
        self.posted = posted
        self.asked: list[int] = []

    async def __call__(
        self, index: int, payload: dict[str, Any], thread: str | None
    ) -> Sent | None:
        self.asked.append(index)
        found = self.posted.get(index)
        return Sent(found) if found else None


async def test_a_claim_of_a_dead_process_on_this_host_is_taken_over_at_once(
    store: Store,
) -> None:
    crashed = gone_owner()
    await crashed_run_holding_part_1(store, crashed)
    send, find = Recorder(), Finder({})
    result = await post3(store, send, find)
    # Part 1 was in doubt: the platform was asked first, then it was posted.
    assert find.asked == [1] and send.calls == [(1, "m0"), (2, "m0")]
    assert result.complete and result.skipped == [0] and result.sent == [1, 2]
    assert sorted(await store.deliveries.sent(DOC, "slack", "C1")) == [0, 1, 2]


async def test_a_part_the_crashed_run_had_posted_is_recorded_not_posted_again(
    store: Store,
) -> None:
    await crashed_run_holding_part_1(store, gone_owner())
    send, find = Recorder(), Finder({1: "posted-before-the-crash"})
    result = await post3(store, send, find)
    assert send.calls == [(2, "m0")] and result.reconciled == [1] and result.complete
    ledger = await store.deliveries.sent(DOC, "slack", "C1")
    assert ledger[1].message_id == "posted-before-the-crash"


async def test_a_claim_from_another_host_waits_for_its_lease(store: Store) -> None:
    elsewhere = Owner("elsewhere", "another-host", 12345)
    await crashed_run_holding_part_1(store, elsewhere)
    send = Recorder()
    result = await post3(store, send)
    assert send.calls == [] and result.busy_part == 1 and not result.complete
    assert result.busy_owner == "pid 12345 on another-host"
    # The scheduler's "already delivered?" reads only sent parts: a claim is not a post.
    assert sorted(await store.deliveries.sent(DOC, "slack", "C1")) == [0]
    # Once the lease has run out, the claim is taken over.
    later = datetime.now(UTC) + LEASE + timedelta(seconds=1)
    claim = await store.deliveries.claim(DOC, "slack", "C1", 1, 3, owner=Owner.current(), now=later)
    assert claim.outcome is Outcome.DOUBT and claim.holder == elsewhere


async def test_a_live_instance_keeps_its_claim_whatever_pid_and_host_it_reports(
    store: Store,
) -> None:
    # Another container: same hostname, pid 1 (as every container's first process), alive
    # while it holds its liveness lock - here a separate process holds it.
    owner = gone_owner(pid=1)
    database = store.engine.url.database
    lock = f"{database}.instances/{owner.instance}"
    holder = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "import fcntl, os, sys, time; os.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True);"
        " fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); fcntl.flock(fd, fcntl.LOCK_SH);"
        " print('held', flush=True); time.sleep(60)",
        lock,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None
        assert (await holder.stdout.readline()).strip() == b"held"
        await crashed_run_holding_part_1(store, owner)
        send = Recorder()
        result = await post3(store, send)
        assert send.calls == [] and result.busy_part == 1
    finally:
        holder.kill()
        await holder.wait()
    # Gone now (killed: the kernel dropped its lock): taken over at once.
    result = await post3(store, send)
    assert result.complete and result.sent == [1, 2]


async def test_a_failed_send_keeps_its_error_and_the_next_run_reconciles_then_retries(
    store: Store,
) -> None:
    class Down(Exception):
        pass

    async def fail_at_part_1(index: int, payload: dict[str, Any], thread: str | None) -> Sent:
        if index == 1:
            raise Down("slack said no to xoxb-secret-token " + "x" * 1000)
        return Sent(f"m{index}")

    with pytest.raises(Down):
        await post3(store, fail_at_part_1)
    errors = await store.deliveries.errors(DOC, "slack", "C1")
    assert list(errors) == [1] and errors[1].startswith("Down: slack said no")
    assert len(errors[1]) < 300
    send, find = Recorder(), Finder({})
    result = await post3(store, send, find)
    assert find.asked == [1]
    assert send.calls == [(1, "m0"), (2, "m0")] and result.complete
    assert await store.deliveries.errors(DOC, "slack", "C1") == {}
