"""One task tracker for everything `serve` must let finish before it exits.

The lifecycle every long-running component follows: start → stop accepting (new work is
refused with a "restarting" answer or a 503) → its in-flight work finishes, bounded by
the shutdown grace → drain (what is left is cancelled). Slack and Discord command
answers, webhook deliveries and scheduled jobs all keep their tasks in a `TaskTracker`;
`serve` holds one tracker whose sources are the others and drains them together.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import Protocol, TypeGuard, TypeVar, runtime_checkable

log = logging.getLogger(__name__)

T = TypeVar("T")


@runtime_checkable
class Work(Protocol):
    """Something that runs tasks shutdown must wait for."""

    def stop_accepting(self) -> None: ...
    def in_flight(self) -> dict[asyncio.Task[object], str]: ...


def is_work(obj: object) -> TypeGuard[Work]:
    return callable(getattr(obj, "stop_accepting", None)) and callable(
        getattr(obj, "in_flight", None)
    )


class TaskTracker:
    """Named tasks that must finish before shutdown, and the switch that refuses new work.

    `spawn` starts a background task and holds a strong reference to it (the event loop
    keeps only weak ones); `track` registers the task already running. `sources` are other
    `Work` whose tasks count as this tracker's when shutdown asks.
    """

    def __init__(self, sources: Sequence[Work] = ()) -> None:
        self.accepting = True
        self.sources: list[Work] = list(sources)
        self._tasks: dict[asyncio.Task[object], str] = {}

    def spawn(self, coro: Coroutine[object, None, T], name: str) -> asyncio.Task[T]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks[task] = name
        task.add_done_callback(self._forget)
        return task

    def _forget(self, task: asyncio.Task[object]) -> None:
        self._tasks.pop(task, None)

    @asynccontextmanager
    async def track(self, name: str) -> AsyncIterator[None]:
        """Count the current task as in flight for the duration of the block."""
        task = asyncio.current_task()
        if task is None:  # not inside a task: nothing shutdown could wait for
            yield
            return
        self._tasks[task] = name
        try:
            yield
        finally:
            self._tasks.pop(task, None)

    def in_flight(self) -> dict[asyncio.Task[object], str]:
        """Every unfinished task, ours and the sources', except the caller's own."""
        found = dict(self._tasks)
        for source in self.sources:
            try:
                found.update(source.in_flight())
            except Exception:  # one broken source must not stop the others draining
                log.exception("listing in-flight work of %r failed", source)
        current = asyncio.current_task()
        if current is not None:
            found.pop(current, None)
        return {task: name for task, name in found.items() if not task.done()}

    @property
    def running(self) -> list[str]:
        return list(self.in_flight().values())

    def stop_accepting(self) -> None:
        self.accepting = False
        for source in self.sources:
            try:
                source.stop_accepting()
            except Exception:
                log.exception("stopping %r from taking work failed", source)

    def cancel_all(self) -> None:
        self.stop_accepting()
        for task in self.in_flight():
            task.cancel()

    async def wait_idle(self) -> None:
        """Wait, unbounded, until this tracker's own tasks are done (tests, cleanup)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def drain(self, grace: float) -> list[str]:
        """Stop accepting; wait up to `grace` seconds for in-flight work, cancel what is
        left and return its names."""
        self.stop_accepting()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        # Again after each round: finishing work may start more (an acknowledged command
        # hands its answer to a new task).
        while (tasks := self.in_flight()) and (left := deadline - loop.time()) > 0:
            await asyncio.wait(tasks, timeout=left)
        pending = self.in_flight()
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending, timeout=5)
        return list(pending.values())


class Tracked:
    """The `Work` face of a component that keeps its tasks in `self.tracker` (the Slack
    bot, the Discord command handler): shutdown's switch and list, read from the tracker."""

    tracker: TaskTracker

    @property
    def accepting(self) -> bool:
        return self.tracker.accepting

    def stop_accepting(self) -> None:
        """Shutdown: new work is refused ("restarting"); work already taken goes on."""
        self.tracker.stop_accepting()

    def in_flight(self) -> dict[asyncio.Task[object], str]:
        """Work still running (shutdown awaits it, bounded)."""
        return self.tracker.in_flight()

    async def drain(self) -> None:
        """Wait, unbounded, for the work still running (callers bound it with a timeout)."""
        await self.tracker.wait_idle()


# Each chat adapter answers this many commands at once (the PostgreSQL pool has as many
# connections, plus overflow for the scheduler and webhooks: bot.store.store.POOL_SIZE)
# and queues this many more before it answers "busy, try again".
COMMAND_WORKERS = 10
COMMAND_QUEUE = 400


class RateLimitedLog:
    """At most one warning per `interval` seconds; the next says how many were dropped."""

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.clock = clock
        self._last: float | None = None
        self._dropped = 0

    def log(self, logger: logging.Logger, msg: str, *args: object) -> bool:
        now = self.clock()
        if self._last is not None and now - self._last < self.interval:
            self._dropped += 1
            return False
        self._last, dropped, self._dropped = now, self._dropped, 0
        more = f" (+{dropped} more since the last line)" if dropped else ""
        logger.warning(msg + "%s", *args, more)
        return True


_ADMISSIONS: weakref.WeakSet[Admission] = weakref.WeakSet()


def admission_totals() -> tuple[int, int]:
    """(waiting, running) over every live Admission of the process, for /metrics."""
    found = list(_ADMISSIONS)
    return sum(a.waiting for a in found), sum(a.running for a in found)


class Admission:
    """Bounded concurrency for commands acknowledged before they are worked on.

    At most `limit` run at once (sized to the database pool, so a burst queues here rather
    than inside SQLAlchemy's pool, where a wait ends in a traceback); `queue` more may
    wait. `ticket()` decides synchronously, before the acknowledgement is sent: None means
    saturated, and the user is told "busy, try again" at once instead of being answered
    late.
    """

    def __init__(self, limit: int, queue: int) -> None:
        if limit < 1 or queue < 0:
            raise ValueError("limit must be at least 1 and queue at least 0")
        self.limit = limit
        self.queue = queue
        self.running = 0
        self.waiting = 0
        self._slots = asyncio.Semaphore(limit)
        _ADMISSIONS.add(self)

    @property
    def depth(self) -> int:
        """Commands admitted and waiting for a slot (the /metrics queue depth)."""
        return self.waiting

    def ticket(self) -> AdmissionTicket | None:
        """A place in the queue, reserved now, or None when the queue is full."""
        if self.running + self.waiting >= self.limit + self.queue:
            return None
        self.waiting += 1
        return AdmissionTicket(self)


class AdmissionTicket:
    """`async with ticket:` waits for a slot, then holds it for the block."""

    def __init__(self, admission: Admission) -> None:
        self.admission = admission
        self._queued = True
        self._held = False

    async def __aenter__(self) -> None:
        admission = self.admission
        try:
            await admission._slots.acquire()
        finally:
            self._queued = False
            admission.waiting -= 1
        self._held = True
        admission.running += 1

    async def __aexit__(self, *exc: object) -> None:
        self.cancel()

    def cancel(self) -> None:
        """Give the place back (also when the ticket was never used)."""
        admission = self.admission
        if self._queued:
            self._queued = False
            admission.waiting -= 1
        if self._held:
            self._held = False
            admission.running -= 1
            admission._slots.release()
