"""The poller: windows with overlap, progress kept in the store, failures redone."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.alerts.poller import AlertPoller
from bot.alerts.repository import PollCursors
from bot.core.errors import GitHubUnavailable
from bot.core.models import PullRequest

from .conftest import REPO, T0, Env, make_pr


class FakeSource:
    """Answers from a list of PRs, like GitHub's search, and records the windows asked."""

    def __init__(self) -> None:
        self.prs: list[PullRequest] = []
        self.windows: list[tuple[datetime, datetime]] = []
        self.down = False

    async def merged_between(self, repo: str, start: datetime, end: datetime) -> list[PullRequest]:
        self.windows.append((start, end))
        if self.down:
            raise GitHubUnavailable("GitHub unavailable after 6 attempts: 502")
        return [p for p in self.prs if p.repo == repo and start <= p.merged_at < end]


async def test_first_poll_starts_now_and_later_polls_overlap(env: Env) -> None:
    source = FakeSource()
    poller = AlertPoller(env.pipeline, source, [REPO])
    await env.subscribe("attention")
    source.prs = [make_pr(1, merged_at=T0 - timedelta(minutes=5))]
    await poller.poll_once()
    assert source.windows == [(T0 - timedelta(minutes=15), T0)]
    assert env.outbox.numbers() == [[1]]
    # GitHub's index lagged: PR 2 merged before the last poll but shows up only now.
    source.prs.append(make_pr(2, merged_at=T0 - timedelta(minutes=2)))
    env.clock.advance(minutes=10)
    await poller.poll_once()
    assert source.windows[-1] == (T0 - timedelta(minutes=15), T0 + timedelta(minutes=10))
    assert env.outbox.numbers() == [[1], [2]]  # 1 was re-read and not re-alerted
    assert await PollCursors(env.store).last_seen(REPO) == T0 + timedelta(minutes=10)


async def test_failed_poll_keeps_the_last_seen_time(env: Env) -> None:
    source = FakeSource()
    poller = AlertPoller(env.pipeline, source, [REPO, "other/repo"])
    await env.subscribe("attention")
    await poller.poll_once()
    source.down = True
    env.clock.advance(minutes=10)
    assert await poller.poll_once() == []
    assert await PollCursors(env.store).last_seen(REPO) == T0
    source.down = False
    source.prs = [make_pr(3, merged_at=T0 + timedelta(minutes=5))]
    env.clock.advance(minutes=10)
    [first, _other] = await poller.poll_once()
    assert first.start == T0 - timedelta(minutes=15)  # the failed window is read again
    assert env.outbox.numbers() == [[3]]


async def test_poll_after_long_downtime_reaches_back_at_most_max_age(env: Env) -> None:
    source = FakeSource()
    db = PollCursors(env.store)
    await db.set_last_seen(REPO, T0 - timedelta(days=5), T0 - timedelta(days=5))
    await AlertPoller(env.pipeline, source, [REPO]).poll_once()
    assert source.windows == [(T0 - timedelta(hours=24), T0)]
