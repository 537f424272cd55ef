"""Catch-up after downtime and "never twice": the delivery ledger decides."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.core.errors import GitHubUnavailable
from bot.core.metrics import Metrics
from bot.core.weeks import Window
from bot.delivery import DeliveryIncomplete, DeliveryResult
from bot.runtime.scheduler import DigestJob, Jobs, digest_document_id
from tests.serve.conftest import FakeServices, make_config

# Target: Mondays 09:00 Europe/Berlin = 07:00 UTC in June. 2026-06-08 is a Monday.
RUN = datetime(2026, 6, 8, 7, tzinfo=UTC)
DOCUMENT = digest_document_id("vllm-project/vllm", "2026-W23", "en")


@dataclass
class RecordingPost:
    """Stands in for build + post_digest: posts `parts` messages through the real ledger."""

    parts: int = 2
    fail_with: Exception | None = None
    calls: list[tuple[str, str]] = field(default_factory=list)

    async def __call__(self, services: Any, job: DigestJob, window: Window) -> DeliveryResult:
        self.calls.append((job.id, window.label))
        if self.fail_with is not None:
            raise self.fail_with
        document = digest_document_id(job.repo, window.label, job.language)
        known = await services.store.deliveries.sent(document, job.platform, job.channel)
        result = DeliveryResult(document, job.platform, job.channel, self.parts)
        for part in range(self.parts):
            if part in known:
                result.skipped.append(part)
            else:
                await services.store.deliveries.record(
                    document, job.platform, job.channel, part, self.parts, f"m{part}", None
                )
                result.sent.append(part)
        return result


def services_for(store, catch_up_hours: float = 24) -> FakeServices:
    target = {
        "platform": "slack",
        "channel": "C0123",
        "cron": "0 9 * * MON",
        "catch_up_hours": catch_up_hours,
    }
    return FakeServices(make_config(digest={"targets": [target]}), store)


def jobs_at(services: FakeServices, now: datetime, post: RecordingPost, **kw: Any) -> Jobs:
    return Jobs(services, post=post, clock=lambda: now, metrics=kw.pop("metrics", Metrics()))


async def test_missed_run_within_the_window_is_posted_once_at_start(store) -> None:
    post = RecordingPost()
    jobs = jobs_at(services_for(store), RUN + timedelta(hours=3), post)
    outcomes = await jobs.catch_up()
    assert outcomes == {"digest:slack:C0123:vllm-project/vllm:en": ["posted"]}
    assert post.calls == [("digest:slack:C0123:vllm-project/vllm:en", "2026-W23")]
    assert set(await store.deliveries.sent(DOCUMENT, "slack", "C0123")) == {0, 1}


async def test_missed_run_beyond_the_window_is_not_posted(store) -> None:
    post = RecordingPost()
    jobs = jobs_at(services_for(store, catch_up_hours=24), RUN + timedelta(hours=25), post)
    assert await jobs.catch_up() == {}
    assert post.calls == []


async def test_catch_up_hours_zero_disables_catch_up(store) -> None:
    post = RecordingPost()
    jobs = jobs_at(services_for(store, catch_up_hours=0), RUN + timedelta(minutes=5), post)
    assert await jobs.catch_up() == {}
    assert post.calls == []


async def test_no_double_post_across_a_restart(store) -> None:
    services = services_for(store)
    first = RecordingPost()
    assert await jobs_at(services, RUN + timedelta(hours=1), first).catch_up()
    # The process restarts (new Jobs, new scheduler memory, same database).
    second = RecordingPost()
    metrics = Metrics()
    restarted = jobs_at(services, RUN + timedelta(hours=2), second, metrics=metrics)
    outcomes = await restarted.catch_up()
    assert outcomes == {"digest:slack:C0123:vllm-project/vllm:en": ["delivered"]}
    assert second.calls == []
    # The scheduled run itself (e.g. the restart happened just before 09:00) is a no-op too.
    assert await restarted.run_digest("digest:slack:C0123:vllm-project/vllm:en") == "delivered"
    assert second.calls == []
    assert metrics.digests_posted.value(platform="slack") == 0
    assert metrics.jobs.value(job="digest", outcome="delivered") == 2


async def test_partly_posted_digest_is_resumed(store) -> None:
    # A crash after part 0 of 2: the ledger is incomplete, so the post runs (and resumes).
    await store.deliveries.record(DOCUMENT, "slack", "C0123", 0, 2, "m0", None)
    post = RecordingPost()
    outcomes = await jobs_at(services_for(store), RUN + timedelta(hours=1), post).catch_up()
    assert list(outcomes.values()) == [["posted"]]
    assert set(await store.deliveries.sent(DOCUMENT, "slack", "C0123")) == {0, 1}


async def test_failed_post_is_counted_and_retried_on_the_next_start(store) -> None:
    services = services_for(store)
    failing = RecordingPost(fail_with=GitHubUnavailable("GitHub unavailable after 6 attempts"))
    metrics = Metrics()
    jobs = jobs_at(services, RUN + timedelta(hours=1), failing, metrics=metrics)
    assert list((await jobs.catch_up()).values()) == [["failed"]]
    assert metrics.errors.value(kind="github") == 1
    assert metrics.jobs.value(job="digest", outcome="failed") == 1
    retry = RecordingPost()
    assert list((await jobs_at(services, RUN + timedelta(hours=2), retry).catch_up()).values()) == [
        ["posted"]
    ]


async def test_scheduled_run_posts_the_week_its_schedule_meant(store) -> None:
    # Started 10 minutes late (misfire grace) - still the run of 09:00, still 2026-W23.
    post = RecordingPost()
    jobs = jobs_at(services_for(store), RUN + timedelta(minutes=10), post)
    assert await jobs.run_digest("digest:slack:C0123:vllm-project/vllm:en") == "posted"
    assert post.calls[0][1] == "2026-W23"


@pytest.mark.parametrize("hours_down", [24 * 8, 24 * 15])
async def test_long_catch_up_windows_post_each_missed_week_once(store, hours_down: int) -> None:
    post = RecordingPost()
    services = services_for(store, catch_up_hours=hours_down)
    now = RUN + timedelta(hours=1)
    await jobs_at(services, now, post).catch_up()
    weeks = [label for _, label in post.calls]
    assert weeks == sorted(set(weeks))
    assert len(weeks) == (2 if hours_down == 24 * 8 else 3)
    await jobs_at(services, now, post).catch_up()  # and again after a restart: nothing
    assert len(post.calls) == len(weeks)


async def test_a_delivery_held_by_another_instance_is_no_failure_and_is_retried(
    store, caplog: pytest.LogCaptureFixture
) -> None:
    @dataclass
    class StopsOnce(RecordingPost):
        stopped: bool = False

        async def __call__(self, services: Any, job: DigestJob, window: Window) -> DeliveryResult:
            if not self.stopped:
                self.stopped = True
                # What post_digest raises when a live other run holds part 2 of 2.
                result = DeliveryResult(DOCUMENT, job.platform, job.channel, 2, skipped=[0])
                result.busy_part = 1
                raise DeliveryIncomplete(result)
            return await super().__call__(services, job, window)

    post = StopsOnce()
    metrics = Metrics()
    jobs = jobs_at(services_for(store), RUN + timedelta(hours=3), post, metrics=metrics)
    caplog.set_level(logging.INFO, "bot.jobs")
    # A healthy failover: the standby finds the digest held by a live run. Said at INFO,
    # counted apart from failures (an alert on failed digests must not fire).
    assert await jobs.catch_up() == {next(iter(jobs.digests)): ["held"]}
    assert metrics.jobs.value(job="digest", outcome="failed") == 0
    assert metrics.jobs.value(job="digest", outcome="held") == 1
    held = [r for r in caplog.records if "held by another instance" in r.getMessage()]
    assert [r.levelno for r in held] == [logging.INFO]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert list(jobs.pending) == list(jobs.digests)
    # The retry tick posts the rest; then the job is delivered and nothing is pending.
    assert list((await jobs.retry_pending()).values()) == ["posted"]
    assert jobs.pending == {}
    assert list((await jobs.catch_up()).values()) == [["delivered"]]
