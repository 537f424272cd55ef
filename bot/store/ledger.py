"""The one claim/lease ledger primitive: exactly-once work keyed by a unique row.

Digest delivery (`deliveries`, one row per part) and alert sends (`alerts_sent`, one row
per subscription and PR) both use it. A row is a *claim* while its owner works on it and
a *record* once the work is done:

1. `claim` inserts the row as "claimed" with the owner's token, host, pid, process start
   time and a lease expiry. The unique key lets only one owner win, from any process or
   database connection, on SQLite and PostgreSQL alike.
2. The owner does the work, then `record` turns the row "sent".
3. A failed attempt is marked "failed" (with its error, redacted and cut short), so the
   next claim takes it at once.

Who owns a claim is an *instance*: a random id each process draws at start, written into
the claim's token (`INSTANCE.RUN`). PIDs and hostnames only label the claim for people: PID
1 in every container and a hostname shared by replicas (host networking, compose
`hostname:`, Kubernetes hostNetwork) must never make two owners. An instance is alive while
it holds its liveness lock, a lease that only the owner's own life renews:

- PostgreSQL: a shared session advisory lock keyed by the instance, on a connection of its
  own. When the process dies its session ends and PostgreSQL frees the lock at once.
- SQLite: a `flock` on `DATABASE.instances/INSTANCE` next to the database file, released
  by the kernel when the process dies (containers sharing the volume see the same lock).

So a claim of an instance that is gone is taken over (a killed `digest --post` can be re-run
immediately), and one of a live instance never is. On PostgreSQL a lock that is missing does
not yet mean its holder is dead: its connection may have been ended (`pg_terminate_backend`,
an idle timeout, a restart) while the process posts on. The holder watches that connection,
takes the lock again at once, and stops its claimed work (`fenced`) when it cannot within
`SELF_FENCE`; a taker waits until the lock has been missing for `FENCE` (longer) before it
takes a claim over. A send cut short (cancelled, or a transient failure) may still land:
its row stays untaken for `SETTLE` before a takeover asks the platform. The claim's own lease
(`lease_until`) decides only when liveness cannot be told (rows written before instance
ids, a database error while asking). The takeover is a compare-and-swap on the old
owner's token, so two runners cannot both win. A takeover (or a failed attempt) means the
work may have happened before the owner died: the caller must reconcile with the outside
world before doing it again (`Outcome.DOUBT`).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import fcntl
import logging
import os
import secrets
import socket
import uuid
import weakref
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import Table, and_, delete, select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from bot.core.models import JSON
from bot.core.secrets import redact
from bot.store.sql import upsert

log = logging.getLogger(__name__)

CLAIMED = "claimed"
SENT = "sent"
FAILED = "failed"

# Longer than one unit of work can take (the posters bound their 429 waits and retries
# well under it). Only matters for owners on other hosts: same-host owners are checked
# by pid, so a crash there is taken over at once.
LEASE = timedelta(minutes=5)
ERROR_MAX = 299

# PostgreSQL liveness: the holder pings its lock's connection this often (and gives a ping
# this long), takes the lock again as soon as it is lost, and cancels its claimed work when
# it has not for SELF_FENCE seconds since the last good ping; a taker takes a claim over
# only once the owner's lock has been missing for FENCE seconds on end, longer than the
# holder's worst case (SELF_FENCE plus one ping and the cancellation).
WATCH_SECONDS = 1.0
PING_TIMEOUT = 2.0
SELF_FENCE = 5.0
FENCE = 10.0
# A send cut short may still reach the platform this long after: its part is not taken
# over before (then the platform is asked whether it got there).
SETTLE = timedelta(seconds=10)


class Outcome(enum.Enum):
    NEW = "new"  # first attempt: nothing happened before
    DOUBT = "doubt"  # an earlier attempt died or failed: reconcile before redoing
    BUSY = "busy"  # a live owner holds it
    DONE = "done"  # already recorded


@cache
def _host() -> str:
    return socket.gethostname()


@cache
def _instance(pid: int) -> str:
    # Keyed by pid so that a forked child draws its own.
    return secrets.token_hex(8)


def instance_id() -> str:
    """This process's random instance id (16 hex digits), drawn once at first use."""
    return _instance(os.getpid())


@dataclass(frozen=True, slots=True)
class Owner:
    token: str
    host: str
    pid: int
    started: int | None = None

    @classmethod
    def current(cls) -> Owner:
        return cls(f"{instance_id()}.{uuid.uuid4().hex}", _host(), os.getpid())

    @property
    def instance(self) -> str | None:
        """The instance the token names (None for tokens from before instance ids)."""
        head, dot, _ = self.token.partition(".")
        return head if dot and head else None

    def describe(self) -> str:
        where = f"pid {self.pid} on {self.host}"
        return f"{where}, instance {self.instance}" if self.instance else where


