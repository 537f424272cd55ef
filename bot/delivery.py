"""Posting a multi-message document exactly once per channel, resumably (Slack and Discord).

The store's delivery ledger (`bot.store.ledger`, table `deliveries`) has one row per part,
keyed by (document, platform, channel, part). `deliver` posts the parts the ledger lacks,
in order, and for each one:

1. claims it (the unique key lets one runner win, in any process, on SQLite and
   PostgreSQL alike); the claim records this process's host, pid and a lease;
2. posts it, or, when an earlier attempt died or failed on it (`Outcome.DOUBT`), first asks
   the platform whether that attempt got through (`find`: Slack message metadata, Discord
   nonce and channel history) and records what it finds instead of posting again;
3. marks it "sent" with the platform's message id.

A claim whose owner is gone (same host: its pid is not alive; other hosts: its lease ran
out) is taken over at once, so a restart right after a SIGKILL resumes where the killed run
stopped, and a crash between a send and its record does not post that part twice. A live
owner's claim stops this run (`DeliveryResult.busy_part`), which is then incomplete: the
callers report the missing parts and fail (CLI exit 1, a scheduled job retried).
Replies thread under part 0, whose id comes from the ledger on resume. A send that fails is
marked failed (with its redacted error), so the next run reconciles and retries it at once;
one cut short (cancelled, or a transient failure: it may still land) only after
`bot.store.ledger.SETTLE`. The run is fenced work (`Liveness.fenced`): an instance that
loses its liveness lock and cannot take it back stops it before another may take it over.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING

from bot.core.errors import BotError, TransientError
from bot.core.models import JSON
from bot.store.ledger import SETTLE, Claim, Outcome, Owner

if TYPE_CHECKING:
    from bot.store.deliveries import Deliveries, Delivery

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Sent:
    """What the platform returned for one posted message."""

    message_id: str
    # The thread that replies go to, when it differs from the root message id (Discord
    # creates a thread channel from the message; Slack threads on the root's ts).
    thread_id: str | None = None


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file posted as the last part of a document's thread (the trends chart)."""

    data: bytes
    filename: str
    title: str
    alt_text: str


# The payload key of an attachment part: posters upload it instead of posting text.
ATTACHMENT = "attachment"


def with_attachment(payloads: Sequence[JSON], attachment: Attachment | None) -> list[JSON]:
    """The parts to deliver: the rendered messages, then the file when there is one."""
    parts = list(payloads)
    if attachment is not None:
        parts.append({ATTACHMENT: attachment})
    return parts


def attachment_of(payload: JSON) -> Attachment | None:
    found = payload.get(ATTACHMENT)
    return found if isinstance(found, Attachment) else None


# send(index, payload, thread) -> Sent; `thread` is None for part 0 and the thread id
# (root message id unless the platform reported another) for every later part.
Send = Callable[[int, JSON, str | None], Awaitable[Sent]]
# find(index, payload, thread) -> the message an earlier attempt posted, or None.
Find = Callable[[int, JSON, str | None], Awaitable[Sent | None]]


@dataclass(slots=True)
class DeliveryResult:
    document_id: str
    platform: str
    channel: str
    parts: int
    sent: list[int] = field(default_factory=list)  # parts posted by this run
    skipped: list[int] = field(default_factory=list)  # parts the ledger already had
    # Parts an earlier, crashed attempt had posted: found on the platform, recorded now.
    reconciled: list[int] = field(default_factory=list)
    root_id: str | None = None
    thread_id: str | None = None
    # The part a live other run was posting when this one stopped, and who that is.
    busy_part: int | None = None
    busy_owner: str | None = None

    @property
    def done(self) -> list[int]:
        return sorted({*self.sent, *self.skipped, *self.reconciled})

    @property
    def missing(self) -> list[int]:
        have = set(self.done)
        return [i for i in range(self.parts) if i not in have]

    @property
    def complete(self) -> bool:
        return self.busy_part is None and not self.missing

    @property
    def nothing_new(self) -> bool:
        return not self.sent

    def summary_line(self) -> str:
        where = f"{self.platform}:{self.channel}"
        if not self.complete:
            names = ", ".join(str(i + 1) for i in self.missing)
            why = ""
            if self.busy_part is not None:
                who = f" ({self.busy_owner})" if self.busy_owner else ""
                why = f": another run{who} is posting message {self.busy_part + 1} right now"
            return (
                f"{where}: incomplete: {len(self.done)} of {self.parts} messages are posted, "
                f"missing {names}{why}; run again to finish"
            )
        if self.nothing_new and not self.reconciled:
            return (
                f"{where}: already posted ({self.parts} messages); nothing new "
                "(--force posts again)"
            )
        earlier = len(self.skipped) + len(self.reconciled)
        resumed = f", resumed after {earlier} already posted" if earlier else ""
        if self.reconciled:
            found = ", ".join(str(i + 1) for i in self.reconciled)
            resumed += f" ({found} found on {self.platform} after an interrupted run)"
        return f"{where}: posted {len(self.sent)} of {self.parts} messages{resumed}"


