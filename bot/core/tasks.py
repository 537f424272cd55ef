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
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from enum import StrEnum
from typing import Protocol, TypeGuard, TypeVar, runtime_checkable

from bot.core.errors import TransientError
from bot.core.messages import Text

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


# Shutdown withdraws the commands still queued this long before its grace ends, and gives
# the work it cancels at the end this long to tell its users.
WITHDRAW_BEFORE = 5.0
CANCELLED_GRACE = 5.0


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

    def withdraw(self) -> int:
        """Give up work that has not started (queued commands, whose users are told to try
        again); returns how many. Running work goes on."""
        count = 0
        for source in self.sources:
            withdraw = getattr(source, "withdraw", None)
            if not callable(withdraw):
                continue
            try:
                count += withdraw()
            except Exception:
                log.exception("withdrawing the queued work of %r failed", source)
        return count

    async def drain(self, grace: float) -> list[str]:
        """Stop accepting; wait up to `grace` seconds for in-flight work, cancel what is
        left and return its names.

        Queued work runs while there is time. What has not started `WITHDRAW_BEFORE`
        seconds before the end (a quarter of a short grace) is withdrawn, so that telling
        its users "try again" fits in the grace; what still runs at the end is cancelled,
        and a cancelled command says the same within `CANCELLED_GRACE` seconds
        (bot.commands.driver.drive_admitted): no acknowledged command goes unanswered."""
        self.stop_accepting()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        await self._wait(deadline - min(WITHDRAW_BEFORE, grace / 4))
        if withdrawn := self.withdraw():
            log.warning(
                "shutting down: %d queued commands told to try again",
                withdrawn,
                extra={"event": "shutdown", "withdrawn": withdrawn},
            )
        await self._wait(deadline)
        pending = self.in_flight()
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending, timeout=CANCELLED_GRACE)
        return list(pending.values())

    async def _wait(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        # Again after each round: finishing work may start more (an acknowledged command
        # hands its answer to a new task).
        while (tasks := self.in_flight()) and (left := until - loop.time()) > 0:
            await asyncio.wait(tasks, timeout=left)


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


class TrackedCommands(Tracked):
    """A chat adapter's `Work`: its answers in `self.tracker`, waiting in `self.admission`."""

    admission: Admission

    def withdraw(self) -> int:
        """Shutdown, near the grace's end: commands still queued are told to try again."""
        return self.admission.withdraw()


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


# Each chat adapter answers this many commands at once (the PostgreSQL pool has as many
# connections, plus overflow for the scheduler and webhooks: bot.store.store.POOL_SIZE)
# and queues this many more before it answers "busy, try again". One user may have this
# many commands admitted (queued or running) before the next is refused "wait for your
# answers": a flood from one person then takes a few places, never the whole queue.
COMMAND_WORKERS = 10
COMMAND_QUEUE = 400
COMMAND_PER_USER = 5


_ADMISSIONS: weakref.WeakSet[Admission] = weakref.WeakSet()


def admission_totals() -> tuple[int, int]:
    """(waiting, running) over every live Admission of the process, for /metrics."""
    found = list(_ADMISSIONS)
    return sum(a.waiting for a in found), sum(a.running for a in found)


class Refusal(StrEnum):
    """Why `Admission.ticket` turned a command away; the value is the catalogue message
    the user gets at once, in the acknowledgement."""

    BUSY = "error.busy"  # every worker and every queue place taken
    PENDING = "error.pending"  # this user already has `per_user` commands admitted


class Withdrawn(TransientError):
    """Shutdown gave up on a command still queued: its user is told to try again."""

    def __init__(self) -> None:
        super().__init__(Text("error.restarting"))


class Admission:
    """Bounded, fair concurrency for commands acknowledged before they are worked on.

    At most `limit` run at once (sized to the database pool, so a burst queues here rather
    than inside SQLAlchemy's pool, where a wait ends in a traceback); `queue` more may
    wait, and one user at most `per_user` in all. `ticket(user, channel)` decides
    synchronously, before the acknowledgement is sent: a `Refusal` is said at once instead
    of an answer given late.

    A free worker goes to the channel served least recently among those with a command
    waiting, and in it to the user served least recently: round-robin between channels,
    then between users, so a burst delays each other user by about one command per
    worker, never by the burst (first come, first served made a neighbour wait for the
    whole burst). `withdraw()` (shutdown) ends every wait with `Withdrawn`.
    """

    def __init__(self, limit: int, queue: int, per_user: int = COMMAND_PER_USER) -> None:
        if limit < 1 or queue < 0 or per_user < 1:
            raise ValueError("limit and per_user must be at least 1 and queue at least 0")
        self.limit = limit
        self.queue = queue
        self.per_user = per_user
        self.running = 0
        self.waiting = 0
        self.withdrawn = False
        self._per_user: Counter[str | None] = Counter()
        # channel -> user -> their waiters, oldest first.
        self._queues: dict[str | None, dict[str | None, deque[_Waiter]]] = {}
        # When each channel, and each user in a channel, was last given a worker (a turn
        # number), kept while they have commands admitted; never served goes first.
        self._turn = 0
        self._served: dict[_Key, int] = {}
        self._admitted: Counter[_Key] = Counter()
        _ADMISSIONS.add(self)

    @property
    def depth(self) -> int:
        """Commands admitted and waiting for a slot (the /metrics queue depth)."""
        return self.waiting

    def ticket(
        self, user: str | None = None, channel: str | None = None
    ) -> AdmissionTicket | Refusal:
        """A place in the queue, reserved now, or why there is none."""
        if self.withdrawn or self.running + self.waiting >= self.limit + self.queue:
            return Refusal.BUSY
        # A command with no user id counts only against the whole queue.
        if user is not None and self._per_user[user] >= self.per_user:
            return Refusal.PENDING
        self.waiting += 1
        self._per_user[user] += 1
        self._admitted.update((("channel", channel), ("user", channel, user)))
        return AdmissionTicket(self, user, channel)

    def withdraw(self) -> int:
        """Shutdown: every command still waiting (or admitted and not yet waiting) ends its
        wait with `Withdrawn`; running ones go on. Returns how many were waiting."""
        self.withdrawn = True
        for users in self._queues.values():
            for waiters in users.values():
                for waiter in waiters:
                    if not waiter.done():
                        waiter.set_exception(Withdrawn())
        self._queues.clear()
        return self.waiting

    async def _acquire(self, user: str | None, channel: str | None) -> None:
        if self.withdrawn:
            raise Withdrawn()
        if self.running < self.limit and not self._queues:
            self.running += 1
            self._serve(user, channel)
            return
        waiter: _Waiter = asyncio.get_running_loop().create_future()
        self._queues.setdefault(channel, {}).setdefault(user, deque()).append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._release()  # given a slot, then cancelled before it ran: pass it on
            else:
                self._forget(waiter, user, channel)
            raise

    def _serve(self, user: str | None, channel: str | None) -> None:
        self._turn += 1
        self._served[("channel", channel)] = self._served[("user", channel, user)] = self._turn

    def _forget(self, waiter: _Waiter, user: str | None, channel: str | None) -> None:
        waiters = self._queues.get(channel, {}).get(user)
        if waiters is not None and waiter in waiters:
            waiters.remove(waiter)
            self._prune(user, channel)

    def _prune(self, user: str | None, channel: str | None) -> None:
        users = self._queues[channel]
        if not users[user]:
            del users[user]
        if not users:
            del self._queues[channel]

    def _release(self) -> None:
        """A slot came free: hand it to the next waiter in round-robin order."""
        while self._queues:
            # Ties (never served) go in arrival order: dicts keep insertion order.
            channel = min(self._queues, key=lambda c: self._served.get(("channel", c), 0))
            users = self._queues[channel]
            user = min(users, key=lambda u: self._served.get(("user", channel, u), 0))
            waiter = users[user].popleft()
            self._prune(user, channel)
            if not waiter.done():
                self._serve(user, channel)
                waiter.set_result(None)  # the slot passes on: `running` is unchanged
                return
        self.running -= 1

    def _discharge(self, user: str | None, channel: str | None) -> None:
        """A ticket's place is given back: forget who it counted for once they have none."""
        self._per_user[user] -= 1
        if self._per_user[user] <= 0:
            del self._per_user[user]
        for key in (("channel", channel), ("user", channel, user)):
            self._admitted[key] -= 1
            if self._admitted[key] <= 0:
                del self._admitted[key]
                self._served.pop(key, None)


_Waiter = asyncio.Future[None]
_Key = tuple[str | None, ...]


class AdmissionTicket:
    """`async with ticket:` waits for a slot (its channel's and user's turn), then holds
    it for the block; raises `Withdrawn` when shutdown gave up on the queue first."""

    def __init__(self, admission: Admission, user: str | None, channel: str | None) -> None:
        self.admission = admission
        self.user = user
        self.channel = channel
        self._queued = True
        self._held = False
        self._counted = True

    async def __aenter__(self) -> None:
        admission = self.admission
        try:
            await admission._acquire(self.user, self.channel)
        finally:
            self._queued = False
            admission.waiting -= 1
        self._held = True

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
            admission._release()
        if self._counted:
            self._counted = False
            admission._discharge(self.user, self.channel)
