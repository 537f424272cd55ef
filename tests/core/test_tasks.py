"""The one task tracker: accepting switch, named in-flight tasks, bounded drain."""

from __future__ import annotations

import asyncio

from bot.core.tasks import TaskTracker, is_work


async def test_spawned_tasks_are_in_flight_until_done() -> None:
    tracker = TaskTracker()
    release = asyncio.Event()
    task = tracker.spawn(release.wait(), "answer C1")
    assert list(tracker.in_flight().values()) == ["answer C1"]
    release.set()
    await task
    assert tracker.in_flight() == {}


async def test_drain_stops_accepting_waits_for_work_and_cancels_the_rest() -> None:
    source = TaskTracker()
    tracker = TaskTracker([source])
    quick = asyncio.Event()
    source.spawn(quick.wait(), "quick")
    stuck = tracker.spawn(asyncio.Event().wait(), "stuck")

    async def finish_quick() -> None:
        await asyncio.sleep(0)
        quick.set()

    helper = asyncio.create_task(finish_quick())
    cancelled = await tracker.drain(grace=0.2)
    await helper
    assert cancelled == ["stuck"]
    assert stuck.cancelled()
    assert not tracker.accepting and not source.accepting


async def test_track_counts_the_running_task_but_not_for_itself() -> None:
    tracker = TaskTracker()
    seen: list[list[str]] = []
    inside = asyncio.Event()
    release = asyncio.Event()

    async def job() -> None:
        async with tracker.track("digest job"):
            seen.append(list(tracker.in_flight().values()))  # the caller's own is left out
            inside.set()
            await release.wait()

    task = asyncio.create_task(job())
    await inside.wait()
    assert list(tracker.in_flight().values()) == ["digest job"]
    release.set()
    await task
    assert seen == [[]]
    assert tracker.in_flight() == {}


async def test_a_broken_source_does_not_stop_the_others() -> None:
    class Broken:
        def stop_accepting(self) -> None:
            raise RuntimeError("boom")

        def in_flight(self) -> dict[asyncio.Task[object], str]:
            raise RuntimeError("boom")

    good = TaskTracker()
    tracker = TaskTracker([Broken(), good])
    tracker.stop_accepting()
    assert not good.accepting
    assert tracker.in_flight() == {}
    assert is_work(good) and not is_work(object())
