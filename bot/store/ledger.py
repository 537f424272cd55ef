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

A claim whose owner is gone is taken over at once: on the same host when its pid is not
alive (or is a different process now: the start time differs, or it is our own pid, which
means a previous boot of this container); on another host when its lease has expired. The
takeover is a compare-and-swap on the old owner's token, so two runners cannot both win.
A takeover (or a failed attempt) means the work may have happened before the owner died:
the caller must reconcile with the outside world before doing it again (`Outcome.DOUBT`).
"""

from __future__ import annotations

import enum
import os
import socket
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import and_, delete, select, update
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlalchemy.orm import DeclarativeBase

from bot.core.models import JSON
from bot.core.secrets import redact
from bot.store.sql import table_of, upsert

CLAIMED = "claimed"
SENT = "sent"
FAILED = "failed"

# Longer than one unit of work can take (the posters bound their 429 waits and retries
# well under it). Only matters for owners on other hosts: same-host owners are checked
# by pid, so a crash there is taken over at once.
LEASE = timedelta(minutes=5)
ERROR_MAX = 299


class Outcome(enum.Enum):
    NEW = "new"  # first attempt: nothing happened before
    DOUBT = "doubt"  # an earlier attempt died or failed: reconcile before redoing
    BUSY = "busy"  # a live owner holds it
    DONE = "done"  # already recorded


@cache
def _host() -> str:
    return socket.gethostname()


def _started(pid: int) -> int | None:
    """The process's start time in clock ticks since boot (Linux), to tell a reused pid."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # Field 2 (comm) may hold spaces and parentheses: split after its closing one.
    fields = stat[stat.rfind(b")") + 2 :].split()
    if fields and fields[0] == b"Z":
        return -1  # a zombie: dead, only not reaped yet
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class Owner:
    token: str
    host: str
    pid: int
    started: int | None = None

    @classmethod
    def current(cls) -> Owner:
        pid = os.getpid()
        return cls(uuid.uuid4().hex, _host(), pid, _own_start(pid))

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host}"


def _holder(token: str | None, host: str | None, pid: int | None, started: int | None) -> Owner:
    """The owner a row's ledger columns name; a missing one (a recorded or failed row keeps
    no token) reads as empty."""
    return Owner(token or "", host or "", pid or 0, started)


@cache
def _own_start(pid: int) -> int | None:
    """This process's start time: read once (keyed by pid, so a fork reads its own), not
    for every claim row it checks."""
    return _started(pid)


def owner_gone(owner: Owner, lease_until: datetime | None, now: datetime) -> bool:
    """Whether a claim's owner can no longer finish it (see the module docstring)."""
    expired = lease_until is None or lease_until <= now
    if owner.host != _host() or owner.pid <= 0:
        return expired
    if owner.pid == os.getpid():
        # Another task of this process is alive; a previous boot of a container that
        # reuses our pid (pid 1) is not. Only the start time tells them apart.
        mine = _own_start(owner.pid)
        if owner.started is None or mine is None:
            return expired
        return owner.started != mine
    try:
        os.kill(owner.pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass  # alive, another user's
    started = _started(owner.pid)
    if started == -1:
        return True
    return owner.started is not None and started is not None and started != owner.started


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
        table: type[DeclarativeBase],
        key: tuple[str, ...],
    ) -> None:
        self.engine = engine
        self.session = session
        self.table = table
        self.key = key

    def _insert(self) -> Any:
        return upsert(self.engine, table_of(self.table))

    def _where(self, key: Mapping[str, object]) -> Any:
        return and_(*(getattr(self.table, c) == key[c] for c in self.key))

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
        values = dict(values or {})
        owned = self._owned(owner, now, lease)
        insert = (
            self._insert()
            .values(**dict(key), **values, **owned)
            .on_conflict_do_nothing(index_elements=list(self.key))
        )
        t = self.table
        async with self.session.begin() as session:
            if (await session.execute(insert)).rowcount == 1:
                return Claim(Outcome.NEW)
        for _ in range(3):
            async with self.session.begin() as session:
                row = (
                    await session.execute(
                        select(
                            t.state,  # type: ignore[attr-defined]
                            t.claimed_by,  # type: ignore[attr-defined]
                            t.owner_host,  # type: ignore[attr-defined]
                            t.owner_pid,  # type: ignore[attr-defined]
                            t.owner_started,  # type: ignore[attr-defined]
                            t.lease_until,  # type: ignore[attr-defined]
                            t.last_error,  # type: ignore[attr-defined]
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
                if state == CLAIMED and not owner_gone(holder, lease_until, now):
                    return Claim(Outcome.BUSY, holder)
                # Compare-and-swap on the row as read: a concurrent taker changes claimed_by.
                swap = (
                    update(t)
                    .where(
                        self._where(key),
                        t.state == state,  # type: ignore[attr-defined]
                        t.claimed_by == token  # type: ignore[attr-defined]
                        if token is not None
                        else t.claimed_by.is_(None),  # type: ignore[attr-defined]
                    )
                    .values(**values, **owned)
                )
                if hasattr(t, "attempt"):
                    swap = swap.values(attempt=t.attempt + 1)
                if (await session.execute(swap)).rowcount == 1:
                    return Claim(Outcome.DOUBT, holder, error)
        return Claim(Outcome.BUSY)

    def _target(self, key: Mapping[str, object] | None, owner: Owner | None) -> list[Any]:
        where = [] if key is None else [self._where(key)]
        if owner is not None:
            where.append(self.table.claimed_by == owner.token)  # type: ignore[attr-defined]
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
                .where(*self._target(key, owner), self.table.state == CLAIMED)  # type: ignore[attr-defined]
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
        self, key: Mapping[str, object] | None, owner: Owner, error: BaseException | str
    ) -> None:
        """`owner` gave up: the next claim takes the row at once (and reconciles first)."""
        async with self.session.begin() as session:
            await session.execute(
                update(self.table)
                .where(*self._target(key, owner), self.table.state == CLAIMED)  # type: ignore[attr-defined]
                .values(
                    state=FAILED, claimed_by=None, lease_until=None, last_error=error_text(error)
                )
            )

    async def release(self, key: Mapping[str, object] | None, owner: Owner) -> None:
        """Drop `owner`'s claim: nothing happened (the work was never started)."""
        async with self.session.begin() as session:
            await session.execute(
                delete(self.table).where(
                    *self._target(key, owner),
                    self.table.state == CLAIMED,  # type: ignore[attr-defined]
                )
            )

    def live(self, rows: list[Any], now: datetime | None = None) -> list[Any]:
        """The rows (with the ledger columns) that are recorded or held by a live owner."""
        now = now or datetime.now(UTC)
        return [
            r
            for r in rows
            if r.state == SENT
            or (
                r.state == CLAIMED
                and not owner_gone(
                    _holder(r.claimed_by, r.owner_host, r.owner_pid, r.owner_started),
                    r.lease_until,
                    now,
                )
            )
        ]
