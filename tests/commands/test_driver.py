"""The one answer driver, with the terminal's surface and a recording one: in the ack when
the answer is ready, else acknowledge then follow up; the new commands; replies in zh."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.commands import Command, Reply, SubscriptionFilters
from bot.commands.cli_adapter import TerminalSurface
from bot.commands.driver import drive
from tests.commands.fakes import REPO, FakeBackend, FakeSubscriptions, context, make_pr


@dataclass
class Recorder:
    """A surface that records what the driver asked of it, in order."""

    platform: str = "test"
    calls: list[tuple[str, str, bool]] = field(default_factory=list)
    acknowledged: asyncio.Event = field(default_factory=asyncio.Event)

    async def respond(self, reply: Reply, command: Command | None) -> Reply:
        self.calls.append(("respond", reply.text, reply.ok))
        return reply

    async def acknowledge(self, text: str, *, public: bool) -> None:
        self.calls.append(("acknowledge", text, public))
        self.acknowledged.set()

    async def follow_up(self, reply: Reply, command: Command) -> Reply:
        self.calls.append(("follow_up", reply.text, reply.ok))
        return reply


async def test_cached_answer_goes_in_the_ack() -> None:
    backend = FakeBackend()
    backend.add(make_pr(42121), cached=True)
    surface = Recorder()
    reply = await drive("pr 42121", context(backend), surface)
    assert reply.ok and [c[0] for c in surface.calls] == ["respond"]
    assert backend.fetches == []


async def test_slow_answer_is_acknowledged_then_followed_up() -> None:
    backend = FakeBackend()
    backend.add(make_pr(42121), cached=False)
    surface = Recorder()
    await drive("pr 42121", context(backend), surface)
    assert surface.calls[0] == ("acknowledge", "looking up #42121…", False)
    assert surface.calls[1][0] == "follow_up" and surface.calls[1][2]
    assert backend.fetches == [(REPO, 42121)]


async def test_a_local_answer_that_takes_too_long_is_answered_later() -> None:
    gate = asyncio.Event()

    class SlowStore(FakeBackend):
        async def modules(self, repo: str):  # type: ignore[no-untyped-def]
            await gate.wait()
            return await super().modules(repo)

    surface = Recorder()
    running = asyncio.create_task(
        drive("modules", context(SlowStore()), surface, quick_timeout=0.01)
    )
    await surface.acknowledged.wait()
    assert surface.calls[0][0] == "acknowledge"
    gate.set()
    reply = await running
    assert reply.ok and surface.calls[1][0] == "follow_up"


async def test_public_answers_are_acknowledged_publicly() -> None:
    surface = Recorder()
    await drive("digest 2026-W23 post", context(), surface)
    assert surface.calls[0] == (
        "acknowledge",
        "building the 2026-W23 digest to post it in this channel…",
        True,
    )


async def test_bad_input_is_answered_in_the_ack_with_exit_2() -> None:
    surface = Recorder()
    reply = await drive("pr abc", context(), surface)
    assert reply.exit_code == 2 and surface.calls[0][0] == "respond"


async def test_terminal_prints_both_paths() -> None:
    backend = FakeBackend()
    backend.add(make_pr(1), cached=True)
    backend.add(make_pr(2), cached=False)
    progress: list[str] = []
    for number in (1, 2):
        surface = TerminalSurface("en", progress.append)
        reply = await drive(f"pr {number}", context(backend, platform="cli"), surface)
        assert reply.exit_code == 0
        [printed] = surface.output
        assert f"#{number} " in printed
    assert progress == ["looking up #2…"]  # only the slow one showed progress


async def test_terminal_digest_post_says_it_only_prints() -> None:
    surface = TerminalSurface("zh")
    await drive("digest 2026-W23 post", context(platform="cli", language="zh"), surface)
    assert surface.output[0].endswith(
        "（未发布：`vllm-bot chat` 只打印输出；请用 `vllm-bot digest --post`）"
    )


# ---------------------------------------------------------------------------- new commands


async def test_module_digest_passes_the_resolved_modules() -> None:
    backend = FakeBackend()
    reply = await drive('digest ROCm "Mixture of Experts" 2026-W23', context(backend), Recorder())
    assert reply.ok
    assert backend.digests == [(REPO, "2026-W23", "en")]
    assert backend.digest_modules == [("rocm", "moe")]


async def test_unknown_module_in_a_digest_is_refused_in_the_ack() -> None:
    backend = FakeBackend()
    surface = Recorder()
    reply = await drive("digest atention", context(backend), surface)
    assert reply.exit_code == 2 and surface.calls[0][0] == "respond"
    assert reply.text.startswith("unknown module 'atention'; did you mean 'attention'?")
    assert backend.digests == []


async def test_org_digest_without_an_organisation_is_one_clear_line() -> None:
    reply = await drive("digest org", context(), Recorder())
    assert reply.exit_code == 2
    assert reply.text.startswith("no organisation configured: add one to a [[digest.targets]]")
    backend = FakeBackend(org="vllm-project")
    reply = await drive("digest org 2026-W23", context(backend), Recorder())
    assert reply.ok and backend.org_digests == [("vllm-project", "2026-W23", "en")]


async def test_weekly_subscription_is_listed_as_weekly() -> None:
    subs = FakeSubscriptions()
    ctx = context(subscriptions=subs)
    reply = await drive("subscribe rocm weekly", ctx, Recorder())
    assert reply.ok and reply.public
    assert reply.text == "subscribed this channel to a weekly module digest: #1: rocm"
    assert subs.items[0][2].weekly
    listing = await drive("subscriptions", ctx, Recorder())
    assert listing.text == "1 subscription in this channel:\n• #1: rocm (weekly digest)"


async def test_version_shows_what_is_known_and_unknown_as_unknown() -> None:
    from bot.usecases.info import VersionInfo

    reply = await drive("version", context(), Recorder())
    assert reply.text == "vllm-bot 0.1.0 · rule set vllm 3:abc123 · store schema 0004"
    backend = FakeBackend(version_info=VersionInfo("0.1.0", None, None))
    reply = await drive("version", context(backend, language="zh"), Recorder())
    assert reply.text == "`vllm-bot` 0.1.0 · 规则集 未知 · 存储结构版本 未知"


# ---------------------------------------------------------------------------- language


async def test_a_subscriptions_language_is_its_alerts_not_the_channels() -> None:
    subs = FakeSubscriptions()
    ctx = context(subscriptions=subs)
    await subs.subscribe(
        platform="slack",
        channel="C1",
        user="U1",
        modules=["moe"],
        filters=SubscriptionFilters(language="zh"),
    )
    # `lang:zh` sets that alert's language (docs/alerts.md); replies keep the channel's.
    reply = await drive("subscriptions", ctx, Recorder())
    assert reply.text.startswith("1 subscription in this channel:"), reply.text
    assert "lang:zh" in reply.text
    bad = await drive("pr abc", ctx, Recorder())
    assert bad.text.splitlines()[-1].startswith("usage: /vllm pr")


async def test_replies_follow_the_channel_language() -> None:
    # The channel's language (its digest target's) is what replies are written in.
    ctx = context(subscriptions=FakeSubscriptions(), language="zh")
    bad = await drive("pr abc", ctx, Recorder())
    assert bad.text.splitlines() == [
        "不是 PR 编号：'abc'；应为数字，例如 42121",
        "用法：/vllm pr <number|url>",
    ]
