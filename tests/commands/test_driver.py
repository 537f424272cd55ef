"""The one answer driver, with the terminal's surface and a recording one: in the ack when
the answer is ready, else acknowledge then follow up; the new commands; replies in zh."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path

from bot.analysis.cache import ANALYSIS_VERSION
from bot.app import App
from bot.commands import Command, Reply, SubscriptionFilters
from bot.commands.cli_adapter import TerminalSurface
from bot.commands.context import Backend, Context
from bot.commands.driver import drive
from bot.core.config import Config, Environment, RepoConfig
from bot.store import Store
from tests.commands.fakes import REPO, bench_context, make_pr
from tests.fakes.backend import Bench


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


async def test_cached_answer_goes_in_the_ack(bench: Bench) -> None:
    await bench.add(make_pr(42121), cached=True)
    surface = Recorder()
    reply = await drive("pr 42121", bench_context(bench), surface)
    assert reply.ok and [c[0] for c in surface.calls] == ["respond"]
    assert bench.github.requests() == []


async def test_slow_answer_is_acknowledged_then_followed_up(bench: Bench) -> None:
    await bench.add(make_pr(42121), cached=False)
    surface = Recorder()
    await drive("pr 42121", bench_context(bench), surface)
    assert surface.calls[0] == ("acknowledge", "looking up #42121…", False)
    assert surface.calls[1][0] == "follow_up" and surface.calls[1][2]
    assert bench.fetches() == [(REPO, 42121)]


async def test_a_local_answer_that_takes_too_long_is_answered_later(bench: Bench) -> None:
    gate = asyncio.Event()

    # The one stub left: a local answer held for as long as the test likes (the real
    # store and rule set answer `modules` in milliseconds).
    class SlowModules(Backend):
        async def modules(self, repo: str):  # type: ignore[no-untyped-def]
            await gate.wait()
            return await super().modules(repo)

    ctx = replace(bench_context(bench), backend=SlowModules(bench.app))
    surface = Recorder()
    running = asyncio.create_task(drive("modules", ctx, surface, quick_timeout=0.01))
    await surface.acknowledged.wait()
    assert surface.calls[0][0] == "acknowledge"
    gate.set()
    reply = await running
    assert reply.ok and surface.calls[1][0] == "follow_up"


async def test_public_answers_are_acknowledged_publicly(bench: Bench) -> None:
    surface = Recorder()
    await drive("digest 2026-W23 post", bench_context(bench), surface)
    assert surface.calls[0] == (
        "acknowledge",
        "building the 2026-W23 digest to post it in this channel…",
        True,
    )


async def test_bad_input_is_answered_in_the_ack_with_exit_2(bench: Bench) -> None:
    surface = Recorder()
    reply = await drive("pr abc", bench_context(bench), surface)
    assert reply.exit_code == 2 and surface.calls[0][0] == "respond"


async def test_terminal_prints_both_paths(bench: Bench) -> None:
    await bench.add(make_pr(1), cached=True)
    await bench.add(make_pr(2), cached=False)
    progress: list[str] = []
    for number in (1, 2):
        surface = TerminalSurface("en", progress.append)
        reply = await drive(f"pr {number}", bench_context(bench, platform="cli"), surface)
        assert reply.exit_code == 0
        [printed] = surface.output
        assert f"#{number} " in printed
    assert progress == ["looking up #2…"]  # only the slow one showed progress


async def test_terminal_digest_post_says_it_only_prints(bench: Bench) -> None:
    surface = TerminalSurface("zh")
    ctx = bench_context(bench, platform="cli", language="zh")
    await drive("digest 2026-W23 post", ctx, surface)
    assert surface.output[0].endswith(
        "（未发布：`vllm-bot chat` 只打印输出；请用 `vllm-bot digest --post`）"
    )


# ---------------------------------------------------------------------------- new commands


async def test_module_digest_passes_the_resolved_modules(bench: Bench) -> None:
    rocm = make_pr(31000, title="[ROCm] Enable AITER fused MoE on MI300")
    await bench.add(rocm, cached=False)
    await bench.add(make_pr(31001, title="[Docs] Fix a typo in the quickstart"), cached=False)
    ctx = bench_context(bench)
    reply = await drive('digest ROCm "Mixture of Experts" 2026-W23', ctx, Recorder())
    assert reply.ok and reply.document is not None
    assert reply.document.meta["week"] == "2026-W23"
    shown = str(reply.document.sections)
    assert "31000" in shown and "31001" not in shown  # only the modules' PRs


async def test_unknown_module_in_a_digest_is_refused_in_the_ack(bench: Bench) -> None:
    surface = Recorder()
    reply = await drive("digest atention", bench_context(bench), surface)
    assert reply.exit_code == 2 and surface.calls[0][0] == "respond"
    assert reply.text.startswith("unknown module 'atention'; did you mean 'attention'?")
    assert bench.github.requests() == []


async def test_org_digest_without_an_organisation_is_one_clear_line(bench: Bench) -> None:
    reply = await drive("digest org", bench_context(bench), Recorder())
    assert reply.exit_code == 2
    assert reply.text.startswith("no organisation configured: add one to a [[digest.targets]]")
    assert bench.github.requests() == []


async def test_weekly_subscription_is_listed_as_weekly(bench: Bench) -> None:
    ctx = bench_context(bench, subscriptions=True)
    reply = await drive("subscribe rocm weekly", ctx, Recorder())
    assert reply.ok and reply.public
    assert reply.text == "subscribed this channel to a weekly module digest: #1: rocm"
    [stored] = await bench.app.subscriptions.list(platform="slack", channel="C1")
    assert stored.weekly
    listing = await drive("subscriptions", ctx, Recorder())
    assert listing.text == "1 subscription in this channel:\n• #1: rocm (weekly digest)"


async def test_version_shows_what_is_known(bench: Bench) -> None:
    reply = await drive("version", bench_context(bench), Recorder())
    assert re.fullmatch(
        rf"vllm-bot {re.escape(metadata.version('vllm-bot'))} · rule set vllm "
        rf"{ANALYSIS_VERSION}:[0-9a-f]{{8}} · store schema \d{{4}}",
        reply.text,
    ), reply.text


async def test_version_shows_what_is_unknown_as_unknown(tmp_path: Path) -> None:
    # A store never migrated (no schema) and a rule set built from the repository's files
    # with GitHub out of reach: neither can be told.
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}", migrate=False)
    config = Config(repos=[RepoConfig(name="someone/else", modules="auto")])
    app = App(config=config, env=Environment(github_api_url="http://127.0.0.1:9"), store=store)
    ctx = Context(platform="slack", config=config, backend=Backend(app), language="zh")
    try:
        reply = await drive("version", ctx, Recorder())
    finally:
        await store.close()
    assert reply.text == (
        f"`vllm-bot` {metadata.version('vllm-bot')} · 规则集 未知 · 存储结构版本 未知"
    )


# ---------------------------------------------------------------------------- language


async def test_a_subscriptions_language_is_its_alerts_not_the_channels(bench: Bench) -> None:
    ctx = bench_context(bench, subscriptions=True)
    await bench.app.subscriptions.subscribe(
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


async def test_replies_follow_the_channel_language(bench: Bench) -> None:
    # The channel's language (its digest target's) is what replies are written in.
    ctx = bench_context(bench, subscriptions=True, language="zh")
    bad = await drive("pr abc", ctx, Recorder())
    assert bad.text.splitlines() == [
        "不是 PR 编号：'abc'；应为数字，例如 42121",
        "用法：/vllm pr <number|url>",
    ]
