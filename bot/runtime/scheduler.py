"""Scheduled work: weekly digests per `[[digest.targets]]`, the alert poller, a periodic sync.

Job ids are derived from the config, and jobs are added with `replace_existing=True`, so
re-adding them (a restart, a re-election) never duplicates one. Whether a digest was
already posted is decided by the store's delivery ledger, never by the scheduler's memory:
that is what makes catch-up after downtime safe to run on every start.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from bot.cron import parse_cron
from bot.errors import ConfigError
from bot.runtime.metrics import METRICS, Metrics, error_kind
from bot.tasks import TaskTracker
from bot.weeks import Window, iso_week

log = logging.getLogger("bot.jobs")


def fire_times(trigger: CronTrigger, since: datetime, until: datetime) -> Iterator[datetime]:
    """Fire times t with since <= t <= until."""
    fire = trigger.get_next_fire_time(None, since)
    while fire is not None and fire <= until:
        yield fire
        fire = trigger.get_next_fire_time(fire, fire + timedelta(seconds=1))


def week_before(fire: datetime, tz: tzinfo) -> Window:
    """The previous ISO week as seen at `fire` in `tz` (what a run at `fire` posts)."""
    day = fire.astimezone(tz).date() - timedelta(days=7)
    iso = day.isocalendar()
    return iso_week(iso.year, iso.week, tz)


def digest_document_id(repo: str, week: str, language: str) -> str:
    # Must match bot/digest/document.py `digest_document(...).id`: the ledger is keyed by it.
    return f"digest:{repo}:{week}:{language}"


async def already_delivered(store: Any, document: str, platform: str, channel: str) -> bool:
    """Every part of `document` is in the ledger for this channel."""
    parts = await store.deliveries(document, platform, channel)
    if not parts:
        return False
    expected: int = max(d.parts for d in parts.values())
    return len(parts) >= expected


# ---------------------------------------------------------------------------- digest jobs


@dataclass(frozen=True, slots=True)
class DigestJob:
    id: str
    platform: str
    channel: str
    repo: str
    language: str
    cron: str
    catch_up_hours: float
    trigger: CronTrigger

    @property
    def label(self) -> str:
        return f"{self.repo} ({self.language}) → {self.platform}:{self.channel}"


# (services, job, window) → the delivery result (bot.delivery.DeliveryResult: its
# `nothing_new` and `summary_line()` are read when present).
PostDigest = Callable[[Any, DigestJob, Window], Awaitable[Any]]


async def post_with_pipeline(services: Any, job: DigestJob, window: Window) -> Any:
    """The real post: build the digest (syncing first) and post it through the ledger."""
    from bot.digest.pipeline import build_for_window
    from bot.posting import post_digest

    built = await build_for_window(services, job.repo, window, job.language, sync=True)
    return await post_digest(services, built, job.platform, job.channel, force=False)


def digest_jobs(config: Any) -> list[DigestJob]:
    """One job per configured target; ConfigError names the first bad cron."""
    jobs: dict[str, DigestJob] = {}
    for index, target in enumerate(config.digest.targets):
        repo = config.repo(target.repo).name
        language = target.language or config.language
        job_id = f"digest:{target.platform}:{target.channel}:{repo}:{language}"
        try:
            trigger = parse_cron(target.cron, config.tz)
        except ConfigError as exc:
            raise ConfigError(f"digest.targets.{index}.cron: {exc}") from None
        if job_id in jobs:
            log.warning("digest target %s is configured twice; running it once", job_id)
        jobs[job_id] = DigestJob(
            job_id,
            target.platform,
            target.channel,
            repo,
            language,
            target.cron,
            target.catch_up_hours,
            trigger,
        )
    return list(jobs.values())


# Scheduled jobs `track` themselves; its sources are the platforms' own trackers.
InFlight = TaskTracker


class Jobs:
    """The job functions. Injectable pieces keep tests free of GitHub and the platforms."""

    def __init__(
        self,
        services: Any,
        *,
        post: PostDigest = post_with_pipeline,
        poll_alerts: Callable[[Any], Awaitable[Any]] | None = None,
        sync: Callable[[Any], Awaitable[Any]] | None = None,
        inflight: InFlight | None = None,
        metrics: Metrics = METRICS,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.services = services
        self.post = post
        self.poll_alerts = poll_alerts
        self.sync = sync
        self.inflight = inflight or InFlight()
        self.metrics = metrics
        self.clock = clock
        self.digests = {job.id: job for job in digest_jobs(services.config)}

    @property
    def tz(self) -> tzinfo:
        zone: tzinfo = self.services.config.tz
        return zone

    # ------------------------------------------------------------------ digests

    async def run_digest(self, job_id: str, fire: datetime | None = None) -> str:
        """Post the week before `fire` (default: the latest scheduled time) unless the
        ledger says it is already there. Returns the outcome: posted | delivered | skipped
        | failed."""
        job = self.digests[job_id]
        now = self.clock()
        if fire is None:
            # APScheduler does not pass the scheduled time; a late start (misfire grace)
            # must still post the week the schedule meant, so ask the trigger.
            recent = list(fire_times(job.trigger, now - timedelta(days=1), now))
            fire = recent[-1] if recent else now
        window = week_before(fire, self.tz)
        document = digest_document_id(job.repo, window.label, job.language)
        # The job's line is also the post's line: platform and channel as in log_post.
        fields = {
            "event": "digest",
            "job": job.id,
            "week": window.label,
            "platform": job.platform,
            "channel": job.channel,
            "document": document,
        }
        if not self.inflight.accepting:
            log.info(
                "digest %s %s: shutting down, not started",
                job.label,
                window.label,
                extra=fields | {"outcome": "skipped"},
            )
            return "skipped"
        if await already_delivered(self.services.store, document, job.platform, job.channel):
            log.info(
                "digest %s %s: already delivered",
                job.label,
                window.label,
                extra=fields | {"outcome": "delivered"},
            )
            self.metrics.jobs.inc(job="digest", outcome="delivered")
            return "delivered"
        started = time.perf_counter()
        async with self.inflight.track(f"digest {job.label} {window.label}"):
            try:
                result = await self.post(self.services, job, window)
            except Exception as exc:
                kind = error_kind(exc)
                self.metrics.errors.inc(kind=kind)
                self.metrics.jobs.inc(job="digest", outcome="failed")
                log.error(
                    "digest %s %s failed: %s",
                    job.label,
                    window.label,
                    exc,
                    extra=fields | {"outcome": "failed", "kind": kind},
                    exc_info=log.isEnabledFor(logging.DEBUG),
                )
                return "failed"
        seconds = round(time.perf_counter() - started, 3)
        # Another path (a user's `/vllm digest post`) may have posted it meanwhile.
        outcome = "delivered" if getattr(result, "nothing_new", False) else "posted"
        summary_line = getattr(result, "summary_line", None)
        summary = summary_line() if callable(summary_line) else ""
        if outcome == "posted":
            self.metrics.digests_posted.inc(platform=job.platform)
        self.metrics.jobs.inc(job="digest", outcome=outcome)
        log.info(
            "digest %s %s %s in %.1f s%s",
            job.label,
            window.label,
            outcome,
            seconds,
            f": {summary}" if summary else "",
            extra=fields | {"outcome": outcome, "seconds": seconds},
        )
        return outcome

    def missed(self, job: DigestJob, now: datetime) -> list[datetime]:
        """Scheduled times within the job's catch-up window, one per distinct week."""
        if job.catch_up_hours <= 0:
            return []
        since = now - timedelta(hours=job.catch_up_hours)
        by_week: dict[str, datetime] = {}
        for fire in fire_times(job.trigger, since, now):
            by_week[week_before(fire, self.tz).label] = fire
        return sorted(by_week.values())

    async def catch_up(self) -> dict[str, list[str]]:
        """At start: post runs missed while the bot was down, within each catch_up_hours.
        Safe to run on every start: the ledger turns an already-posted week into a no-op."""
        now = self.clock()
        outcomes: dict[str, list[str]] = {}
        for job in self.digests.values():
            for fire in self.missed(job, now):
                log.info(
                    "digest %s: catching up the run of %s",
                    job.label,
                    fire.isoformat(),
                    extra={"event": "catch_up", "job": job.id},
                )
                outcomes.setdefault(job.id, []).append(await self.run_digest(job.id, fire))
        return outcomes

    # ------------------------------------------------------------------ alerts and sync

    async def run_alert_poll(self) -> None:
        await self._periodic("alerts", self.poll_alerts)

    async def run_sync(self) -> None:
        await self._periodic("sync", self.sync)

    async def _periodic(self, name: str, func: Callable[[Any], Awaitable[Any]] | None) -> None:
        if func is None or not self.inflight.accepting:
            return
        started = time.perf_counter()
        async with self.inflight.track(name):
            try:
                result = await func(self.services)
            except Exception as exc:
                kind = error_kind(exc)
                self.metrics.errors.inc(kind=kind)
                self.metrics.jobs.inc(job=name, outcome="failed")
                log.error(
                    "%s failed: %s",
                    name,
                    exc,
                    extra={"event": name, "job": name, "outcome": "failed", "kind": kind},
                    exc_info=log.isEnabledFor(logging.DEBUG),
                )
                return
        seconds = round(time.perf_counter() - started, 3)
        self.metrics.jobs.inc(job=name, outcome="ok")
        log.info(
            "%s done in %.1f s%s",
            name,
            seconds,
            f": {result}" if result else "",
            extra={"event": name, "job": name, "outcome": "ok", "seconds": seconds},
        )


