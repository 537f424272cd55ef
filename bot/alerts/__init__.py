"""Module subscriptions and merge alerts (issue 8).

How the pieces are wired in `serve` is shown in docs/alerts.md ("Wiring"): one
SubscriptionService for the command layer, one AlertPipeline fed by a WebhookReceiver
(POST /github/webhook) and an AlertPoller.
"""

from __future__ import annotations

import importlib
from typing import Any

# Lazy, so `bot.config` can import `bot.alerts.settings` without pulling in the command
# layer (which imports `bot.config`): no import cycle.
_EXPORTS = {
    "MatchIndex": "matching",
    "PRFacts": "matching",
    "AlertItem": "model",
    "Subscription": "model",
    "AlertPipeline": "pipeline",
    "FlushResult": "pipeline",
    "SubmitResult": "pipeline",
    "AlertPoller": "poller",
    "GitHubMergedSource": "poller",
    "MergedSource": "poller",
    "AlertCards": "render",
    "DefaultAlertCards": "render",
    "AlertChannel": "settings",
    "AlertSettings": "settings",
    "ModuleCatalogue": "subscriptions",
    "SubscriptionService": "subscriptions",
    "WebhookReceiver": "webhook",
    "webhook_routes": "webhook",
}
WEBHOOK_PATH = "/github/webhook"

__all__ = ["WEBHOOK_PATH", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bot.alerts' has no attribute {name!r}")
    return getattr(importlib.import_module(f"bot.alerts.{module}"), name)
