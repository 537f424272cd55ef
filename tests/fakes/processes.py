"""Processes for ledger tests: a pid that is gone, owners of gone and live instances."""

from __future__ import annotations

import fcntl
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.store.ledger import Owner


def dead_pid() -> int:
    """The pid of a process that has exited and been reaped (so it is not alive)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def gone_owner(pid: int = 1, host: str | None = None) -> Owner:
    """A claim owner whose instance is gone (it never holds its liveness lock), named with
    this host and `pid` 1 by default: what every container's process looks like."""
    return Owner(f"{secrets.token_hex(8)}.crashed", host or socket.gethostname(), pid)


@contextmanager
def live_instance(database: Path, pid: int = 1, host: str | None = None) -> Iterator[Owner]:
    """An owner of another instance that is alive: its SQLite liveness lock is held (as
    the other process would hold it) for the block."""
    owner = gone_owner(pid, host)
    assert owner.instance is not None
    folder = Path(f"{database}.instances")
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / owner.instance, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        yield owner
    finally:
        os.close(fd)