def _holder(token: str | None, host: str | None, pid: int | None, started: int | None) -> Owner:
    """The owner a row's ledger columns name; a missing one (a recorded or failed row keeps
    no token) reads as empty."""
    return Owner(token or "", host or "", pid or 0, started)


def owner_gone(
    owner: Owner, lease_until: datetime | None, now: datetime, alive: bool | None = None
) -> bool:
    """Whether a claim's owner can no longer finish it. `alive` is what the owner's
    liveness lock says (None: unknown, so the claim's lease decides)."""
    if owner.instance is not None and owner.instance == instance_id():
        return False  # another task of this very process
    if alive is None or owner.instance is None:
        return lease_until is None or lease_until <= now
    return not alive


class _Fence:
    """The tasks doing claimed work in this process, cancelled when the lock is lost."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[Any]] = set()

    @asynccontextmanager
    async def __call__(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None:
            self.tasks.add(task)
        try:
            yield
        finally:
            if task is not None:
                self.tasks.discard(task)

    def cancel(self) -> int:
        running = [t for t in self.tasks if not t.done()]
        for task in running:
            task.cancel()
        return len(running)


class Liveness(Protocol):
    async def hold(self) -> None:
        """Make sure this instance holds its liveness lock (before it claims anything)."""

    async def alive(self, instance: str) -> bool | None:
        """Whether `instance` holds its lock now (None: cannot tell)."""

    async def dead(self, instance: str) -> bool | None:
        """Whether `instance` is known gone: its lock is missing and stays missing long
        enough that a live holder would have stopped (None: cannot tell)."""

    # `async with liveness.fenced():` runs the block as claimed work: cancelled when this
    # instance loses its lock and cannot take it back before others may take its claims.
    fenced: _Fence

    async def close(self) -> None: ...


# pg_advisory_lock_shared(int4, int4): the first key is reserved for ledger instances, the
# second is 31 bits of the instance id (a collision only delays a takeover to the lease).
LIVENESS_NAMESPACE = 0x766C6C6D  # "vllm"


def _instance_key(instance: str) -> int:
    return int(instance[:8], 16) & 0x7FFFFFFF


class PostgresLiveness:
    """A shared session advisory lock keyed by the instance, on a connection of its own,
    kept alive (no idle timeout, a ping every WATCH_SECONDS) and watched: lost, it is taken
    again and logged; not back within SELF_FENCE, the claimed work is cancelled."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._connection: Any = None  # asyncpg ships no types
        self._lock = asyncio.Lock()
        self._watch: asyncio.Task[None] | None = None
        self.fenced = _Fence()
        self.losses = 0  # times the lock was lost (tests, logs)

    def _held(self) -> bool:
        return self._connection is not None and not self._connection.is_closed()

    async def hold(self) -> None:
        async with self._lock:
            if self._held():
                return
            await self._take()
            if self._watch is None or self._watch.done():
                self._watch = asyncio.get_running_loop().create_task(
                    self._watching(), name="liveness lock watch"
                )

    async def _take(self) -> None:
        # Lazy: asyncpg, the PostgreSQL driver, loads only with a postgresql URL.
        import asyncpg

        url = self.engine.url.set(drivername="postgresql")
        connection = await asyncpg.connect(
            url.render_as_string(hide_password=False),
            timeout=10,
            server_settings={"application_name": f"vllm-bot instance {instance_id()}"},
        )
        try:
            await keep_session(connection)
            await connection.execute(
                "SELECT pg_advisory_lock_shared($1, $2)",
                LIVENESS_NAMESPACE,
                _instance_key(instance_id()),
            )
        except BaseException:
            connection.terminate()
            raise
        self._connection = connection

    async def _ping(self) -> bool:
        try:
            await self._connection.fetchval("SELECT 1", timeout=PING_TIMEOUT)
        except Exception:
            return False
        return True

    async def _watching(self) -> None:
        loop = asyncio.get_running_loop()
        good = loop.time()
        while self._connection is not None:
            await asyncio.sleep(WATCH_SECONDS)
            async with self._lock:
                if self._connection is None:  # closed
                    return
                if self._held() and await self._ping():
                    good = loop.time()
                    continue
                self.losses += 1
                log.warning(
                    "ledger: lost the liveness lock of instance %s (its PostgreSQL "
                    "connection ended); taking it again",
                    instance_id(),
                    extra={"event": "liveness", "outcome": "lost"},
                )
                await self._reconnect(good)
                good = loop.time()

    async def _reconnect(self, good: float) -> None:
        """Take the lock again; cancel the claimed work once SELF_FENCE has passed."""
        loop = asyncio.get_running_loop()
        stopped = False
        while True:
            with contextlib.suppress(Exception):
                if self._connection is not None and not self._connection.is_closed():
                    self._connection.terminate()
            try:
                await asyncio.wait_for(self._take(), timeout=max(1.0, SELF_FENCE / 2))
            except Exception as exc:
                reason = type(exc).__name__
            else:
                log.info(
                    "ledger: liveness lock of instance %s held again",
                    instance_id(),
                    extra={"event": "liveness", "outcome": "held"},
                )
                return
            if not stopped and loop.time() - good >= SELF_FENCE:
                stopped = True
                count = self.fenced.cancel()
                log.warning(
                    "ledger: liveness lock not back after %.0f s (%s); stopped %d post(s) so "
                    "that another instance may finish them",
                    SELF_FENCE,
                    reason,
                    count,
                    extra={"event": "liveness", "outcome": "fenced"},
                )
            await asyncio.sleep(WATCH_SECONDS)

    async def alive(self, instance: str) -> bool | None:
        try:
            async with self.engine.connect() as connection:
                found = await connection.scalar(
                    text(
                        "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' "
                        "AND classid = CAST(CAST(:ns AS integer) AS oid) "
                        "AND objid = CAST(CAST(:key AS integer) AS oid) "
                        "AND objsubid = 2 AND granted)"
                    ),
                    {"ns": LIVENESS_NAMESPACE, "key": _instance_key(instance)},
                )
        except Exception as exc:  # the lease decides instead
            log.warning("ledger: cannot ask PostgreSQL who is alive: %s", type(exc).__name__)
            return None
        return bool(found)

    async def dead(self, instance: str) -> bool | None:
        # A missing lock may be a live holder between two connections: known dead only
        # once it has stayed missing for longer than such a holder keeps posting.
        loop = asyncio.get_running_loop()
        since = loop.time()
        while True:
            alive = await self.alive(instance)
            if alive is None or alive:
                return None if alive is None else False
            if loop.time() - since >= FENCE:
                return True
            await asyncio.sleep(WATCH_SECONDS / 2)

    async def close(self) -> None:
        # The watch first: it holds `_lock` while it takes the lock again.
        watch, self._watch = self._watch, None
        if watch is not None and watch is not asyncio.current_task():
            watch.cancel()
            with contextlib.suppress(BaseException):
                await watch
        async with self._lock:
            connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.close(), timeout=5)
            if not connection.is_closed():
                connection.terminate()


