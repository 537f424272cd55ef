"""The command queue (bot.core.tasks.Admission): never more running than its workers,
never more admitted than workers plus queue, and every place given back."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.tasks import Admission


@settings(max_examples=60, deadline=None)
@given(
    limit=st.integers(1, 6),
    queue=st.integers(0, 6),
    arrivals=st.integers(0, 30),
    cancelled=st.sets(st.integers(0, 29)),
)
def test_admission_bounds_running_and_queued_work(
    limit: int, queue: int, arrivals: int, cancelled: set[int]
) -> None:
    async def scenario() -> None:
        admission = Admission(limit, queue)
        peak = 0
        release = asyncio.Event()

        async def work(ticket: object) -> None:
            nonlocal peak
            async with ticket:  # type: ignore[attr-defined]
                peak = max(peak, admission.running)
                await release.wait()

        tickets = [admission.ticket() for _ in range(arrivals)]
        admitted = [t for t in tickets if t is not None]
        assert len(admitted) == min(arrivals, limit + queue)
        # Once the queue is full, refusals are decided at once (before any await).
        assert all(t is None for t in tickets[len(admitted) :])
        tasks = [asyncio.create_task(work(t)) for t in admitted]
        await asyncio.sleep(0)
        for index in sorted(cancelled):
            if index < len(tasks):
                tasks[index].cancel()
        await asyncio.sleep(0)
        assert admission.running <= limit
        assert admission.running + admission.waiting <= limit + queue
        release.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert peak <= limit
        assert (admission.running, admission.waiting) == (0, 0)
        assert admission.ticket() is not None  # every place was given back

    asyncio.run(scenario())
