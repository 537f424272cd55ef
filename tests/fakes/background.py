"""A fake server on a thread of its own, for callers without a running loop of theirs:
a CLI subprocess, or the in-process CLI (tests/cli.py), whose asyncio.run needs its own."""

from __future__ import annotations

import asyncio
import threading
from typing import Any


class BackgroundFake:
    """A fake server on its own event loop, so subprocesses can talk to it."""

    def __init__(self, fake: Any) -> None:
        self.fake = fake
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> Any:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.fake.start(), self.loop).result(10)
        return self.fake

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.fake.close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