async def keep_session(connection: Any) -> None:
    """A lock's session must outlive any idle time: turn the server's idle timeouts off for
    it (`idle_session_timeout` exists from PostgreSQL 14 on)."""
    settings = ["idle_in_transaction_session_timeout"]
    if connection.get_server_version() >= (14,):
        settings.append("idle_session_timeout")
    for name in settings:
        await connection.execute(f"SELECT set_config('{name}', '0', false)")


class FileLiveness:
    """SQLite: `flock` on one file per instance (shared by the holder, tried exclusively
    by whoever asks). None as the folder: an in-memory database, which no other process
    can share, so every other instance is gone."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._fd: int | None = None
        # The kernel frees a flock only when its holder dies: never lost while alive.
        self.fenced = _Fence()

    async def dead(self, instance: str) -> bool | None:
        alive = await self.alive(instance)
        return None if alive is None else not alive

    async def hold(self) -> None:
        if self._fd is not None or self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder / instance_id(), os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(fd, fcntl.LOCK_SH)
        self._fd = fd

    async def alive(self, instance: str) -> bool | None:
        if self.folder is None or not instance.isalnum():
            return False
        path = self.folder / instance
        try:
            fd = os.open(path, os.O_RDWR)
        except FileNotFoundError:
            return False
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return None
        finally:
            os.close(fd)
        # Nobody holds it: that instance is gone for good (ids are never reused).
        with contextlib.suppress(OSError):
            path.unlink()
        return False

    async def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None or self.folder is None:
            return
        try:
            # Alone on it (no other store of this process holds it): remove it while still
            # locked, so nobody can find it free and mistake a closing instance for a dead
            # one halfway. Otherwise it stays for whoever finds it unlocked later.
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            (self.folder / instance_id()).unlink(missing_ok=True)
        except OSError:
            pass
        finally:
            os.close(fd)


_LIVENESS: weakref.WeakKeyDictionary[Any, Liveness] = weakref.WeakKeyDictionary()


def liveness_for(engine: AsyncEngine) -> Liveness:
    """The liveness lock of `engine`'s database, one per engine (its ledgers share it)."""
    found = _LIVENESS.get(engine.sync_engine)
    if found is None:
        url = engine.url
        if url.get_backend_name() == "postgresql":
            found = PostgresLiveness(engine)
        else:
            database = url.database or ""
            memory = database in ("", ":memory:") or database.startswith("file:")
            found = FileLiveness(None if memory else Path(database + ".instances"))
        _LIVENESS[engine.sync_engine] = found
    return found


