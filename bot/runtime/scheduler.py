"""Scheduled work: weekly digests per `[[digest.targets]]`, the alert poller, a periodic sync.

Job ids are derived from the config, and jobs are added with `replace_existing=True`, so
re-adding them (a restart, a re-election) never duplicates one. Whether a digest was
already posted is decided by the store's delivery ledger, never by the scheduler's memory:
that is what makes catch-up after downtime safe to run on every start.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from bot.alerts.repository import Subscriptions
from bot.analysis.catalogue import ModuleCatalogue
from bot.analysis.rules import RuleSetError, load_ruleset
from bot.core.cron import parse_cron
from bot.core.errors import ConfigError
from bot.core.messages import Text
from bot.core.metrics import METRICS, Metrics, error_kind
from bot.core.tasks import TaskTracker
from bot.core.weeks import Window, iso_week
from bot.delivery import DeliveryIncomplete
from bot.digest.document import digest_document_id, scope_key
from bot.posting import post_digest
from bot.usecases.digest import DigestScope, build_digest

if TYPE_CHECKING:
    from bot.alerts.model import Subscription
    from bot.app import App
    from bot.core.config import Config, DigestTarget
    from bot.delivery import DeliveryResult
    from bot.store import Store

log = logging.getLogger("bot.jobs")

# A digest run that failed or stopped with parts missing is run again this often.
RETRY_MINUTES = 5


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


async def already_delivered(store: Store, document: str, platform: str, channel: str) -> bool:
    """Every part of `document` is in the ledger for this channel."""
    parts = await store.deliveries.sent(document, platform, channel)
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
    modules: tuple[str, ...] = ()  # non-empty: a module digest of these modules
    chart: bool = True
    # A weekly subscription's job: runs scheduled before it existed are not caught up.
    not_before: datetime | None = None
    # An organisation / several-repository target (bot.core.config.DigestTarget); `repo` is then
    # its scope label, as the digest's JSON "repo" and ledger id name it.
    multi: DigestTarget | None = None

    @property
    def label(self) -> str:
        scope = f" [{', '.join(self.modules)}]" if self.modules else ""
        return f"{self.repo}{scope} ({self.language}) → {self.platform}:{self.channel}"

    def document_id(self, week: str) -> str:
        """The ledger id of the digest this job posts for `week`."""
        return digest_document_id(self.repo, week, self.language, self.modules)


# (services, job, window) → the delivery result; raises DeliveryIncomplete (or returns an
# incomplete result) when a part is not posted.
PostDigest = Callable[["App", DigestJob, Window], Awaitable["DeliveryResult"]]
# An alert poll or a sync: (services) → a summary line for the log ("" says nothing).
Periodic = Callable[["App"], Awaitable[str]]


async def post_with_pipeline(services: App, job: DigestJob, window: Window) -> DeliveryResult:
    """The real post: build the digest (syncing first) and post it through the ledger."""
    scope = DigestScope(job.repo, job.modules, job.multi, ids=True)
    built = await build_digest(services, scope, window, job.language, sync=True)
    return await post_digest(
        services, built, job.platform, job.channel, force=False, chart=job.chart
    )


def digest_job_id(
    platform: str, channel: str, repo: str, language: str, modules: Sequence[str] = ()
) -> str:
    # Keyed like the ledger document: a module digest and the full digest of one channel
    # are two jobs, and the same module set named twice (a target and weekly
    # subscriptions, in any order) is one.
    return f"digest:{platform}:{channel}:{repo}:{language}{scope_key(modules)}"


def digest_jobs(config: Config) -> list[DigestJob]:
    """One job per configured target; ConfigError names the first bad cron."""
    jobs: dict[str, DigestJob] = {}
    for index, target in enumerate(config.digest.targets):
        multi = target if target.is_multi else None
        repo = target.scope_label if multi is not None else config.repo(target.repo).name
        language = target.language or config.language
        modules = _target_modules(config, index, target)
        job_id = digest_job_id(target.platform, target.channel, repo, language, modules)
        try:
            trigger = parse_cron(target.cron, config.tz)
        except ConfigError as exc:
            where = f"digest.targets.{index}.cron"
            problem = exc.text or str(exc)
            raise ConfigError(
                Text("error.config.at", {"where": where, "problem": problem})
            ) from None
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
            modules,
            target.chart,
            multi=multi,
        )
    return list(jobs.values())


def _target_modules(config: Config, index: int, target: DigestTarget) -> tuple[str, ...]:
    """A target's `modules` as ids, resolved like `/vllm subscribe` resolves names; an
    unknown one is a ConfigError (it would post an empty digest every week)."""
    if not target.modules:
        return ()
    repo = config.repo(target.repo)
    if repo.modules == "auto":
        # The rule set is built from the repository's own labelling files at run time.
        return tuple(dict.fromkeys(target.modules))

    try:
        catalogue = ModuleCatalogue.from_rulesets([load_ruleset(repo.modules)])
    except RuleSetError as exc:
        raise ConfigError(str(exc)) from None
    ids, problem = catalogue.check(target.modules)
    if problem is not None:
        where = f"digest.targets.{index}.modules"
        raise ConfigError(Text("error.config.target_modules", {"where": where, "problem": problem}))
    return tuple(ids)


def weekly_crons(config: Config) -> dict[str, CronTrigger]:
    """Every cron a weekly module subscription can post on: `digest.cron` and the targets'
    (a channel with a target posts on its target's cron). Checked at load already."""
    crons = [config.digest.cron, *(target.cron for target in config.digest.targets)]
    return {cron: parse_cron(cron, config.tz) for cron in dict.fromkeys(crons)}


def weekly_jobs(config: Config, subscriptions: Iterable[Subscription]) -> list[DigestJob]:
    """The module digests weekly subscriptions ask for (`/vllm subscribe rocm weekly`).

    One job per channel, repository, language and module set, however many subscriptions
    ask for it. The channel's first digest target gives the cron, catch-up window, chart
    switch and default repository; without one, `digest.cron`, 24 hours and every
    configured repository. Language: the subscription's `lang:`, else the channel's
    (`[[alerts.channels]]`, then its target), else the config's.
    """
    alert_languages: dict[tuple[str, str], str] = {
        (c.platform, c.channel): c.language for c in config.alerts.channels if c.language
    }
    targets: dict[tuple[str, str], DigestTarget] = {}
    for t in config.digest.targets:
        targets.setdefault((t.platform, t.channel), t)
    triggers = weekly_crons(config)
    jobs: dict[str, DigestJob] = {}
    for sub in subscriptions:
        if not sub.weekly or not sub.modules:
            continue
        target = targets.get((sub.platform, sub.channel))
        cron = target.cron if target is not None else config.digest.cron
        if sub.repo:
            try:
                repos = [config.repo(sub.repo).name]
            except ConfigError:
                log.warning("weekly subscription #%s names unwatched %s", sub.id, sub.repo)
                continue
        elif target is not None:
            repos = [config.repo(target.repo).name]
        else:
            repos = [repo.name for repo in config.repos]
        language = (
            sub.language
            or alert_languages.get((sub.platform, sub.channel))
            or (target.language if target is not None else None)
            or config.language
        )
        modules = tuple(sorted(set(sub.modules)))
        for repo in repos:
            job_id = digest_job_id(sub.platform, sub.channel, repo, language, modules)
            if job_id in jobs:
                # The group exists since its first subscription.
                first = min(jobs[job_id].not_before or sub.created_at, sub.created_at)
                jobs[job_id] = replace(jobs[job_id], not_before=first)
                continue
            jobs[job_id] = DigestJob(
                job_id,
                sub.platform,
                sub.channel,
                repo,
                language,
                cron,
                target.catch_up_hours if target is not None else 24,
                triggers[cron],
                modules,
                target.chart if target is not None else True,
                sub.created_at,
            )
    return list(jobs.values())


# Scheduled jobs `track` themselves; its sources are the platforms' own trackers.
InFlight = TaskTracker


class Jobs:
    """The job functions. Injectable pieces keep tests free of GitHub and the platforms."""

    def __init__(
        self,
        services: App,
        *,
        post: PostDigest = post_with_pipeline,
        poll_alerts: Periodic | None = None,
        sync: Periodic | None = None,
        poll_releases: Periodic | None = None,
        inflight: InFlight | None = None,
        metrics: Metrics = METRICS,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.services = services
        self.post = post
        self.poll_alerts = poll_alerts
        self.sync = sync
        self.poll_releases = poll_releases
        self.inflight = inflight or InFlight()
        self.metrics = metrics
        self.clock = clock
        self.digests = {job.id: job for job in digest_jobs(services.config)}
        # Weekly module subscriptions live in the store and change at any time: they are
        # read again on every run of their cron (and at catch-up), never cached here.
        self.weekly: dict[str, DigestJob] = {}
        self.weekly_triggers = weekly_crons(services.config)
        # Runs that failed or stopped incomplete, by job: retried every RETRY_MINUTES
        # until every part is posted (a newer scheduled run replaces the entry).
        self.pending: dict[str, datetime] = {}
        # False once this instance lost the scheduler: its runs are being stopped, and a
        # run stopped so is no failure (the new leader finishes it).
        self.leading = True

    @property
    def tz(self) -> tzinfo:
        zone: tzinfo = self.services.config.tz
        return zone

    # ------------------------------------------------------------------ digests

    async def run_digest(self, job_id: str, fire: datetime | None = None) -> str:
        """Post the week before `fire` (default: the latest scheduled time) unless the
        ledger says it is already there. Returns the outcome: posted | delivered | skipped
        | held (a live other run posts a part) | stopped (this instance lost the scheduler)
        | failed ("delivered" and "posted" only when every part is posted; a failed, held
        or incomplete run is retried by `retry_pending`)."""
        job = self.digests.get(job_id) or self.weekly[job_id]
        now = self.clock()
        if fire is None:
            # APScheduler does not pass the scheduled time; a late start (misfire grace)
            # must still post the week the schedule meant, so ask the trigger.
            recent = list(fire_times(job.trigger, now - timedelta(days=1), now))
            fire = recent[-1] if recent else now
        window = week_before(fire, self.tz)
        document = job.document_id(window.label)
        # The job's line is also the post's line: platform and channel as in log_post.
        fields = {
            "event": "digest",
            "job": job.id,
            "week": window.label,
            "platform": job.platform,
            "channel": job.channel,
            "document": document,
        }
        if not self.inflight.accepting or not self.leading:
            log.info(
                "digest %s %s: shutting down, not started",
                job.label,
                window.label,
                extra=fields | {"outcome": "skipped"},
            )
            return "skipped"
        if await already_delivered(self.services.store, document, job.platform, job.channel):
            self.pending.pop(job.id, None)
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
            except asyncio.CancelledError:
                if self.leading:
                    raise
                self.pending.pop(job.id, None)
                log.info(
                    "digest %s %s: stopped, this instance no longer runs the scheduler",
                    job.label,
                    window.label,
                    extra=fields | {"outcome": "stopped"},
                )
                return "stopped"
            except DeliveryIncomplete as exc:
                result = exc.result
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
                self.pending[job.id] = fire
                return "failed"
        seconds = round(time.perf_counter() - started, 3)
        summary = result.summary_line()
        if not result.complete and result.busy_part is not None:
            # A live run (another instance, a user's post) is posting it: a failover or a
            # race, not a failure. Retried until every part is posted.
            self.pending[job.id] = fire
            self.metrics.jobs.inc(job="digest", outcome="held")
            log.info(
                "digest %s %s: held by another instance: %s",
                job.label,
                window.label,
                summary,
                extra=fields | {"outcome": "held"},
            )
            return "held"
        if not result.complete:
            # Some parts are not posted: not delivered.
            self.pending[job.id] = fire
            self.metrics.jobs.inc(job="digest", outcome="failed")
            log.error(
                "digest %s %s incomplete: %s",
                job.label,
                window.label,
                summary,
                extra=fields | {"outcome": "failed", "kind": "incomplete"},
            )
            return "failed"
        self.pending.pop(job.id, None)
        # Another path (a user's `/vllm digest post`) may have posted it meanwhile.
        outcome = "delivered" if result.nothing_new else "posted"
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

    async def retry_pending(self) -> dict[str, str]:
        """Run again each digest whose last run failed or stopped incomplete."""
        outcomes: dict[str, str] = {}
        for job_id, fire in list(self.pending.items()):
            if (job_id in self.digests or job_id in self.weekly) and self.inflight.accepting:
                outcomes[job_id] = await self.run_digest(job_id, fire)
        return outcomes

    def missed(self, job: DigestJob, now: datetime) -> list[datetime]:
        """Scheduled times within the job's catch-up window, one per distinct week."""
        if job.catch_up_hours <= 0:
            return []
        since = now - timedelta(hours=job.catch_up_hours)
        if job.not_before is not None:
            since = max(since, job.not_before)
        by_week: dict[str, datetime] = {}
        for fire in fire_times(job.trigger, since, now):
            by_week[week_before(fire, self.tz).label] = fire
        return sorted(by_week.values())

    async def catch_up(self) -> dict[str, list[str]]:
        """At start: post runs missed while the bot was down, within each catch_up_hours.
        Safe to run on every start: the ledger turns an already-posted week into a no-op."""
        now = self.clock()
        outcomes: dict[str, list[str]] = {}
        for job in [*self.digests.values(), *await self.load_weekly()]:
            for fire in self.missed(job, now):
                if not self.leading:
                    return outcomes
                log.info(
                    "digest %s: catching up the run of %s",
                    job.label,
                    fire.isoformat(),
                    extra={"event": "catch_up", "job": job.id},
                )
                outcomes.setdefault(job.id, []).append(await self.run_digest(job.id, fire))
        return outcomes

    # ------------------------------------------------------------------ weekly subscriptions

    async def load_weekly(self) -> list[DigestJob]:
        """The weekly subscriptions' module digests as jobs, from the store. A module set a
        target of the same channel and language already posts is that target's job."""

        try:
            subscriptions = await Subscriptions(self.services.store).find()
        except Exception as exc:  # the configured targets must still run
            log.error(
                "weekly subscriptions not read: %s",
                exc,
                extra={"event": "weekly", "outcome": "failed", "kind": error_kind(exc)},
            )
            return []
        found = weekly_jobs(self.services.config, subscriptions)
        self.weekly = {job.id: job for job in found if job.id not in self.digests}
        return list(self.weekly.values())

    async def run_weekly(self, cron: str, fire: datetime | None = None) -> dict[str, str]:
        """Post the module digest of every weekly subscription group due on `cron`."""
        due = [job for job in await self.load_weekly() if job.cron == cron]
        outcomes: dict[str, str] = {}
        for job in due:
            # Another cron's run may have re-read the subscriptions meanwhile.
            self.weekly.setdefault(job.id, job)
            outcomes[job.id] = await self.run_digest(job.id, fire)
        return outcomes

    # ------------------------------------------------------------------ alerts and sync

    async def run_alert_poll(self) -> None:
        await self._periodic("alerts", self.poll_alerts)

    async def run_sync(self) -> None:
        await self._periodic("sync", self.sync)

    async def run_release_poll(self) -> None:
        await self._periodic("releases", self.poll_releases)

    async def _periodic(self, name: str, func: Periodic | None) -> None:
        if func is None or not self.inflight.accepting or not self.leading:
            return
        started = time.perf_counter()
        async with self.inflight.track(name):
            try:
                result = await func(self.services)
            except asyncio.CancelledError:
                if self.leading:
                    raise
                log.info("%s: stopped, this instance no longer runs the scheduler", name)
                return
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
    jobs: Jobs,
    *,
    alert_minutes: float | None,
    sync_minutes: float | None,
    release_minutes: float | None = None,
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
    for cron, trigger in jobs.weekly_triggers.items():
        scheduler.add_job(
            jobs.run_weekly,
            trigger,
            args=[cron],
            id=f"weekly:{cron}",
            name=f"weekly module subscriptions at '{cron}'",
            misfire_grace_time=15 * 60,
            **defaults,
        )
    if jobs.digests or jobs.weekly_triggers:
        scheduler.add_job(
            jobs.retry_pending,
            "interval",
            minutes=RETRY_MINUTES,
            id="digest:retry",
            name="retry of incomplete digests",
            misfire_grace_time=60,
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
    # --- releases ---
    if jobs.poll_releases is not None and release_minutes:
        scheduler.add_job(
            jobs.run_release_poll,
            "interval",
            minutes=release_minutes,
            id="releases:poll",
            name="release poller",
            misfire_grace_time=60,
            **defaults,
        )
    return scheduler
