"""Small stand-ins for the bot's data layer, shared by the command and Slack tests."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.cards import pr_card
from bot.commands import Context, ModuleInfo, SubscriptionFilters, SubscriptionInfo, VersionInfo
from bot.commands.backend import module_infos
from bot.core.config import Config, RepoConfig
from bot.core.document import BulletList, Document, Link, Paragraph, Section, Strong, Text
from bot.core.errors import NotFoundError, UsageError
from bot.core.models import PullRequest
from bot.core.weeks import Window

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
    """Store and GitHub in memory; `github` holds what a fetch would find."""

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

    async def digest(
        self, repo: str, window: Window, language: str, *, modules: Sequence[str] = ()
    ) -> Document:
        self.digests.append((repo, window.label, language))
        self.digest_modules.append(tuple(modules))
        return digest_document(window.label, self.digest_sections, language)

    async def org_digest(self, window: Window, language: str) -> Document:
        if self.org is None:
            raise UsageError("no organisation configured: set [[digest.targets]] org = ...")
        self.org_digests.append((self.org, window.label, language))
        return digest_document(window.label, self.digest_sections, language)

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
