"""The alerts inside the running bot: one pipeline per `App` (`App.alerts()`), shared by
the webhook route and the poller, plus the default sender over the platform posters.

`serve` mounts `bot.alerts.webhook:webhook_handler` and runs `poll_alerts` every
`alerts.poll_minutes` (see bot/runtime/integrations.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from bot.alerts.pipeline import AlertPipeline, Sender
from bot.alerts.poller import AlertPoller, GitHubMergedSource
from bot.alerts.settings import AlertSettings
from bot.alerts.subscriptions import ModuleCatalogue, SubscriptionService
from bot.analysis.rules import load_ruleset
from bot.cards import alert_card, batched_alert
from bot.document import Document
from bot.errors import BotError
from bot.models import AnalyzedPR
from formatters.discord import discord_thread_name, render_discord
from formatters.slack import render_slack

if TYPE_CHECKING:
    from bot.app import App

log = logging.getLogger(__name__)


class DocumentPoster(Protocol):
    """What SlackPoster / DiscordPoster offer: rendered payloads posted through the ledger."""

    async def post_document(
        self, store: Any, *, document_id: str, channel: str, payloads: list[dict[str, Any]]
    ) -> Any: ...


def _render(platform: str, document: Document, channel: str) -> list[dict[str, Any]]:
    if platform == "slack":
        return render_slack(document, channel)
    return render_discord(document)


@dataclass
class PosterSender:
    """Sender over platform posters; a platform without one fails (and the alert retries)."""

    store: Any
    posters: dict[str, DocumentPoster] = field(default_factory=dict)
    factories: Mapping[str, Callable[[], DocumentPoster | None]] = field(default_factory=dict)

    def register(self, platform: str, poster: DocumentPoster) -> None:
        self.posters[platform] = poster

    async def __call__(self, platform: str, channel: str, document: Document) -> Any:
        poster = self.posters.get(platform)
        if poster is None and platform in self.factories:
            poster = self.factories[platform]()
            if poster is not None:
                self.posters[platform] = poster
        if poster is None:
            raise BotError(f"no {platform} connection to post alerts with (is its token set?)")
        extra: dict[str, Any] = {}
        if platform == "discord":
            # A card too long for one message continues in a thread named after it.
            extra["thread_name"] = discord_thread_name(document)
        # The delivery result: the pipeline retries an alert whose parts are not all posted.
        return await poster.post_document(
            self.store,
            document_id=f"{document.id}:{platform}:{channel}",
            channel=channel,
            payloads=_render(platform, document, channel),
            **extra,
        )


def _slack_poster(services: App) -> Callable[[], DocumentPoster | None]:
    def make() -> DocumentPoster | None:
        if services.env.slack_bot_token is None:
            return None
        # The process's one SlackPoster: its 1 message/second/channel pacing must hold
        # across alerts, digests and command replies alike.
        return services.slack_poster()

    return make


def _discord_poster(services: App) -> Callable[[], DocumentPoster | None]:
    def make() -> DocumentPoster | None:
        token = services.env.discord_bot_token
        if token is None or not token.get_secret_value().strip():
            return None
        # REST only, logged in on first use: alerts need no gateway, so they go out from
        # one-off runs and from serve instances that do not hold the gateway alike.
        return services.discord_poster()

    return make


@dataclass
class AlertsRuntime:
    settings: AlertSettings
    pipeline: AlertPipeline
    sender: PosterSender
    poller: AlertPoller
    subscriptions: SubscriptionService
    _stop: asyncio.Event | None = None
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start flushing held alerts every few seconds (batch windows end between polls).
        Idempotent; `serve` should call `stop()` at shutdown."""
        if self._task is None or self._task.done():
            self._stop = asyncio.Event()
            self._task = asyncio.create_task(self.pipeline.run(self._stop))

    async def stop(self) -> None:
        if self._stop is not None and self._task is not None:
            self._stop.set()
            await self._task


def build_runtime(app: App, *, sender: Sender | None = None) -> AlertsRuntime:
    """A new alerts runtime over `app`'s store, config and clients (`App.alerts()` keeps
    the process's one)."""
    settings = AlertSettings.from_config(app.config)
    poster_sender = PosterSender(
        app.store,
        factories={"slack": _slack_poster(app), "discord": _discord_poster(app)},
    )
    pipeline = AlertPipeline(
        app.store,
        settings,
        analyzer_for=app.analyzer,
        sender=sender or poster_sender,
        cards=BotCards(),
    )
    repos = [r.name for r in app.config.repos]
    rulesets = [load_ruleset(r.modules) for r in app.config.repos if r.modules != "auto"] or [
        load_ruleset("generic")
    ]
    service = SubscriptionService(
        app.store,
        settings,
        ModuleCatalogue.from_rulesets(rulesets),
        on_change=pipeline.invalidate,
    )
    poller = AlertPoller(pipeline, GitHubMergedSource(app.github(), app.store), repos)
    return AlertsRuntime(settings, pipeline, poster_sender, poller, service)


async def runtime(app: App) -> AlertsRuntime:
    """The process's alerts runtime (`App.alerts()`), for callers in async code."""
    return app.alerts()


async def poll_alerts(app: App) -> str:
    """`serve`'s job, run every alerts.poll_minutes: poll, then flush due alerts."""
    alerts = app.alerts()
    results = await alerts.poller.poll_once()
    flushed = await alerts.pipeline.flush()  # also releases quiet-hour and batch holds
    queued = sum(r.queued for r in results)
    return f"alerts: {len(results)} repos polled, {queued} queued, {flushed.alerts} sent"


class BotCards:
    """AlertCards over bot.cards (the digest engineer's alert_card / batched_alert)."""

    def alert(self, item: Any, language: str) -> Document:
        return alert_card(item.pr, item.analysis, language)

    def batch(self, items: Any, language: str) -> Document:
        return batched_alert([AnalyzedPR(i.pr, i.analysis) for i in items], language)