async def close_liveness(engine: AsyncEngine) -> None:
    """Give up `engine`'s liveness lock (the store closes): claims still held are taken
    over at once."""
    found = _LIVENESS.pop(engine.sync_engine, None)
    if found is not None:
        await found.close()


def _aware(at: datetime) -> datetime:
    """SQLite hands timestamps back without their zone: they are UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def error_text(exc: BaseException | str) -> str:
    """A stored error: secrets redacted, one line, under 300 characters."""
    text = exc if isinstance(exc, str) else (f"{type(exc).__name__}: {exc}".rstrip(": "))
    text = " ".join(redact(text).split())
    return text if len(text) <= ERROR_MAX else text[: ERROR_MAX - 1] + "…"


@dataclass(slots=True)
class Claim:
    outcome: Outcome
    # The owner holding it when BUSY; the previous owner when DOUBT.
    holder: Owner | None = None
    previous_error: str | None = None


class ClaimLedger:
    """Claims on rows of `table` identified by the `key` columns.

    The table must have: state, claimed_by, claimed_at, owner_host, owner_pid,
    owner_started, lease_until, last_error (see bot.store.tables and bot.alerts.tables).
    """

    def __init__(
        self,
        engine: AsyncEngine,
        session: async_sessionmaker[Any],
        table: Table,
        key: tuple[str, ...],
    ) -> None:
        self.engine = engine
        self.session = session
        self.table = table
        self.key = key
        self.liveness = liveness_for(engine)

    async def _dead(self, owner: Owner) -> bool | None:
        """Whether the owner's instance is known gone (None: cannot tell), as a takeover
        needs it: on PostgreSQL a missing lock must stay missing for FENCE."""
        instance = owner.instance
        if instance is None:
            return None
        if instance == instance_id():
            return False
        return await self.liveness.dead(instance)

    async def _alive(self, owner: Owner) -> bool | None:
        instance = owner.instance
        if instance is None:
            return None
        if instance == instance_id():
            return True
        return await self.liveness.alive(instance)

    def _insert(self) -> Any:
        return upsert(self.engine, self.table)

    def _where(self, key: Mapping[str, object]) -> Any:
        return and_(*(self.table.c[c] == key[c] for c in self.key))

    def _owned(self, owner: Owner, now: datetime, lease: timedelta) -> JSON:
        return {
            "state": CLAIMED,
            "claimed_by": owner.token,
            "claimed_at": now,
            "owner_host": owner.host,
            "owner_pid": owner.pid,
            "owner_started": owner.started,
            "lease_until": now + lease,
        }

    async def claim(
        self,
        key: Mapping[str, object],
        owner: Owner,
        *,
        lease: timedelta = LEASE,
        values: Mapping[str, object] | None = None,
        now: datetime | None = None,
    ) -> Claim:
        """Claim the row for `owner`: NEW, DOUBT (taken over or retried), BUSY or DONE."""
        now = now or datetime.now(UTC)
        if owner.instance == instance_id():
            # Before the claim exists: others must find its owner alive from the start.
            await self.liveness.hold()
        values = dict(values or {})
        owned = self._owned(owner, now, lease)
        insert = (
            self._insert()
            .values(**dict(key), **values, **owned)
            .on_conflict_do_nothing(index_elements=list(self.key))
        )
        t = self.table.c
        async with self.session.begin() as session:
            if (await session.execute(insert)).rowcount == 1:
                return Claim(Outcome.NEW)
        for _ in range(3):
            async with self.session.begin() as session:
                row = (
                    await session.execute(
                        select(
                            t.state,
                            t.claimed_by,
                            t.owner_host,
                            t.owner_pid,
                            t.owner_started,
                            t.lease_until,
                            t.last_error,
                        ).where(self._where(key))
                    )
                ).first()
                if row is None:  # released meanwhile: insert again
                    if (await session.execute(insert)).rowcount == 1:
                        return Claim(Outcome.NEW)
                    continue
            state, token, host, pid, started, lease_until, error = row
            holder = _holder(token, host, pid, started)
            if state == SENT:
                return Claim(Outcome.DONE)
            if state == CLAIMED and token == owner.token:
                return Claim(Outcome.DOUBT, holder, error)
            # Asked outside any transaction: telling a dead holder takes up to FENCE.
            dead = await self._dead(holder) if state == CLAIMED else None
            if state == CLAIMED and not owner_gone(
                holder, lease_until, now, None if dead is None else not dead
            ):
                return Claim(Outcome.BUSY, holder)
            if state == FAILED and lease_until is not None:
                # A send cut short: let it land before the platform is asked about it.
                wait = (_aware(lease_until) - datetime.now(UTC)).total_seconds()
                if wait > 0:
                    await asyncio.sleep(min(wait, SETTLE.total_seconds()))
            now = datetime.now(UTC)
            owned = self._owned(owner, now, lease)
            async with self.session.begin() as session:
                # Compare-and-swap on the row as read: a concurrent taker changes claimed_by.
                swap = (
                    update(self.table)
                    .where(
                        self._where(key),
                        t.state == state,
                        t.claimed_by == token if token is not None else t.claimed_by.is_(None),
                    )
                    .values(**values, **owned)
                )
                if "attempt" in t:
                    swap = swap.values(attempt=t.attempt + 1)
                if (await session.execute(swap)).rowcount == 1:
                    return Claim(Outcome.DOUBT, holder, error)
        return Claim(Outcome.BUSY)

    def _target(self, key: Mapping[str, object] | None, owner: Owner | None) -> list[Any]:
        where = [] if key is None else [self._where(key)]
        if owner is not None:
            where.append(self.table.c.claimed_by == owner.token)
        if not where:
            raise ValueError("name a key or an owner")
        return where

    async def record(
        self,
        key: Mapping[str, object] | None,
        values: Mapping[str, object] | None = None,
        *,
        owner: Owner | None = None,
        upsert: bool = True,
    ) -> None:
        """Mark the row done. With a key (and `upsert`), it is inserted if a --force or a
        release removed it meanwhile (the work happened either way: `values` must then
        fill every required column); with only an owner, every row the owner holds is
        marked."""
        done = {
            **dict(values or {}),
            "state": SENT,
            "claimed_by": None,
            "lease_until": None,
            "last_error": None,
        }
        if key is None or not upsert:
            stmt: Any = (
                update(self.table)
                .where(*self._target(key, owner), self.table.c.state == CLAIMED)
                .values(**done)
            )
        else:
            stmt = self._insert().values(**dict(key), **done)
            stmt = stmt.on_conflict_do_update(
                index_elements=list(self.key), set_={k: stmt.excluded[k] for k in done}
            )
        async with self.session.begin() as session:
            await session.execute(stmt)

    async def fail(
        self,
        key: Mapping[str, object] | None,
        owner: Owner,
        error: BaseException | str,
        *,
        settle: timedelta | None = None,
    ) -> None:
        """`owner` gave up: the next claim takes the row (and reconciles first), at once,
        or after `settle` when the work may still land (a send cut short)."""
        until = None if settle is None else datetime.now(UTC) + settle
        async with self.session.begin() as session:
            await session.execute(
                update(self.table)
                .where(*self._target(key, owner), self.table.c.state == CLAIMED)
                .values(
                    state=FAILED, claimed_by=None, lease_until=until, last_error=error_text(error)
                )
            )

    async def release(self, key: Mapping[str, object] | None, owner: Owner) -> None:
        """Drop `owner`'s claim: nothing happened (the work was never started)."""
        async with self.session.begin() as session:
            await session.execute(
                delete(self.table).where(
                    *self._target(key, owner),
                    self.table.c.state == CLAIMED,
                )
            )

    async def live(self, rows: list[Any], now: datetime | None = None) -> list[Any]:
        """The rows (with the ledger columns) that are recorded or held by a live owner."""
        now = now or datetime.now(UTC)
        found = []
        for r in rows:
            if r.state == SENT:
                found.append(r)
            elif r.state == CLAIMED:
                holder = _holder(r.claimed_by, r.owner_host, r.owner_pid, r.owner_started)
                if not owner_gone(holder, r.lease_until, now, await self._alive(holder)):
                    found.append(r)
        return found
