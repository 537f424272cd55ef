"""Subscribe a channel to modules (per-PR alerts, a weekly module digest or releases),
unsubscribe it, list its subscriptions.

Called by `/vllm subscribe`, `/vllm unsubscribe` and `/vllm subscriptions` (bot.commands
handlers, on Slack, Discord and `vllm-bot chat --channel …`). Local: the store and the
rule sets only, so the chat answers inside its acknowledgement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.analysis.catalogue import ModuleCatalogue, module_infos, suggest
from bot.core.errors import InputError
from bot.core.filters import SubscriptionFilters
from bot.core.messages import Text
from bot.services import Services
from bot.usecases.digest import catalogue

if TYPE_CHECKING:
    from bot.alerts.subscriptions import SubscriptionInfo, SubscriptionService


@dataclass(frozen=True, slots=True)
class Channel:
    platform: str
    channel: str
    user: str | None


@dataclass(frozen=True, slots=True)
class Unsubscribed:
    removed: int
    narrowed: list[tuple[int, list[str]]]  # (subscription id, modules it keeps)


async def _check_modules_of(
    services: Services, repo: str, ids: Sequence[str], language: str
) -> None:
    """A module the repository's rule set lacks could never match one of its PRs."""
    analyzer = await services.analyzer(repo, offline=True)
    known = [m.id for m in module_infos(analyzer.ruleset)]
    for module_id in ids:
        if module_id not in known:
            shown = ", ".join(known[:8]) + (", …" if len(known) > 8 else "")
            hint = suggest(module_id, known)
            raise InputError(
                "error.module.not_in_repo",
                "subscribe",
                repo=repo,
                name=module_id,
                hint=Text("error.hint", {"word": hint}) if hint else "",
                ruleset=services.config.repo(repo).modules,
                ids=shown,
            )


async def subscribe(
    services: Services,
    service: SubscriptionService,
    where: Channel,
    words: Sequence[str],
    filters: SubscriptionFilters,
    *,
    weekly: bool = False,
    language: str = "en",
) -> SubscriptionInfo:
    """`words` are module ids or names of the first configured repository's rule set, or
    `releases` alone (each published release's notes)."""
    releases = tuple(words) == ("releases",) and not weekly
    ids: list[str] = []
    modules = await subscription_catalogue(services, filters.repos)
    if not releases:
        ids = modules.words(words, language)
        for repo in filters.repos:
            await _check_modules_of(services, repo, ids, language)
    return await service.subscribe(
        platform=where.platform,
        channel=where.channel,
        user=where.user,
        modules=ids,
        filters=filters,
        weekly=weekly,
        releases=releases,
        catalogue=modules,
    )


async def subscription_catalogue(services: Services, repos: Sequence[str] = ()) -> ModuleCatalogue:
    """The modules a subscription may name: those of `repos` (its `repo:` filters), else of
    every configured repository (it matches the PRs of each)."""
    return await catalogue(services, list(repos) or [r.name for r in services.config.repos])


async def unsubscribe(
    services: Services,
    service: SubscriptionService,
    where: Channel,
    target: str,
    kind: str,
    *,
    language: str = "en",
) -> tuple[str, Unsubscribed]:
    """`kind` "all", "id" or "module"; returns the target as resolved (a module id) and
    what changed."""
    if kind == "module" and target.lower() == "releases":
        target = "releases"  # the channel's release subscription (no rule-set module)
    modules = None
    if kind == "module" and target != "releases":
        modules = await subscription_catalogue(services)
        found = await service.list(platform=where.platform, channel=where.channel)
        if not any(target in sub.modules for sub in found):
            # A module id a subscription still names is removed even if no rule set has it.
            target = modules.words([target], language)[0]
    removed, narrowed = await service.unsubscribe_detailed(
        platform=where.platform, channel=where.channel, user=where.user, target=target,
        kind=kind, catalogue=modules,
    )  # fmt: skip
    return target, Unsubscribed(removed, narrowed)


async def subscriptions(service: SubscriptionService, where: Channel) -> Sequence[SubscriptionInfo]:
    return await service.list(platform=where.platform, channel=where.channel)
