"""Shared fakes for the alert tests: a settable clock, a deterministic analyzer, a
recording sender, and a store on a fresh SQLite file."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.alerts.pipeline import AlertPipeline
from bot.alerts.render import BotCards
from bot.alerts.subscriptions import SubscriptionService
from bot.analysis.catalogue import ModuleCatalogue, ModuleInfo
from bot.core.document import Document
from bot.core.filters import SubscriptionFilters
from bot.core.models import Analysis, FileChange, Flag, ModuleMatch, PullRequest
from bot.core.settings import AlertSettings
from bot.store import Store

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)  # a Monday, noon UTC
REPO = "vllm-project/vllm"

MODULES = ModuleCatalogue.of(
    [
        ModuleInfo("attention", "Attention backends", "注意力后端"),
        ModuleInfo("moe", "Mixture of Experts", "MoE 混合专家"),
        ModuleInfo("scheduler", "Scheduler", "调度器"),
        ModuleInfo("spec-decode", "Speculative decoding", "投机解码"),
        ModuleInfo("docs", "Documentation", "文档"),
    ]
)


class Clock:
    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


class FakeAnalyzer:
    """Modules are the title's [tags]; score and flags are set per PR number."""

    def __init__(self) -> None:
        self.scores: dict[int, float] = {}
        self.flags: dict[int, list[str]] = {}
        self.calls = 0

    def analyze(self, pr: PullRequest) -> Analysis:
        self.calls += 1
        modules = [ModuleMatch(m, f"tag [{m}]") for m in re.findall(r"\[([^\]]+)\]", pr.title)]
        return Analysis(
            modules=modules,
            kind="feature",
            kind_reason="test",
            flags=[Flag(f, "test") for f in self.flags.get(pr.number, [])],
            score=self.scores.get(pr.number, 5.0),
            contributions=[],
            claims=[],
        )


def make_pr(
    number: int,
    modules: Sequence[str] = ("attention",),
    *,
    author: str = "alice",
    labels: Sequence[str] = (),
    files: Sequence[str] | None = ("vllm/attention/layer.py",),
    merged_at: datetime | None = None,
    repo: str = REPO,
) -> PullRequest:
    tags = "".join(f"[{m}]" for m in modules)
    return PullRequest(
        repo=repo,
        number=number,
        title=f"{tags} change {number}",
        url=f"https://github.com/{repo}/pull/{number}",
        state="merged",
        created_at=T0 - timedelta(days=2),
        merged_at=merged_at or T0 - timedelta(minutes=1),
        author=author,
        labels=list(labels),
        files=[FileChange(p, 3, 1) for p in files or ()],
        files_known=files is not None,
    )


@dataclass
class Outbox:
    """The injected sender: records what would be posted; `fail` makes it raise."""

    sent: list[tuple[str, str, Document]] = field(default_factory=list)
    fail: bool = False

    async def __call__(self, platform: str, channel: str, document: Document) -> None:
        if self.fail:
            raise RuntimeError("platform unavailable")
        self.sent.append((platform, channel, document))

    def numbers(self) -> list[list[int]]:
        """Per message, the PR numbers it carries."""
        return [pr_numbers(doc) for _platform, _channel, doc in self.sent]


def pr_numbers(doc: Document) -> list[int]:
    """The PR numbers a production alert card carries: `bot.cards` ids end in them
    (`alert:REPO:N`, a batch `alert:REPOS:N1,N2,...`)."""
    return [int(n) for n in doc.id.rsplit(":", 1)[1].split(",")]


def card_kind(doc: Document) -> str:
    """ "alert" for one PR's card, "alert-batch" for a batch (only a single card names its PR)."""
    return "alert" if "number" in doc.meta else "alert-batch"


@dataclass
class Env:
    store: Store
    clock: Clock
    analyzer: FakeAnalyzer
    outbox: Outbox
    settings: AlertSettings
    pipeline: AlertPipeline
    service: SubscriptionService
    url: str

    def new_pipeline(self, store: Store | None = None, **settings: object) -> AlertPipeline:
        merged = self.settings.model_copy(update=settings) if settings else self.settings
        return AlertPipeline(
            store or self.store,
            merged,
            analyzer_for=lambda repo: self.analyzer,
            sender=self.outbox,
            cards=BotCards(),
            clock=self.clock,
        )

    async def subscribe(
        self,
        *modules: str,
        channel: str = "C1",
        platform: str = "slack",
        user: str | None = "U1",
        filters: SubscriptionFilters | None = None,
    ):
        return await self.service.subscribe(
            platform=platform,
            channel=channel,
            user=user,
            modules=list(modules),
            filters=filters or SubscriptionFilters(),
        )


def settings(**values: object) -> AlertSettings:
    base = {"batch_after": 5, "batch_window_seconds": 60, "overlap_minutes": 15}
    return AlertSettings.model_validate(base | values)


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    url = "sqlite+aiosqlite:///" + str(tmp_path / "s.db")
    store = await Store.open(url)
    clock = Clock()
    analyzer = FakeAnalyzer()
    outbox = Outbox()
    alert_settings = settings()
    # The cards production builds (bot.alerts.wiring.build_runtime), not the pipeline's fallback.
    pipeline = AlertPipeline(
        store,
        alert_settings,
        analyzer_for=lambda repo: analyzer,
        sender=outbox,
        cards=BotCards(),
        clock=clock,
    )
    # Subscriptions exist from an hour before T0, so PRs merged "now" are after them.
    service_clock = Clock(T0 - timedelta(hours=1))
    service = SubscriptionService(
        store, alert_settings, MODULES, clock=service_clock, on_change=pipeline.invalidate
    )
    yield Env(store, clock, analyzer, outbox, alert_settings, pipeline, service, url)
    await store.close()
