"""Module subscriptions and merge alerts (issue 8).

How the pieces are wired in `serve` is shown in docs/alerts.md ("Wiring"): one
SubscriptionService for the command layer, one AlertPipeline fed by a WebhookReceiver
(POST /github/webhook) and an AlertPoller.
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
