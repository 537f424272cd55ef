"""Module subscriptions and merge alerts (issue 8).

The pieces are wired once per process by `bot.alerts.wiring.build_runtime` (through
`App.alerts()`): one SubscriptionService for the command layer, one AlertPipeline fed by
a WebhookReceiver (POST /github/webhook) and an AlertPoller.
"""

from __future__ import annotations

from bot.alerts.matching import MatchIndex, PRFacts
from bot.alerts.model import AlertItem, Subscription
from bot.alerts.pipeline import AlertPipeline, FlushResult, SubmitResult
from bot.alerts.poller import AlertPoller, GitHubMergedSource, MergedSource
from bot.alerts.render import AlertCards, DefaultAlertCards
from bot.alerts.settings import AlertChannel, AlertSettings
from bot.alerts.subscriptions import ModuleCatalogue, SubscriptionService
from bot.alerts.webhook import WebhookReceiver, webhook_routes

WEBHOOK_PATH = "/github/webhook"

__all__ = [
    "WEBHOOK_PATH",
    "AlertCards",
    "AlertChannel",
    "AlertItem",
    "AlertPipeline",
    "AlertPoller",
    "AlertSettings",
    "DefaultAlertCards",
    "FlushResult",
    "GitHubMergedSource",
    "MatchIndex",
    "MergedSource",
    "ModuleCatalogue",
    "PRFacts",
    "SubmitResult",
    "Subscription",
    "SubscriptionService",
    "WebhookReceiver",
    "webhook_routes",
]
