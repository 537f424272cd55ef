"""Small stand-ins for the bot's data layer, shared by the command and Slack tests."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.alerts.subscriptions import SubscriptionInfo
from bot.analysis.analyzer import Analyzer
from bot.analysis.catalogue import ModuleCatalogue, ModuleInfo, module_infos
from bot.analysis.rules import load_ruleset
from bot.cards import pr_card
from bot.commands import Context, SubscriptionFilters
from bot.core.config import Config, RepoConfig
from bot.core.document import BulletList, Document, Link, Paragraph, Section, Strong, Text
from bot.core.errors import (
    GitHubUnreachable,
    NeedsNetwork,
    NotFoundError,
    PrUnreachable,
    UsageError,
)
from bot.core.i18n import message
from bot.core.models import PullRequest
from bot.core.weeks import Window
from bot.usecases.digest import DigestScope
from bot.usecases.info import VersionInfo
from bot.usecases.subscriptions import Channel, Unsubscribed
from tests.fakes.backend import Bench

REPO = "vllm-project/vllm"
NOW = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)  # Wednesday of 2026-W24
# The real module catalogue of the shipped vLLM rule set.
MODULES = module_infos(load_ruleset("vllm"))


def make_pr(number: int, *, title: str | None = None, repo: str = REPO) -> PullRequest:
    return PullRequest(
        repo=repo,
        number=number,
        title=title or f"[Attention] Faster kernels, part {number}",
        url=f"https://github.com/{repo}/pull/{number}",
        state="merged",
        created_at=datetime(2026, 6, 1, tzinfo=UTC),
        merged_at=datetime(2026, 6, 3, tzinfo=UTC),
        author="octocat",
        additions=120,
        deletions=30,
        changed_files=4,
    )


def digest_document(label: str, sections: int = 6, language: str = "en") -> Document:
    """A digest-sized document: each section big enough to need its own Slack message."""
    body = []
    for i in range(sections):
        items = tuple(
            (
                Link(f"https://github.com/{REPO}/pull/{40000 + i * 100 + j}", f"#{40000 + j}"),
                Text(f" section {i} item {j}: " + "a long explanation of the change " * 8),
            )
            for j in range(30)
        )
        body.append(
            Section(f"s{i}", f"Section {i}", (Paragraph((Strong(f"part {i}"),)), BulletList(items)))
        )
    return Document(
        id=f"digest:{REPO}:{label}:{language}",
        title=f"vLLM weekly digest {label}",
        context=f"{REPO} · {label}",
        sections=tuple(body),
        fallback=f"vLLM weekly digest {label}",
        meta={"repo": REPO, "week": label, "language": language},
    )


@functools.cache
def _analyzer() -> Analyzer:
    return Analyzer(load_ruleset("vllm"))


def real_card(pr: PullRequest, language: str = "en") -> Document:
    """The bot's real card: the real analyzer and `bot.cards.pr_card`."""
    analyzer = _analyzer()
    names = {m.id: m.name(language) for m in module_infos(analyzer.ruleset)}
    return pr_card(pr, analyzer.analyze(pr), language, names)