class DeliveryIncomplete(BotError):
    """A delivery stopped before every part was posted; the message names the missing ones."""

    def __init__(self, result: DeliveryResult) -> None:
        super().__init__(result.summary_line())
        self.result = result


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
    store: Deliveries,
    *,
    document_id: str,
    platform: str,
    channel: str,
    payloads: Sequence[JSON],
    send: Send,
    force: bool = False,
    find: Find | None = None,
) -> DeliveryResult:
    """Post the parts of `document_id` the ledger lacks, in order; see the module docstring.

    Errors from `send` propagate after the parts sent so far are recorded (and the failed
    part marked failed), so the next run resumes where this one stopped. `find` looks a
    part up on the platform before it is posted again after a crash or a failed send.
    """
    key = (document_id, platform, channel)
    # Identifies this run's claims, so giving one up never drops a claim another run holds.
    owner = Owner.current()
    async with _lock(key), store.ledger.liveness.fenced():
        if force:
            await store.forget(*key)
        ledger = await store.sent(*key)
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
            claim: Claim | None = None
            if index not in ledger:
                claim = await store.claim(*key, index, len(payloads), owner=owner)
                if claim.outcome is Outcome.DONE:
                    ledger = await store.sent(*key)
                elif claim.outcome is Outcome.BUSY:
                    log.info(
                        "%s on %s:%s: another run (%s) is posting part %d; stopping",
                        document_id,
                        platform,
                        channel,
                        claim.holder.describe() if claim.holder else "unknown",
                        index + 1,
                    )
                    result.busy_part = index
                    result.busy_owner = claim.holder.describe() if claim.holder else None
                    return result
            if index in ledger:
                result.skipped.append(index)
                if index == 0:
                    _set_root(result, ledger[0])
                continue
            thread = None if index == 0 else result.thread_id
            if index > 0 and thread is None:
                # Only possible if part 0's row lost its message id; threading is impossible.
                await store.release(*key, index, owner=owner)
                raise RuntimeError(f"{document_id}: part 0 has no message id in the ledger")
            try:
                found = None
                if claim is not None and claim.outcome is Outcome.DOUBT:
                    found = await _reconcile(find, key, index, payload, thread, claim)
                if found is not None:
                    result.reconciled.append(index)
                    sent = found
                else:
                    sent = await send(index, payload, thread)
                    result.sent.append(index)
            except BaseException as exc:
                # Cancellation included: a shutdown mid-send must not leave the part held,
                # and the next run must check whether the post got through.
                await _fail(store, key, index, owner, exc)
                raise
            thread_id = sent.thread_id if index == 0 else result.thread_id
            await store.record(
                document_id, platform, channel, index, len(payloads), sent.message_id, thread_id
            )
            if index == 0:
                result.root_id = sent.message_id
                result.thread_id = sent.thread_id or sent.message_id
        return result


async def _reconcile(
    find: Find | None,
    key: _Key,
    index: int,
    payload: JSON,
    thread: str | None,
    claim: Claim,
) -> Sent | None:
    """The message an earlier attempt at this part posted, if the platform has it."""
    before = claim.previous_error or (
        f"its run ({claim.holder.describe()}) is gone" if claim.holder else "unknown"
    )
    if find is None:
        log.warning(
            "%s part %d on %s:%s: an earlier attempt did not finish (%s) and this platform "
            "cannot be asked whether it posted; posting it again",
            key[0], index + 1, key[1], key[2], before,
        )  # fmt: skip
        return None
    found = await find(index, payload, thread)
    log.info(
        "%s part %d on %s:%s: an earlier attempt did not finish (%s); %s",
        key[0], index + 1, key[1], key[2], before,
        f"it was posted ({found.message_id}): recorded, not posted again"
        if found else "not on the platform: posting it",
    )  # fmt: skip
    return found


def _set_root(result: DeliveryResult, root: Delivery | None) -> None:
    """Take the root message and thread from part 0's ledger row, when there is one."""
    if root is not None:
        result.root_id = root.message_id
        result.thread_id = root.thread_id or root.message_id


# Marks that could not be written yet (the database was away), retried in the background.
_retrying: set[asyncio.Task[None]] = set()
FAIL_RETRIES = 60


async def _fail(store: Deliveries, key: _Key, part: int, owner: Owner, exc: BaseException) -> None:
    # Cut short (cancelled, a timeout, a dropped connection): the platform may still post it.
    settle = SETTLE if not isinstance(exc, Exception) or isinstance(exc, TransientError) else None
    try:
        await store.fail(*key, part, owner=owner, error=exc, settle=settle)
    except Exception as error:
        # This instance lives on, so its claim would stay held: write the mark once the
        # database is back, so that another run may take the part over.
        log.warning(
            "could not mark %s part %d failed (%s); trying again", key, part + 1,
            type(error).__name__,
        )  # fmt: skip
        task = asyncio.get_running_loop().create_task(
            _fail_later(store, key, part, owner, exc, settle), name="ledger mark"
        )
        _retrying.add(task)
        task.add_done_callback(_retrying.discard)


async def _fail_later(
    store: Deliveries,
    key: _Key,
    part: int,
    owner: Owner,
    exc: BaseException,
    settle: timedelta | None,
) -> None:
    for _ in range(FAIL_RETRIES):
        await asyncio.sleep(1)
        try:
            await store.fail(*key, part, owner=owner, error=exc, settle=settle)
        except Exception:
            continue
        log.info("%s part %d marked failed", key, part + 1)
        return
    log.warning("gave up marking %s part %d failed", key, part + 1)
