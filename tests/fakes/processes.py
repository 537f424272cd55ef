"""Processes for ledger tests: the pid of one that is gone."""

from __future__ import annotations

import subprocess
import sys


def dead_pid() -> int:
    """The pid of a process that has exited and been reaped (so it is not alive)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid
