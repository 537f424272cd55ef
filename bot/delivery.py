"""Posting a multi-message document exactly once per channel, resumably (Slack and Discord).

The store's delivery ledger has one row per posted part, keyed by (document, platform,
channel, part). `deliver` posts part i only when the ledger lacks it and records each part
right after it is sent, so a crash after part 3 of 6 resumes at part 4 and a second run
posts nothing. Replies thread under part 0, whose id comes from the ledger on resume.

The remaining gap is a crash between a successful send and its ledger row: that one part is
posted again on resume (at-least-once); platforms offer no idempotency key for bot posts.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Sent:
    """What the platform returned for one posted message."""

    message_id: str
    # The thread that replies go to, when it differs from the root message id (Discord
    # creates a thread channel from the message; Slack threads on the root's ts).
    thread_id: str | None = None


# send(index, payload, thread) -> Sent; `thread` is None for part 0 and the thread id
# (root message id unless the platform reported another) for every later part.
Send = Callable[[int, dict[str, Any], str | None], Awaitable[Sent]]


class Ledger(Protocol):
    """The part of `bot.store.Store` this module uses."""

    async def deliveries(self, document: str, platform: str, channel: str) -> dict[int, Any]: ...

    async def record_delivery(
        self,
        document: str,
        platform: str,
        channel: str,
        part: int,
        parts: int,
        message_id: str | None,
        thread_id: str | None,
    ) -> None: ...

    async def forget_deliveries(self, document: str, platform: str, channel: str) -> None: ...


@dataclass(slots=True)
class DeliveryResult:
    document_id: str
    platform: str
    channel: str
    parts: int
    sent: list[int] = field(default_factory=list)  # parts posted by this run
    skipped: list[int] = field(default_factory=list)  # parts the ledger already had
    root_id: str | None = None
    thread_id: str | None = None

    @property
    def complete(self) -> bool:
        return len(self.sent) + len(self.skipped) >= self.parts

    @property
    def nothing_new(self) -> bool:
        return not self.sent

    def summary_line(self) -> str:
        where = f"{self.platform}:{self.channel}"
        if self.nothing_new:
            return (
                f"{where}: already posted ({self.parts} messages); nothing new "
                "(--force posts again)"
            )
        resumed = f", resumed after {len(self.skipped)} already posted" if self.skipped else ""
        return f"{where}: posted {len(self.sent)} of {self.parts} messages{resumed}"


# One delivery per (document, platform, channel) at a time in this process: the scheduler's
# catch-up and a user's `/vllm digest post` must not interleave and post parts twice.
# Locks belong to one event loop, hence one table per loop.
_Key = tuple[str, str, str]
_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[_Key, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


def _lock(key: _Key) -> asyncio.Lock:
    table = _locks.setdefault(asyncio.get_running_loop(), {})
    lock = table.get(key)
    if lock is None:
        lock = table[key] = asyncio.Lock()
    return lock


async def deliver(
    store: Ledger,
    *,
    document_id: str,
    platform: str,
    channel: str,
    payloads: Sequence[dict[str, Any]],
    send: Send,
    force: bool = False,
) -> DeliveryResult:
    """Post the parts of `document_id` the ledger lacks, in order; see the module docstring.

    Errors from `send` propagate after the parts sent so far are recorded, so the next run
    resumes where this one stopped.
    """
    key = (document_id, platform, channel)
    async with _lock(key):
        if force:
            await store.forget_deliveries(*key)
        ledger = await store.deliveries(*key)
        result = DeliveryResult(document_id, platform, channel, parts=len(payloads))

        recorded = {row.parts for row in ledger.values()}
        if ledger and all(p in ledger for p in range(max(recorded))):
            # Complete by the ledger's own count: a re-render that now splits differently
            # must not post a stray extra part of an already delivered document.
            result.parts = max(recorded)
            result.skipped = sorted(ledger)
            root = ledger.get(0)
            result.root_id = root.message_id if root else None
            result.thread_id = (root.thread_id or root.message_id) if root else None
            return result
        if ledger and recorded != {len(payloads)}:
            log.warning(
                "%s on %s:%s was recorded with %s parts and now renders to %d; resuming anyway",
                document_id,
                platform,
                channel,
                sorted(recorded),
                len(payloads),
            )

        root = ledger.get(0)
        if root is not None:
            result.root_id = root.message_id
            result.thread_id = root.thread_id or root.message_id
        for index, payload in enumerate(payloads):
            if index in ledger:
                result.skipped.append(index)
                continue
            if index > 0 and result.thread_id is None:
                # Only possible if part 0's row lost its message id; threading is impossible.
                raise RuntimeError(f"{document_id}: part 0 has no message id in the ledger")
            sent = await send(index, payload, None if index == 0 else result.thread_id)
            thread_id = sent.thread_id if index == 0 else result.thread_id
            await store.record_delivery(
                document_id, platform, channel, index, len(payloads), sent.message_id, thread_id
            )
            if index == 0:
                result.root_id = sent.message_id
                result.thread_id = sent.thread_id or sent.message_id
            result.sent.append(index)
        return result
