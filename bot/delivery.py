"""Posting a multi-message document exactly once per channel, resumably (Slack and Discord).

The store's delivery ledger has one row per part, keyed by (document, platform, channel,
part). `deliver` posts the parts the ledger lacks, in order, and for each one:

1. claims it: inserts the row as "claimed". The unique key lets only one runner win, in
   this process or another one (two `vllm-bot digest --post` at once, a CLI run next to
   `serve`, two serve replicas), on SQLite and PostgreSQL alike;
2. posts it;
3. marks it "sent" with the platform's message id.

A runner that loses a claim re-reads the ledger: if the other run has finished the part it
goes on with the next one (threading under the same root), otherwise the other run is
posting it right now and this one stops, posting nothing more (`DeliveryResult.busy_part`).
So a crash after part 3 of 6 resumes at part 4, a second run posts nothing, and two runs
at once post every part once, in order. Replies thread under part 0, whose id comes from
the ledger on resume. A send that fails releases its claim, so the next run retries it.

At-least-once window: the platforms offer no idempotency key for bot posts, so a part can
still be posted twice when a run dies between the send and marking it sent (its claim is
retaken after `CLAIM_TIMEOUT` and the part posted again), or when one send takes longer
than `CLAIM_TIMEOUT` and another run takes the claim over. Until the timeout a crashed
run's claim holds the part: a restart sooner than that stops at it and says so.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol

log = logging.getLogger(__name__)

# Longer than one part's send can take (the posters bound their 429 waits and retries well
# under it), so only a crashed run's claim ever gets this old.
CLAIM_TIMEOUT = timedelta(minutes=5)


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

    async def claim_delivery(
        self,
        document: str,
        platform: str,
        channel: str,
        part: int,
        parts: int,
        *,
        owner: str,
        stale_after: timedelta,
    ) -> bool: ...

    async def release_delivery(
        self, document: str, platform: str, channel: str, part: int, *, owner: str
    ) -> None: ...

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
    # The part another run was posting when this one stopped (see the module docstring).
    busy_part: int | None = None

    @property
    def complete(self) -> bool:
        return self.busy_part is None and len(self.sent) + len(self.skipped) >= self.parts

    @property
    def nothing_new(self) -> bool:
        return not self.sent

    def summary_line(self) -> str:
        where = f"{self.platform}:{self.channel}"
        if self.busy_part is not None:
            done = (
                f"posted {len(self.sent)} of {self.parts} messages, then stopped"
                if self.sent
                else "posted nothing"
            )
            return (
                f"{where}: {done}: another run is posting message {self.busy_part + 1} of "
                f"{self.parts} right now and posts the rest (run again later to check)"
            )
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

    Errors from `send` propagate after the parts sent so far are recorded (and the failed
    part's claim released), so the next run resumes where this one stopped.
    """
    key = (document_id, platform, channel)
    # Identifies this run's claims, so releasing one never drops a claim another run holds.
    owner = uuid.uuid4().hex
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
            _set_root(result, ledger.get(0))
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

        _set_root(result, ledger.get(0))
        for index, payload in enumerate(payloads):
            if index not in ledger:
                claimed = await store.claim_delivery(
                    *key, index, len(payloads), owner=owner, stale_after=CLAIM_TIMEOUT
                )
                if not claimed:
                    # Another run got here first: it has either finished this part since
                    # our read, or is posting it right now.
                    ledger = await store.deliveries(*key)
                    if index not in ledger:
                        log.info(
                            "%s on %s:%s: another run is posting part %d; stopping",
                            document_id,
                            platform,
                            channel,
                            index + 1,
                        )
                        result.busy_part = index
                        return result
            if index in ledger:
                result.skipped.append(index)
                if index == 0:
                    _set_root(result, ledger[0])
                continue
            if index > 0 and result.thread_id is None:
                # Only possible if part 0's row lost its message id; threading is impossible.
                await _release(store, key, index, owner)
                raise RuntimeError(f"{document_id}: part 0 has no message id in the ledger")
            try:
                sent = await send(index, payload, None if index == 0 else result.thread_id)
            except BaseException:
                # Cancellation included: a shutdown mid-send must not leave the part held.
                await _release(store, key, index, owner)
                raise
            thread_id = sent.thread_id if index == 0 else result.thread_id
            await store.record_delivery(
                document_id, platform, channel, index, len(payloads), sent.message_id, thread_id
            )
            if index == 0:
                result.root_id = sent.message_id
                result.thread_id = sent.thread_id or sent.message_id
            result.sent.append(index)
        return result


def _set_root(result: DeliveryResult, root: Any) -> None:
    """Take the root message and thread from part 0's ledger row, when there is one."""
    if root is not None:
        result.root_id = root.message_id
        result.thread_id = root.thread_id or root.message_id


async def _release(store: Ledger, key: _Key, part: int, owner: str) -> None:
    try:
        await store.release_delivery(*key, part, owner=owner)
    except Exception:
        # The original error matters more; the claim expires after the timeout anyway.
        log.warning("could not release the claim on %s part %d", key, part + 1, exc_info=True)
