"""The pieces `serve` mounts or starts, from the config and the environment: each chat
platform's (`bot.platform.Platform.serve`: Slack's events route or Socket Mode, the Discord
gateway), then the GitHub webhook and the alert poller.

slack-bolt and discord.py's gateway client load only inside `serve` (`Platform.serve`), so
the CLI's other commands never load them.

Work that must finish before shutdown (a command being answered, a webhook delivery being
processed, an alert flush) lives in the platform code. Anything offering `stop_accepting()`
and `in_flight() -> {task: name}` (see `bot.core.tasks.Work`) is drained by `serve`: a route
handler or a route's `work`, the Slack bot behind Socket Mode, the Discord command handler.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from bot.alerts.webhook import WebhookEndpoint
from bot.alerts.wiring import poll_alerts
from bot.app import chat_platforms
from bot.core.tasks import Work, is_work
from bot.core.weeks import parse_week
from bot.digest.pipeline import refreshing_rules
from bot.platform import Component, Route
from bot.sync import sync_window

if TYPE_CHECKING:
    from bot.app import App


@dataclass
class Integrations:
    routes: list[Route] = field(default_factory=list)
    components: list[Component] = field(default_factory=list)
    poll_alerts: Callable[[App], Awaitable[str]] | None = None
    # One alert flush, run when this instance becomes the scheduler leader.
    flush_outbox: Callable[[], Awaitable[None]] | None = None
    # Extra `Work` to drain at shutdown (tests; platform pieces not found through routes
    # or components).
    work: list[Work] = field(default_factory=list)

    def all_work(self) -> list[Work]:
        """Everything shutdown drains: `work`, plus routes' work (or handlers that are
        `Work` themselves) and components that are `Work`."""
        found = [*self.work]
        for route in self.routes:
            if route.work is not None:
                found.append(route.work)
            elif is_work(route.handler):
                found.append(route.handler)
        found += [c for c in self.components if is_work(c) and c not in found]
        return found


def discover(services: App) -> Integrations:
    """What this deployment runs, from the config and the environment."""
    found = Integrations()
    for platform in chat_platforms():
        routes, components = platform.serve(services)
        found.routes += routes
        found.components += components
    webhook = WebhookEndpoint(services, services.alerts, services.env.github_webhook_secret)
    found.routes.append(Route("POST", "/github/webhook", webhook))
    # Also a component: its start flushes the outbox at once (docs/operations.md §6).
    found.components.append(webhook)
    found.flush_outbox = webhook.flush
    found.poll_alerts = lambda app: poll_alerts(app.alerts())
    return found


async def periodic_sync(services: App) -> str:
    """Keep this ISO week of every configured repo fresh, so commands answer from the store,
    and the "auto" repositories' labelling rules (a day old: refreshed in the background)."""
    lines = []
    async with refreshing_rules(services, [repo.name for repo in services.config.repos]):
        for repo in services.config.repos:
            window = parse_week("this", services.config.tz, datetime.now(UTC))
            result = await sync_window(services.store, services.github(), repo.name, window)
            summary = getattr(result, "summary_line", None)
            detail = f" ({summary()})" if callable(summary) else ""
            lines.append(f"{repo.name} {window.label}{detail}")
    return "; ".join(lines)
