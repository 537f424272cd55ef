"""The alerts inside the running bot: one pipeline per `App` (`App.alerts()`), shared by
the webhook route and the poller, plus the default sender over the platform registry.

`serve` mounts `bot.alerts.webhook.WebhookEndpoint` and runs `poll_alerts` every
`alerts.poll_minutes` (see bot/runtime/integrations.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.alerts.pipeline import AlertPipeline, Sender
from bot.alerts.poller import AlertPoller, GitHubMergedSource
from bot.alerts.render import BotCards
from bot.alerts.subscriptions import SubscriptionService
from bot.analysis.catalogue import catalogue_of
from bot.core.document import Document
from bot.core.errors import BotError
from bot.core.messages import Text
from bot.core.settings import AlertSettings
from bot.delivery import DeliveryResult
from bot.platform import Platform

if TYPE_CHECKING:
    from bot.platform import PostingServices
    from bot.store.deliveries import Deliveries

log = logging.getLogger(__name__)


@dataclass
class PlatformSender:
    """The pipeline's sender over the platform registry (`App.platforms`): a platform it
    does not know, or one that cannot post (no token), fails, and the alert retries."""

    store: Deliveries
    platforms: Mapping[str, Platform]

    async def __call__(self, platform: str, channel: str, document: Document) -> DeliveryResult:
        target = self.platforms.get(platform)
        why = "unknown platform" if target is None else target.available()
        if target is None or why is not None:
            raise BotError(
                Text("error.alerts.no_connection", {"platform": platform, "why": str(why)})
            )
        # The delivery result: the pipeline retries an alert whose parts are not all posted.
        return await target.post_document(
            self.store, document, channel, document_id=f"{document.id}:{platform}:{channel}"
        )


@dataclass
class AlertsRuntime:
    settings: AlertSettings
    pipeline: AlertPipeline
    sender: PlatformSender
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


def build_runtime(app: PostingServices, *, sender: Sender | None = None) -> AlertsRuntime:
    """A new alerts runtime over `app`'s store, config and clients (`App.alerts()` keeps
    the process's one)."""
    settings = AlertSettings.from_config(app.config)
    poster_sender = PlatformSender(app.store.deliveries, app.platforms)
    pipeline = AlertPipeline(
        app.store,
        settings,
        analyzer_for=app.analyzer,
        sender=sender or poster_sender,
        cards=BotCards(),
    )
    repos = [r.name for r in app.config.repos]
    service = SubscriptionService(
        app.store, settings, catalogue_of(app.config), on_change=pipeline.invalidate
    )
    poller = AlertPoller(pipeline, GitHubMergedSource(app.github(), app.store), repos)
    return AlertsRuntime(settings, pipeline, poster_sender, poller, service)


async def poll_alerts(alerts: AlertsRuntime) -> str:
    """`serve`'s job, run every alerts.poll_minutes: poll, then flush due alerts."""
    results = await alerts.poller.poll_once()
    flushed = await alerts.pipeline.flush()  # also releases quiet-hour and batch holds
    queued = sum(r.queued for r in results)
    return f"alerts: {len(results)} repos polled, {queued} queued, {flushed.alerts} sent"
