"""Cron expressions, timezones (with DST) and job ids."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.core.config import Environment
from bot.core.errors import ConfigError
from bot.core.metrics import Metrics
from bot.runtime.scheduler import (
    Jobs,
    build_scheduler,
    fire_times,
    parse_cron,
    week_before,
)
from tests.serve.conftest import FakeServices, make_config

BERLIN = ZoneInfo("Europe/Berlin")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_nine_in_berlin_is_eight_utc_in_winter_and_seven_in_summer() -> None:
    trigger = parse_cron("0 9 * * MON", BERLIN)
    winter = next(fire_times(trigger, utc(2026, 1, 10), utc(2026, 1, 20)))
    summer = next(fire_times(trigger, utc(2026, 7, 10), utc(2026, 7, 20)))
    assert winter.astimezone(UTC) == utc(2026, 1, 12, 8)
    assert summer.astimezone(UTC) == utc(2026, 7, 13, 7)


def test_dst_change_between_two_runs_keeps_local_nine() -> None:
    # Berlin moves to summer time on Sunday 2026-03-29.
    trigger = parse_cron("0 9 * * MON", BERLIN)
    runs = list(fire_times(trigger, utc(2026, 3, 20), utc(2026, 4, 1)))
    assert [r.astimezone(UTC) for r in runs] == [utc(2026, 3, 23, 8), utc(2026, 3, 30, 7)]
    assert {r.astimezone(BERLIN).hour for r in runs} == {9}
    # And back to winter time on Sunday 2026-10-25.
    autumn = list(fire_times(trigger, utc(2026, 10, 20), utc(2026, 11, 3)))
    assert [r.astimezone(UTC) for r in autumn] == [utc(2026, 10, 26, 8), utc(2026, 11, 2, 8)]


@pytest.mark.parametrize(
    ("weekday_field", "expected"),
    [
        ("1", {0}),  # crontab: 1 is Monday (APScheduler 3 alone would read Tuesday)
        ("0", {6}),
        ("7", {6}),
        ("1-5", {0, 1, 2, 3, 4}),
        ("MON,FRI", {0, 4}),
        ("sat-sun", {5, 6}),  # names pass through: APScheduler reads them as crontab does
        ("*/2", {6, 1, 3, 5}),  # crontab: Sunday, Tuesday, Thursday, Saturday
    ],
)
def test_weekdays_follow_crontab_numbering(weekday_field: str, expected: set[int]) -> None:
    trigger = parse_cron(f"0 9 * * {weekday_field}", BERLIN)
    runs = list(fire_times(trigger, utc(2026, 6, 1), utc(2026, 6, 15)))
    assert {r.weekday() for r in runs} == expected


@pytest.mark.parametrize("expr", ["0 9 * *", "61 9 * * MON", "0 9 * * FUNDAY", "every monday"])
def test_bad_cron_is_a_config_error(expr: str) -> None:
    with pytest.raises(ConfigError, match="bad cron"):
        parse_cron(expr, BERLIN)


def test_bad_cron_names_the_target(tmp_path) -> None:
    from bot.core.config import load_config

    path = tmp_path / "c.toml"
    path.write_text('[[digest.targets]]\nplatform = "slack"\nchannel = "C1"\ncron = "x"\n')
    with pytest.raises(ConfigError, match=r"digest\.targets\.0\.cron: bad cron 'x'"):
        load_config(path, Environment())


def test_a_run_posts_the_previous_iso_week_in_the_configured_timezone() -> None:
    monday_nine = datetime(2026, 6, 8, 9, tzinfo=BERLIN)
    assert week_before(monday_nine, BERLIN).label == "2026-W23"
    # 00:30 Monday in Shanghai is still Sunday in UTC: the week is the local one.
    shanghai = ZoneInfo("Asia/Shanghai")
    early = datetime(2026, 6, 8, 0, 30, tzinfo=shanghai)
    assert early.astimezone(UTC).date().isoweekday() == 7
    window = week_before(early, shanghai)
    assert window.label == "2026-W23"
    assert window.start == datetime(2026, 6, 1, tzinfo=shanghai)


async def test_jobs_have_config_ids_and_rebuilding_never_duplicates(store) -> None:
    targets = [
        {"platform": "slack", "channel": "C1", "cron": "0 9 * * MON"},
        {"platform": "discord", "channel": "111", "language": "zh", "cron": "30 8 * * 1"},
    ]
    services = FakeServices(make_config(digest={"targets": targets}), store)

    async def poll(_: object) -> str:
        return ""

    jobs = Jobs(services, post=_never, poll_alerts=poll, sync=poll, metrics=Metrics())
    scheduler = build_scheduler(jobs, alert_minutes=10, sync_minutes=60)
    scheduler.start(paused=True)
    try:
        ids = sorted(job.id for job in scheduler.get_jobs())
        assert ids == [
            "alerts:poll",
            "digest:discord:111:vllm-project/vllm:zh",
            "digest:retry",
            "digest:slack:C1:vllm-project/vllm:en",
            "sync:periodic",
            # Weekly module subscriptions, on every cron a channel can have.
            "weekly:0 9 * * MON",
            "weekly:30 8 * * 1",
        ]
        # A re-election re-adds the same jobs: replaced, not doubled.
        again = build_scheduler(jobs, alert_minutes=10, sync_minutes=60)
        for job in again.get_jobs():
            scheduler.add_job(
                job.func, job.trigger, args=job.args, id=job.id, replace_existing=True
            )
        assert sorted(job.id for job in scheduler.get_jobs()) == ids
        slack = scheduler.get_job("digest:slack:C1:vllm-project/vllm:en")
        nxt = slack.trigger.get_next_fire_time(None, utc(2026, 1, 1))
        assert nxt.astimezone(UTC) == utc(2026, 1, 5, 8)
    finally:
        scheduler.shutdown(wait=False)


async def test_pollers_are_not_scheduled_when_absent(store) -> None:
    services = FakeServices(make_config(), store)
    jobs = Jobs(services, post=_never, metrics=Metrics())
    scheduler = build_scheduler(jobs, alert_minutes=10, sync_minutes=60)
    # Only the weekly-subscription run (a channel may subscribe weekly at any time) and the
    # retry of its incomplete posts.
    assert sorted(job.id for job in scheduler.get_jobs()) == ["digest:retry", "weekly:0 9 * * MON"]


async def _never(*_: object) -> None:
    raise AssertionError("no digest should be posted here")


def test_fire_times_are_inclusive_and_ordered() -> None:
    trigger = parse_cron("0 * * * *", BERLIN)
    runs = list(fire_times(trigger, utc(2026, 6, 1, 10), utc(2026, 6, 1, 12)))
    assert runs == sorted(runs)
    assert [r.astimezone(UTC) for r in runs] == [utc(2026, 6, 1, h) for h in (10, 11, 12)]
    assert all(b - a == timedelta(hours=1) for a, b in itertools.pairwise(runs))


# --- releases ---
async def test_the_release_poll_is_scheduled_only_with_its_interval(store) -> None:
    services = FakeServices(make_config(), store)

    async def poll(_: object) -> str:
        return ""

    jobs = Jobs(services, post=_never, poll_releases=poll, metrics=Metrics())
    with_poll = build_scheduler(jobs, alert_minutes=None, sync_minutes=None, release_minutes=30)
    without = build_scheduler(jobs, alert_minutes=None, sync_minutes=None, release_minutes=0)
    assert "releases:poll" in {job.id for job in with_poll.get_jobs()}
    assert "releases:poll" not in {job.id for job in without.get_jobs()}
