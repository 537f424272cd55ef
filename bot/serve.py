"""`vllm-bot serve`: one long-running process for the scheduler, Slack, Discord, webhooks
and the web server.

Start-up order: check tokens (one line, exit 2, before anything listens) → logging →
web server → platform connections → leader election, whose winner starts the scheduler
and posts what was missed while the bot was down.

Shutdown (SIGTERM/SIGINT): /readyz turns 503, no new jobs, commands or webhook deliveries
are taken, in-flight work (scheduled posts, commands being answered, webhook deliveries,
the alert flush) gets `[serve] shutdown_grace_seconds` to finish, what is left is
cancelled, then clients close and the process exits 0. A second signal skips the wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypedDict, Unpack

from bot.app import App, chat_platforms
from bot.core.errors import BotError, ConfigError
from bot.core.logging import configure_logging, secret_values
from bot.core.messages import Text
from bot.core.metrics import METRICS, Metrics
from bot.core.settings import ServeConfig, logging_settings, serve_settings
from bot.core.tasks import admission_totals
from bot.digest.archive import ArchiveCache
from bot.platform import Component
from bot.runtime.integrations import Integrations, discover, periodic_sync
from bot.runtime.leader import LeaderLoop, Leadership, leadership_for
from bot.runtime.scheduler import (
    InFlight,
    Jobs,
    PostDigest,
    build_scheduler,
    digest_jobs,
    post_with_pipeline,
)
from bot.runtime.web import Readiness, archive_routes, build_app, start_site

if TYPE_CHECKING:
    from aiohttp.web import AppRunner

    from bot.core.config import Config, Environment
    from bot.github.client import GitHubClient

log = logging.getLogger("bot.serve")


def missing_tokens(config: Config, env: Environment) -> list[str]:
    """What the configured platforms need and the environment lacks, as fix-it phrases."""
    return [problem for p in chat_platforms() for problem in p.missing_tokens(config, env)]


def preflight(config: Config, env: Environment) -> None:
    """Bad cron expressions and missing tokens: ConfigError (exit 2) before anything runs."""
    digest_jobs(config)
    problems = missing_tokens(config, env)
    if len(problems) == 1:
        raise ConfigError(Text("error.serve.cannot", {"problem": problems[0]}))
    if problems:
        # Several: each named short, then one fix, so that no platform's part is cut off.
        missing = "; ".join(p.split(" but ")[0].split(";")[0] for p in problems)
        raise ConfigError(Text("error.serve.missing", {"missing": missing}))


class ServerOptions(TypedDict, total=False):
    """`Server`'s keyword arguments beside the port, as `serve_forever` passes them on."""

    post: PostDigest
    integrations: Integrations | None
    sync: Callable[[App], Awaitable[str]] | None
    leadership: Leadership | None
    metrics: Metrics
    catch_up: bool
    settings: ServeConfig | None


