"""What a command is answered with: who typed it, where, and the use cases behind it.

Adapters (Slack, Discord, `vllm-bot chat`) build one `Context` per command
(`bot.commands.backend.services_context`); its `Backend` binds the bot's services to the
use cases (bot.usecases), so every surface answers a command through the same code. The
use cases load on first use: `/vllm help` pays for none of them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING

from bot.analysis.catalogue import ModuleInfo
from bot.core.config import Config
from bot.core.document import Document
from bot.core.filters import SubscriptionFilters
from bot.core.weeks import Window
from bot.services import Services
from bot.usecases import digest, info, lookup, release, subscriptions
from bot.usecases.digest import DigestScope
from bot.usecases.info import VersionInfo
from bot.usecases.lookup import LookedUp
from bot.usecases.subscriptions import Channel, Unsubscribed

if TYPE_CHECKING:
    from bot.alerts.subscriptions import SubscriptionInfo, SubscriptionService


class Backend:
    """The use cases over the running bot's services, as the command layer calls them."""

    def __init__(self, services: Services) -> None:
        self.services = services

    async def local_card(self, repo: str, number: int, language: str) -> Document:
        """The PR's card from the store when the lookup policy allows it (the chat
        acknowledgement); raises NeedsNetwork when GitHub must be asked."""
        found = await lookup.look_up_pr_locally(self.services, repo, number)
        return _card(found, language, self.services.config.tz)

    async def card(self, repo: str, number: int, language: str) -> Document:
        """The PR's card under the lookup policy; raises NotFoundError, PrUnreachable."""
        found = await lookup.look_up_pr(self.services, repo, number)
        return _card(found, language, self.services.config.tz)

    async def digest(self, scope: DigestScope, window: Window, language: str) -> Document:
        """The digest of `scope` (syncing first); raises UnknownModule for a module word
        that names none, UsageError when `scope.org` and no organisation is configured."""
        return (await digest.build_digest(self.services, scope, window, language)).document

    async def check_scope(self, scope: DigestScope, language: str) -> None:
        """The scope's errors (unknown modules, no organisation) from local state alone."""
        await digest.module_ids(self.services, scope.repo, scope.modules, language)
        digest.multi_target(self.services, scope)

    async def modules(self, repo: str) -> Sequence[ModuleInfo]:
        return await info.modules(self.services, repo)

    async def module_examples(self, count: int = 1) -> list[str]:
        """Modules a hint may name: the configured repositories' own first."""
        return (await subscriptions.subscription_catalogue(self.services)).examples(count)

    async def version(self, repo: str) -> VersionInfo:
        return await info.version(self.services, repo)

    async def release(
        self, repo: str, tag: str | None, language: str, *, card: bool = True
    ) -> Document:
        return await release.release_document(self.services, repo, tag, language, card=card)

    async def subscribe(
        self,
        service: SubscriptionService,
        where: Channel,
        words: Sequence[str],
        filters: SubscriptionFilters,
        *,
        weekly: bool,
        language: str,
    ) -> SubscriptionInfo:
        return await subscriptions.subscribe(
            self.services, service, where, words, filters, weekly=weekly, language=language
        )

    async def unsubscribe(
        self, service: SubscriptionService, where: Channel, target: str, kind: str, language: str
    ) -> tuple[str, Unsubscribed]:
        return await subscriptions.unsubscribe(
            self.services, service, where, target, kind, language=language
        )


def _card(found: LookedUp, language: str, tz: tzinfo) -> Document:
    # Lazy: bot.cards (the analysis) stays off `/vllm help`.
    from bot.cards import pr_card

    return pr_card(found.pr, found.analysis, language, found.module_names, tz)


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Context:
    platform: str  # "slack" | "discord" | "cli"
    config: Config
    backend: Backend
    channel: str | None = None
    user: str | None = None
    language: str | None = None  # the channel's language; None: config.language
    subscriptions: SubscriptionService | None = None
    now: Callable[[], datetime] = _utcnow
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("bot.commands"))

    @property
    def lang(self) -> str:
        return self.language or self.config.language

    @property
    def default_repo(self) -> str:
        return self.config.repos[0].name

    def watched_repo(self, name: str) -> str | None:
        """The configured spelling of `name` when it is watched, else None."""
        for repo in self.config.repos:
            if repo.name.lower() == name.lower():
                return repo.name
        return None


def channel_language(config: Config, platform: str, channel: str | None) -> str | None:
    """A channel's language from its digest target, so replies match the channel's digest."""
    for target in config.digest.targets:
        if target.platform == platform and target.channel == channel and target.language:
            return target.language
    return None
