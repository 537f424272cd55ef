"""A request held by a fake server, so a test can kill the client mid-request."""

from __future__ import annotations

import asyncio
import threading


class Gate:
    """Holds the `nth` call of a method or route (before it takes effect, or after, before
    the answer). Thread-safe: tests in another thread wait on `reached` and call
    `release()`; the fake's handler awaits `pause()`."""

    def __init__(self, nth: int, after: bool) -> None:
        self.nth = nth
        self.after = after
        self.reached = threading.Event()
        self.released = threading.Event()
        self.dropped = False

    def release(self, *, drop: bool = False) -> None:
        """Let the request go on; `drop`: as if it never arrived (a gate held before it
        takes effect answers 503 and does nothing)."""
        self.dropped = drop
        self.released.set()

    async def pause(self) -> None:
        self.reached.set()
        await asyncio.to_thread(self.released.wait, 60)