class Server:
    """Everything `serve` runs, startable and stoppable without signals (tests drive it)."""

    def __init__(
        self,
        services: App,
        *,
        port: int | None = None,
        post: PostDigest = post_with_pipeline,
        integrations: Integrations | None = None,
        sync: Callable[[App], Awaitable[str]] | None = periodic_sync,
        leadership: Leadership | None = None,
        metrics: Metrics = METRICS,
        catch_up: bool = True,
        settings: ServeConfig | None = None,
    ) -> None:
        preflight(services.config, services.env)
        self.services = services
        self.settings = settings or serve_settings(services.config)
        self.host = services.config.server.host
        self.requested_port = services.config.server.port if port is None else port
        self.port: int | None = None
        self.metrics = metrics
        self.catch_up_on_election = catch_up
        self.integrations = integrations if integrations is not None else discover(services)
        # What the scheduler started: stopped when this instance loses the scheduler.
        self.leader_work = InFlight()
        # Scheduled jobs and the platforms' own work (commands being answered, webhook
        # deliveries, alert flushes) drain together at shutdown.
        self.inflight = InFlight([*self.integrations.all_work(), self.leader_work])
        self.jobs = Jobs(
            services,
            post=post,
            poll_alerts=self.integrations.poll_alerts,
            sync=sync,
            poll_releases=_poll_releases,
            inflight=self.leader_work,
            metrics=metrics,
        )
        self.scheduler = build_scheduler(
            self.jobs,
            alert_minutes=services.config.alerts.poll_minutes,
            sync_minutes=self.settings.sync_minutes,
            release_minutes=services.config.releases.poll_minutes,
        )
        components = self.integrations.components
        self.everywhere = [c for c in components if not c.leader_only]
        self.leader_only = [c for c in components if c.leader_only]
        self.readiness = Readiness(services, components, self.settings.readiness_cache_seconds)
        self.leader = LeaderLoop(
            leadership
            or leadership_for(services.store.engine.url.render_as_string(hide_password=False)),
            self._elected,
            self._deposed,
            self.settings.leader_retry_seconds,
        )
        self._runner: AppRunner | None = None
        self._leader_task: asyncio.Task[None] | None = None
        self._catch_up_task: asyncio.Task[dict[str, list[str]]] | None = None
        self._started: list[Component] = []
        self._bind_metrics()

    def _bind_metrics(self) -> None:
        services = self.services

        def client() -> GitHubClient | None:
            # Only report a client something already created; scraping must not build one.
            return services.github_if_started

        def requests() -> float | None:
            github = client()
            return None if github is None else github.requests

        def remaining() -> float | None:
            github = client()
            if github is not None and github.rate.remaining is not None:
                return github.rate.remaining
            return self.readiness.github_remaining

        def pool(index: int) -> Callable[[], float | None]:
            def read() -> float | None:
                use = services.store.pool_use()
                return None if use is None else use[index]

            return read

        self.metrics.command_queue.source = lambda: admission_totals()[0]
        self.metrics.commands_running.source = lambda: admission_totals()[1]
        self.metrics.db_pool_in_use.source = pool(0)
        self.metrics.db_pool_size.source = pool(1)
        self.metrics.github_requests.source = requests
        self.metrics.github_rate_remaining.source = remaining
        self.metrics.leader.set(0)
        self.metrics.up.set(1)

    # ------------------------------------------------------------------ start

    async def start(self) -> None:
        archive = archive_routes(ArchiveCache(self.services))
        app = build_app(self.readiness, self.metrics, [*self.integrations.routes, *archive])
        try:
            self._runner, self.port = await start_site(
                app, self.host, self.requested_port, self.settings.shutdown_grace_seconds
            )
        except OSError as exc:
            # The port as a string: "8080", not a grouped count.
            where = {"host": self.host, "port": str(self.requested_port)}
            reason = exc.strerror or str(exc)
            raise BotError(Text("error.serve.listen", {**where, "reason": reason})) from None
        routes = ", ".join(r.path for r in self.integrations.routes) or "no platform routes"
        log.info(
            "listening on http://%s:%d (%s; /healthz /readyz /metrics)",
            self.host,
            self.port,
            routes,
            extra={"event": "listening", "port": self.port},
        )
        for component in self.everywhere:
            await self._start_component(component)
        self._leader_task = asyncio.create_task(self.leader.run(), name="leader election")

    async def _start_component(self, component: Component) -> None:
        try:
            await component.start()
        except Exception as exc:
            # One platform failing to connect must not take the others down with it.
            self.metrics.errors.inc(kind=component.name)
            log.error(
                "%s: could not start: %s",
                component.name,
                exc,
                extra={"event": "platform", "platform": component.name},
            )
            return
        self._started.append(component)

    async def _elected(self) -> None:
        self.metrics.leader.set(1)
        self.jobs.leading = True
        # Re-adding with the same ids replaces; a re-elected instance never doubles a job.
        if self.scheduler.running:
            self.scheduler.resume()
        else:
            self.scheduler.start()
        for job in self.scheduler.get_jobs():
            log.info(
                "job %s: next run %s",
                job.name,
                job.next_run_time,
                extra={"event": "job_scheduled", "job": job.id},
            )
        for component in self.leader_only:
            await self._start_component(component)
        if self.integrations.flush_outbox is not None:
            # What the old leader held (or a crash left) goes out now, not at the next poll.
            self.leader_work.spawn(self._flush_outbox(), "alert flush (elected)")
        if self.catch_up_on_election:
            self._catch_up_task = self.leader_work.spawn(self.jobs.catch_up(), "catch-up")

    async def _flush_outbox(self) -> None:
        assert self.integrations.flush_outbox is not None
        try:
            await self.integrations.flush_outbox()
        except Exception as exc:
            self.metrics.errors.inc(kind="store")
            log.warning("alert flush after the election failed: %s", exc)

    async def _deposed(self) -> None:
        self.metrics.leader.set(0)
        self.jobs.leading = False
        if self.scheduler.running:
            self.scheduler.pause()
        # Another instance starts the scheduler once `takeover_delay` has passed: what ours
        # started (a digest mid-thread, a catch-up, a poll) stops now, leaving its parts to
        # the new leader, which asks the platform before posting them again.
        running = self.leader_work.in_flight()
        for task in running:
            task.cancel()
        if running:
            log.info(
                "stopping what the scheduler started: %s",
                ", ".join(running.values()),
                extra={"event": "deposed", "cancelled": list(running.values())},
            )
            await asyncio.wait(running, timeout=5)
        for component in self.leader_only:
            if component in self._started:
                self._started.remove(component)
                await component.stop()

    # ------------------------------------------------------------------ stop

    async def shutdown(self, force: asyncio.Event | None = None) -> list[str]:
        """Stop taking work, let in-flight posts finish (bounded), close everything.
        Returns what had to be cancelled (empty on a clean stop)."""
        grace = self.settings.shutdown_grace_seconds
        running = self.inflight.running
        log.info(
            "shutting down: finishing in-flight work (up to %.0f s)%s",
            grace,
            f": {', '.join(running)}" if running else "",
            extra={"event": "shutdown", "in_flight": running},
        )
        self.readiness.draining = True
        await self.leader.stop()
        if self.scheduler.running:
            self.scheduler.pause()  # no new runs; running ones continue
        drain = asyncio.create_task(self.inflight.drain(grace))
        web = asyncio.create_task(self._stop_web())
        forced = None if force is None else asyncio.ensure_future(force.wait())
        await asyncio.wait(
            {drain} if forced is None else {drain, forced}, return_when=asyncio.FIRST_COMPLETED
        )
        if not drain.done():  # a second signal: stop waiting
            log.warning("second signal: cancelling in-flight work now")
            self.inflight.cancel_all()
        cancelled = await drain
        if forced is not None:
            forced.cancel()
        if cancelled:
            log.warning(
                "cancelled after %.0f s: %s",
                grace,
                ", ".join(cancelled),
                extra={"event": "shutdown", "cancelled": cancelled},
            )
        if self._catch_up_task is not None and not self._catch_up_task.done():
            self._catch_up_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._catch_up_task
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        for component in reversed(self._started):
            with contextlib.suppress(Exception):
                await component.stop()
        self._started.clear()
        await web
        if self._leader_task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._leader_task
        # Only now may another instance take the scheduler: ours has stopped.
        await self.leader.release()
        self.metrics.leader.set(0)
        log.info("stopped", extra={"event": "stopped"})
        return cancelled

    async def _stop_web(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def _configure_logging(services: App) -> None:
    settings = logging_settings(services.config)
    # `vllm-bot --debug serve` asked for debug logs; honour it over the config.
    level = "DEBUG" if logging.getLogger().level == logging.DEBUG else settings.level
    configure_logging(settings.format, level, secret_values(services.env, services.config))


async def _poll_releases(services: App) -> str:
    """The release poll job (bot.alerts.releases); nothing without a following channel."""
    # Lazy: the release pipeline loads only when the poll runs.
    from bot.alerts.releases import poll_releases

    return await poll_releases(services)


async def serve_forever(
    services: App, port: int | None = None, **options: Unpack[ServerOptions]
) -> None:
    """Run until SIGTERM/SIGINT; return normally after a clean shutdown (exit 0)."""
    preflight(services.config, services.env)  # before logging changes: one line on stderr
    _configure_logging(services)
    server = Server(services, port=port, **options)
    stop, force = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()

    def on_signal(signum: int) -> None:
        name = signal.Signals(signum).name
        if stop.is_set():
            force.set()
        else:
            log.info("%s received", name, extra={"event": "signal", "signal": name})
            stop.set()

    installed = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # non-main thread
            loop.add_signal_handler(signum, on_signal, signum)
            installed.append(signum)
    try:
        await server.start()
        await stop.wait()
        await server.shutdown(force)
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
