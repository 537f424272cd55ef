"""The real `Backend`: the command layer over `bot.app.App`.

Imports of the analysis, GitHub sync, cards and digest modules are local to each method so
that the command layer (and its tests) import without them, and so that `vllm-bot chat help`
never pays for loading what it does not use.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from importlib import metadata
from typing import TYPE_CHECKING

from bot.commands.context import (
    Context,
    ModuleInfo,
    SubscriptionService,
    VersionInfo,
    channel_language,
)
from bot.core.document import Document
from bot.core.errors import GitHubError, UsageError
from bot.core.i18n import message
from bot.core.models import PullRequest
from bot.core.weeks import Window
from bot.store.migrate import schema_revision

if TYPE_CHECKING:
    from bot.analysis.rules import RuleSet
    from bot.app import App

log = logging.getLogger(__name__)


def module_infos(ruleset: RuleSet) -> list[ModuleInfo]:
    """ModuleInfo for each module of a `bot.analysis.RuleSet`."""
    infos = []
    for m in ruleset.modules:
        evidence = [*m.paths[:2], *(f"[{t}]" for t in m.tags[:1])]
        evidence += [f"label {x}" for x in m.labels[:1]]
        infos.append(ModuleInfo(m.id, m.name_en, m.name_zh, ", ".join(evidence)))
    return infos


class ServicesBackend:
    def __init__(self, services: App) -> None:
        self.services = services

    async def cached_pr(self, repo: str, number: int) -> PullRequest | None:
        pr = await self.services.store.prs.get(repo, number)
        if pr is None:
            return None
        if pr.state != "open":
            return pr  # merged and closed PRs rarely change; the card is safe to reuse
        fresh = timedelta(minutes=self.services.config.github.freshness_minutes)
        if pr.fetched_at is not None and datetime.now(UTC) - pr.fetched_at <= fresh:
            return pr
        return None

    async def fetch_pr(self, repo: str, number: int) -> PullRequest:
        # Lazy: bot.sync (httpx, ~70 ms) stays off `chat "/vllm help"`; only a PR lookup needs it.
        from bot.sync import fetch_pr

        # Reached only when cached_pr declined: a stored copy here is a stale open PR.
        stored = await self.services.store.prs.get(repo, number)
        try:
            return await fetch_pr(
                self.services.store,
                self.services.github(),
                repo,
                number,
                refresh=stored is not None,
            )
        except GitHubError as exc:
            if stored is None:
                raise
            # Better a card from an hour ago than none while GitHub is down.
            log.warning("showing stored %s#%d: GitHub failed: %s", repo, number, exc)
            return stored

    async def pr_card(self, pr: PullRequest, language: str) -> Document:
        # Lazy: bot.cards (the analysis, ~50 ms) stays off `/vllm help`.
        from bot.cards import pr_card

        analyzer = await self.services.analyzer(pr.repo)
        names = {m.id: m.name(language) for m in module_infos(analyzer.ruleset)}
        return pr_card(pr, analyzer.analyze(pr), language, names)

    async def digest(
        self, repo: str, window: Window, language: str, *, modules: Sequence[str] = ()
    ) -> Document:
        # Lazy: the digest pipeline loads only for `/vllm digest`.
        from bot.digest.pipeline import build_for_window

        built = await build_for_window(self.services, repo, window, language, modules=modules)
        return built.document

    async def org_digest(self, window: Window, language: str) -> Document:
        # Lazy: the organisation digest (~100 ms) loads only for an org `/vllm digest`.
        from bot.digest.org import build_org_for_window, org_target

        target = org_target(self.services.config)
        if target is None:
            raise UsageError(message(language, "error.no_org"))
        built = await build_org_for_window(self.services, target, window, language)
        return built.document

    async def version(self, repo: str) -> VersionInfo:
        # Lazy: the analysis cache stays off `/vllm help`; only `/vllm version` needs it.
        from bot.analysis.cache import analysis_key

        ruleset: str | None = None
        try:
            analyzer = await self.services.analyzer(repo, offline=True)
            key = analysis_key(analyzer)
            name = analyzer.ruleset.name
            ruleset = f"{name} {key[:10]}" if key else name
        except Exception:
            log.warning("version: rule set of %s unavailable", repo, exc_info=True)
        return VersionInfo(bot=bot_version(), ruleset=ruleset, schema=await self._schema())

    async def _schema(self) -> str | None:
        try:
            return await schema_revision(self.services.store.engine)
        except Exception:
            log.warning("version: store schema revision unavailable", exc_info=True)
            return None

    async def cached_holdings(self, repo: str, number: int) -> tuple[list[str], int]:
        prs = self.services.store.prs
        return await prs.repos_with(number), await prs.count(repo)

    async def modules(self, repo: str) -> Sequence[ModuleInfo]:
        # Local, as the protocol promises: an "auto" rule set from its cached labelling
        # rules or the stored file paths, never a GitHub request inside a command.
        analyzer = await self.services.analyzer(repo, offline=True)
        return module_infos(analyzer.ruleset)

    # --- releases ---
    async def release(
        self, repo: str, tag: str | None, language: str, *, card: bool = True
    ) -> Document:
        # Lazy: the release pipeline loads only for `/vllm release`.
        from bot.digest.archive_paths import release_url
        from bot.releases.pipeline import build_release

        try:
            built = await build_release(self.services, repo, tag, language)
        except GitHubError as exc:
            # The stored release while GitHub is down, when the store has it.
            log.warning("release %s of %s from the store: GitHub failed: %s", tag, repo, exc)
            try:
                built = await build_release(self.services, repo, tag, language, sync=False)
            except UsageError:
                raise exc from None
        if not card:
            return built.document
        base = self.services.config.web.archive_url()
        return built.card(release_url(base, repo, built.digest.tag, language))


def bot_version() -> str | None:
    try:
        return metadata.version("vllm-bot")
    except metadata.PackageNotFoundError:
        return None


def services_context(
    services: App,
    *,
    platform: str,
    channel: str | None,
    user: str | None,
    language: str | None = None,
    subscriptions: SubscriptionService | None = None,
) -> Context:
    """A Context over the running bot's services (used by every adapter)."""
    return Context(
        platform=platform,
        config=services.config,
        backend=ServicesBackend(services),
        channel=channel,
        user=user,
        language=language or channel_language(services.config, platform, channel),
        subscriptions=subscriptions
        if subscriptions is not None
        else getattr(services, "subscriptions", None),
    )
