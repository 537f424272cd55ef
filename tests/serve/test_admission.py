"""The command queue (bot.core.tasks.Admission): never more running than its workers,
never more admitted than workers plus queue, nor than `per_user` for one user; every place
given back; workers shared round-robin between channels, then between users."""

from __future__ import annotations

import asyncio
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.tasks import Admission, AdmissionTicket, Refusal, Withdrawn

USERS = st.sampled_from(["U1", "U2", "U3", None])
CHANNELS = st.sampled_from(["C1", "C2", "C3"])


@settings(max_examples=60, deadline=None)
@given(
    limit=st.integers(1, 6),
    queue=st.integers(0, 6),
    per_user=st.integers(1, 4),
    arrivals=st.lists(st.tuples(USERS, CHANNELS), max_size=30),
    cancelled=st.sets(st.integers(0, 29)),
)
def test_admission_bounds_running_queued_and_per_user_work(
    limit: int,
    queue: int,
    per_user: int,
    arrivals: list[tuple[str | None, str]],
    cancelled: set[int],
) -> None:
    async def scenario() -> None:
        admission = Admission(limit, queue, per_user)
        peak = 0
        release = asyncio.Event()

        async def work(ticket: AdmissionTicket) -> None:
            nonlocal peak
            async with ticket:
                peak = max(peak, admission.running)
                await release.wait()

        admitted: list[AdmissionTicket] = []
        per: Counter[str | None] = Counter()
        for user, channel in arrivals:
            ticket = admission.ticket(user, channel)
            full = len(admitted) >= limit + queue
            # Decided at once (before any await): the queue first, then the user's share.
            if full:
                assert ticket is Refusal.BUSY
            elif user is not None and per[user] >= per_user:
                assert ticket is Refusal.PENDING
            else:
                assert isinstance(ticket, AdmissionTicket)
                admitted.append(ticket)
                per[user] += 1
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
        # Every place was given back, the users' shares too.
        assert all(isinstance(admission.ticket(u, c), AdmissionTicket) for u, c in arrivals[:1])

    asyncio.run(scenario())


@settings(max_examples=60, deadline=None)
@given(arrivals=st.lists(st.tuples(USERS, CHANNELS), min_size=1, max_size=30))
def test_a_free_worker_goes_round_robin_between_channels_then_users(
    arrivals: list[tuple[str | None, str]],
) -> None:
    """One worker, every command queued at once, then let through one by one: while two
    channels (or two users of one channel) both have commands waiting, neither is given
    two turns more than the other, however the commands arrived."""

    async def scenario() -> list[tuple[str | None, str]]:
        admission = Admission(1, len(arrivals), per_user=len(arrivals))
        started: list[int] = []
        turns = [asyncio.Event() for _ in arrivals]
        begun = asyncio.Event()

        async def work(index: int, ticket: AdmissionTicket) -> None:
            async with ticket:
                started.append(index)
                begun.set()
                await turns[index].wait()

        tickets = [admission.ticket(u, c) for u, c in arrivals]
        tasks = [
            asyncio.create_task(work(i, t))
            for i, t in enumerate(tickets)
            if isinstance(t, AdmissionTicket)
        ]
        assert len(tasks) == len(arrivals)
        async with asyncio.timeout(10):  # a hang is a failure, not a stuck suite
            for _ in arrivals:
                await begun.wait()  # the next one starts on its own
                begun.clear()
                turns[started[-1]].set()
            await asyncio.gather(*tasks)
        return [arrivals[i] for i in started]

    order = asyncio.run(scenario())
    assert sorted(order, key=repr) == sorted(arrivals, key=repr)
    for served in range(len(order)):
        before, left = order[: served + 1], order[served + 1 :]
        waiting_channels = {c for _, c in left}
        given = Counter(c for _, c in before)
        counts = [given[c] for c in waiting_channels]
        assert not counts or max(counts) - min(counts) <= 1, (served, order)
        for channel in waiting_channels:
            users = {u for u, c in left if c == channel}
            mine = Counter(u for u, c in before if c == channel)
            per_user = [mine[u] for u in users]
            assert max(per_user) - min(per_user) <= 1, (served, order)


async def test_withdraw_ends_every_wait_and_leaves_the_running_alone() -> None:
    admission = Admission(1, 5)
    running, queued = admission.ticket("U1", "C1"), admission.ticket("U2", "C1")
    assert isinstance(running, AdmissionTicket) and isinstance(queued, AdmissionTicket)
    await running.__aenter__()
    waiting = asyncio.create_task(queued.__aenter__())
    await asyncio.sleep(0)
    assert admission.withdraw() == 1
    try:
        await waiting
    except Withdrawn as exc:
        assert exc.message("en") == "vllm-bot is restarting; try again in a minute"
    else:
        raise AssertionError("a queued command went on after the queue was withdrawn")
    assert (admission.running, admission.waiting) == (1, 0)
    assert admission.ticket("U3", "C2") is Refusal.BUSY
    await running.__aexit__(None, None, None)
    queued.cancel()
    assert admission.running == 0