def build_scheduler(
    jobs: Jobs, *, alert_minutes: float | None, sync_minutes: float | None
) -> AsyncIOScheduler:
    """A scheduler holding every configured job (not started)."""
    scheduler = AsyncIOScheduler(timezone=jobs.tz)
    defaults = {"coalesce": True, "max_instances": 1, "replace_existing": True}
    for job in jobs.digests.values():
        scheduler.add_job(
            jobs.run_digest,
            job.trigger,
            args=[job.id],
            id=job.id,
            name=f"digest {job.label} at '{job.cron}'",
            # A run delayed (busy loop, leader hand-over) by less than this still happens;
            # longer outages are the catch-up's business.
            misfire_grace_time=15 * 60,
            **defaults,
        )
    if jobs.poll_alerts is not None and alert_minutes:
        scheduler.add_job(
            jobs.run_alert_poll,
            "interval",
            minutes=alert_minutes,
            id="alerts:poll",
            name="alert poller",
            misfire_grace_time=60,
            **defaults,
        )
    if jobs.sync is not None and sync_minutes:
        scheduler.add_job(
            jobs.run_sync,
            "interval",
            minutes=sync_minutes,
            id="sync:periodic",
            name="periodic sync",
            misfire_grace_time=60,
            **defaults,
        )
    return scheduler