@dataclass
class FakeBackend:
    """`bot.commands.Backend` with store and GitHub in memory, for the platform adapters'
    tests (rendering, acknowledgements, in-flight commands); `github` holds what a fetch
    would find. The lookup policy itself is tested on the real use cases (tests/usecases).
    """

    cache: dict[tuple[str, int], PullRequest] = field(default_factory=dict)
    github: dict[tuple[str, int], PullRequest] = field(default_factory=dict)
    fetch_error: Exception | None = None
    fetch_delay: float = 0.0
    gate: asyncio.Event | None = None  # when set, fetches wait for it (GitHub "in flight")
    card_error: Exception | None = None
    fetches: list[tuple[str, int]] = field(default_factory=list)
    digests: list[tuple[str, str, str]] = field(default_factory=list)
    digest_sections: int = 6
    digest_modules: list[tuple[str, ...]] = field(default_factory=list)
    org: str | None = None  # the configured organisation, if any
    org_digests: list[tuple[str, str, str]] = field(default_factory=list)
    version_info: VersionInfo = field(
        default_factory=lambda: VersionInfo("0.1.0", "vllm 3:abc123", "0004")
    )
    releases: tuple[str, ...] = ("v0.20.2rc1", "v0.21.0rc1")
    calls: list[tuple[object, ...]] = field(default_factory=list)

    def add(self, pr: PullRequest, *, cached: bool) -> None:
        self.github[(pr.repo, pr.number)] = pr
        if cached:
            self.cache[(pr.repo, pr.number)] = pr

    async def cached_pr(self, repo: str, number: int) -> PullRequest | None:
        return self.cache.get((repo, number))

    async def cached_holdings(self, repo: str, number: int) -> tuple[list[str], int]:
        repos = sorted({r for r, n in self.cache if n == number})
        return repos, sum(1 for r, _ in self.cache if r == repo)

    async def fetch_pr(self, repo: str, number: int) -> PullRequest:
        self.fetches.append((repo, number))
        if self.gate is not None:
            await self.gate.wait()
        if self.fetch_delay:
            await asyncio.sleep(self.fetch_delay)
        if self.fetch_error is not None:
            raise self.fetch_error
        pr = self.github.get((repo, number))
        if pr is None:
            raise NotFoundError(f"{repo}#{number} not found")
        self.cache[(repo, number)] = pr
        return pr

    async def pr_card(self, pr: PullRequest, language: str) -> Document:
        if self.card_error is not None:
            raise self.card_error
        return real_card(pr, language)

    async def local_card(self, repo: str, number: int, language: str) -> Document:
        pr = await self.cached_pr(repo, number)
        if pr is None:
            raise NeedsNetwork
        return await self.pr_card(pr, language)

    async def card(self, repo: str, number: int, language: str) -> Document:
        pr = await self.cached_pr(repo, number)
        if pr is None:
            try:
                pr = await self.fetch_pr(repo, number)
            except GitHubUnreachable as exc:
                elsewhere, held = await self.cached_holdings(repo, number)
                raise PrUnreachable(
                    exc, repo=repo, number=number, elsewhere=elsewhere, held=held
                ) from None
        return await self.pr_card(pr, language)

    async def check_scope(self, scope: DigestScope, language: str) -> None:
        ModuleCatalogue.of(MODULES).words(scope.modules, language)
        if scope.org and self.org is None:
            raise UsageError(message(language, "error.no_org"))

    async def digest(self, scope: DigestScope, window: Window, language: str) -> Document:
        await self.check_scope(scope, language)
        if scope.org:
            self.org_digests.append((self.org or "", window.label, language))
        else:
            self.digests.append((scope.repo or REPO, window.label, language))
            self.digest_modules.append(tuple(ModuleCatalogue.of(MODULES).words(scope.modules)))
        return digest_document(window.label, self.digest_sections, language)

    async def subscribe(
        self,
        service: FakeSubscriptions,
        where: Channel,
        words: Sequence[str],
        filters: SubscriptionFilters,
        *,
        weekly: bool,
        language: str,
    ) -> SubscriptionInfo:
        releases = tuple(words) == ("releases",) and not weekly
        ids = [] if releases else ModuleCatalogue.of(MODULES).words(words, language)
        assert where.channel is not None
        return await service.subscribe(
            platform=where.platform, channel=where.channel, user=where.user, modules=ids,
            filters=filters, weekly=weekly, releases=releases,
        )  # fmt: skip

    async def unsubscribe(
        self, service: FakeSubscriptions, where: Channel, target: str, kind: str, language: str
    ) -> tuple[str, Unsubscribed]:
        if kind == "module" and target.lower() != "releases":
            target = ModuleCatalogue.of(MODULES).words([target], language)[0]
        removed = await service.unsubscribe(
            platform=where.platform, channel=where.channel, user=where.user, target=target,
            kind=kind,
        )  # fmt: skip
        return target, Unsubscribed(removed, [])

    async def version(self, repo: str) -> VersionInfo:
        return self.version_info

    async def modules(self, repo: str) -> Sequence[ModuleInfo]:
        return MODULES

    # --- releases ---
    async def release(
        self, repo: str, tag: str | None, language: str, *, card: bool = True
    ) -> Document:
        self.calls.append(("release", repo, tag, language, card))
        if tag is not None and tag not in self.releases:
            raise UsageError(f"{repo} has no tag {tag!r}")
        name = tag or "v0.21.0rc1"
        kind = "card" if card else "notes"
        return Document(
            id=f"release:{repo}:{name}:{kind}",
            title=f"{repo} {name}",
            context="",
            sections=(),
            fallback=f"{repo} {name} {kind}",
            meta={"tag": name},
        )


@dataclass
class FakeSubscriptions:
    items: list[tuple[str, str, SubscriptionInfo]] = field(default_factory=list)

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
    ) -> SubscriptionInfo:
        info = SubscriptionInfo(
            str(len(self.items) + 1),
            ("releases",) if releases else tuple(modules),
            filters,
            user,
            weekly=weekly,
            releases=releases,
        )
        self.items.append((platform, channel, info))
        return info

    async def unsubscribe(
        self, *, platform: str, channel: str, user: str | None, target: str, kind: str
    ) -> int:
        def hit(p: str, c: str, s: SubscriptionInfo) -> bool:
            if (p, c) != (platform, channel):
                return False
            return kind == "all" or (kind == "id" and s.id == target) or target in s.modules

        before = len(self.items)
        self.items = [x for x in self.items if not hit(*x)]
        return before - len(self.items)

    async def list(self, *, platform: str, channel: str) -> Sequence[SubscriptionInfo]:
        return [s for p, c, s in self.items if (p, c) == (platform, channel)]


def config(*repos: str) -> Config:
    return Config(repos=[RepoConfig(name=r) for r in (repos or (REPO,))])


def context(
    backend: FakeBackend | None = None,
    *,
    platform: str = "slack",
    channel: str | None = "C1",
    subscriptions: FakeSubscriptions | None = None,
    repos: tuple[str, ...] = (),
    language: str | None = None,
) -> Context:
    return Context(
        platform=platform,
        config=config(*repos),
        backend=backend or FakeBackend(),
        channel=channel,
        user="U1",
        subscriptions=subscriptions,
        language=language,
        now=lambda: NOW,
    )


def bench_context(
    bench: Bench,
    *,
    platform: str = "slack",
    channel: str | None = "C1",
    subscriptions: bool = False,
    repos: tuple[str, ...] = (),
    language: str | None = None,
) -> Context:
    """A command's Context over the real backend of `bench` (its store's subscriptions
    when `subscriptions`), at NOW."""
    return Context(
        platform=platform,
        config=config(*repos),
        backend=bench.backend,
        channel=channel,
        user="U1",
        subscriptions=bench.app.subscriptions if subscriptions else None,
        language=language,
        now=lambda: NOW,
    )
