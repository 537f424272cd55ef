"""Per-(platform, channel) subscriptions on the store (`bot.usecases.subscriptions`
wraps them for the chat commands).

Everything here is local (store only) so slash commands can answer within the platform's
acknowledgement window. Problems the user can fix raise `InputError` (a `UsageError`; the
chat adds the command's usage line) with one clear line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.alerts.model import Subscription
from bot.alerts.repository import Subscriptions
from bot.analysis.catalogue import ModuleCatalogue
from bot.core.errors import InputError, MessageError
from bot.core.filters import SubscriptionFilters
from bot.core.settings import AlertSettings
from bot.store.store import Store

# A channel with more subscriptions than this is almost certainly a script gone wrong;
# matching would cope, people reading `/vllm subscriptions` would not.
MAX_PER_CHANNEL = 100


@dataclass(frozen=True, slots=True)
class SubscriptionInfo:
    id: str
    modules: tuple[str, ...]
    filters: SubscriptionFilters = field(default_factory=SubscriptionFilters)
    created_by: str | None = None
    created: bool = True  # False: the channel already had exactly this subscription
    weekly: bool = False  # a weekly module digest instead of per-PR alerts
    releases: bool = False  # each published release's notes

    def describe(self) -> str:
        filters = self.filters.describe()
        return f"#{self.id}: {', '.join(self.modules)}" + (f"  {filters}" if filters else "")


def subscription_info(sub: Subscription, *, created: bool = True) -> SubscriptionInfo:
    return SubscriptionInfo(
        id=str(sub.id),
        modules=sub.modules,
        filters=sub.filters,
        created_by=sub.created_by,
        created=created,
        weekly=sub.weekly,
        releases=sub.releases,
    )


class SubscriptionService:
    """A channel's subscriptions on the store; changes are checked against the alert admins."""

    def __init__(
        self,
        store: Store,
        settings: AlertSettings,
        catalogue: ModuleCatalogue | Callable[[], ModuleCatalogue],
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.subscriptions = Subscriptions(store)
        self.settings = settings
        self._catalogue = catalogue
        self.clock = clock
        self._on_change = on_change or (lambda: None)

    @property
    def catalogue(self) -> ModuleCatalogue:
        # A factory is called on the first change: listing needs no rule set.
        if not isinstance(self._catalogue, ModuleCatalogue):
            self._catalogue = self._catalogue()
        return self._catalogue

    def may_change(self, platform: str, channel: str, user: str | None) -> bool:
        admins = self.settings.admins_for(platform, channel)
        if not admins:
            return True  # the default: anyone who can type in the channel
        if user is None:
            return False
        return user in admins or f"{platform}:{user}" in admins

    def _check_admin(self, platform: str, channel: str, user: str | None) -> None:
        if not self.may_change(platform, channel, user):
            # A permission problem, not a syntax one: no usage line.
            raise MessageError("error.subscribe.admins")

    async def subscribe(
        self,
        *,
        platform: str,
        channel: str,
        user: str | None,
        modules: Sequence[str],
        filters: SubscriptionFilters,
        weekly: bool = False,
        releases: bool = False,
        catalogue: ModuleCatalogue | None = None,
    ) -> SubscriptionInfo:
        """`weekly`: one module digest a week on the channel's digest cron instead of a
        message per PR (bot.runtime.scheduler posts it). `releases`: each published
        release's notes (bot.alerts.releases posts them). `catalogue`: the modules the
        subscription may name (`bot.usecases.subscriptions` passes its repositories'),
        else the service's own."""
        self._check_admin(platform, channel, user)
        if not modules and not releases:
            raise InputError("error.subscribe.no_modules", "subscribe")
        # --- releases: no module, only lang: ---
        catalogue = catalogue or self.catalogue
        ids = ["releases"] if releases else catalogue.resolve_all(modules, "subscribe")
        ignored = dataclasses.replace(filters, language=None)
        if releases and ignored != SubscriptionFilters():
            raise InputError(
                "error.subscribe.releases_filters", "subscribe", filters=ignored.describe()
            )
        if weekly and ignored != SubscriptionFilters():
            # The digest covers every PR of its modules; a filter would silently do nothing.
            raise InputError(
                "error.subscribe.weekly_filters", "subscribe", filters=ignored.describe()
            )
        existing = await self.subscriptions.find(platform, channel)
        for sub in existing:
            # Subscribing twice to the same thing is a no-op, not a second stream of alerts.
            if (
                set(sub.modules) == set(ids)
                and sub.filters == filters
                and (sub.weekly, sub.releases) == (weekly, releases)
            ):
                return subscription_info(sub, created=False)
        if len(existing) >= MAX_PER_CHANNEL:
            raise InputError(
                "error.subscribe.limit", "subscribe", count=len(existing), limit=MAX_PER_CHANNEL
            )
        sub = await self.subscriptions.add(
            platform=platform,
            channel=channel,
            modules=ids,
            filters=filters,
            created_by=user,
            now=self.clock(),
            weekly=weekly,
            releases=releases,
        )
        self._on_change()
        return subscription_info(sub)

    async def unsubscribe(
        self, *, platform: str, channel: str, user: str | None, target: str, kind: str
    ) -> int:
        """Remove the channel's matching subscriptions; returns how many changed.

        `module`: subscriptions naming only that module go; others just lose it.
        `id`: only an id of this channel counts (another channel's id changes nothing).
        """
        removed, narrowed = await self.unsubscribe_detailed(
            platform=platform, channel=channel, user=user, target=target, kind=kind
        )
        return removed + len(narrowed)

    async def unsubscribe_detailed(
        self,
        *,
        platform: str,
        channel: str,
        user: str | None,
        target: str,
        kind: str,
        catalogue: ModuleCatalogue | None = None,
    ) -> tuple[int, list[tuple[int, list[str]]]]:
        """As `unsubscribe`, saying what happened: (subscriptions removed, [(id, modules
        left)] for those only narrowed), so the reply never calls a narrowing a removal.
        A module a subscription names by id is found even when no catalogue has it any more."""
        self._check_admin(platform, channel, user)
        subs = await self.subscriptions.find(platform, channel)
        narrowed: list[tuple[int, list[str]]] = []
        if kind == "all":
            await self.subscriptions.delete([s.id for s in subs])
            removed = len(subs)
        elif kind == "id":
            try:
                wanted = int(target.removeprefix("#"))
            except ValueError:
                raise InputError("error.unsubscribe.id", "unsubscribe", target=target) from None
            doomed = [s.id for s in subs if s.id == wanted]
            await self.subscriptions.delete(doomed)
            removed = len(doomed)
        elif kind == "module":
            # "releases" is the channel's release subscription, not a rule-set module.
            if target == "releases" or any(target in sub.modules for sub in subs):
                module = target
            else:
                module = (catalogue or self.catalogue).resolve_all([target], "unsubscribe")[0]
            doomed = []
            for sub in subs:
                if module not in sub.modules:
                    continue
                rest = [m for m in sub.modules if m != module]
                if rest:
                    await self.subscriptions.set_modules(sub.id, rest, self.clock())
                    narrowed.append((sub.id, rest))
                else:
                    doomed.append(sub.id)
            await self.subscriptions.delete(doomed)
            removed = len(doomed)
        else:
            raise ValueError(f"unknown unsubscribe kind {kind!r}")
        if removed or narrowed:
            self._on_change()
        return removed, narrowed

    async def list(self, *, platform: str, channel: str) -> Sequence[SubscriptionInfo]:
        return [subscription_info(s) for s in await self.subscriptions.find(platform, channel)]
