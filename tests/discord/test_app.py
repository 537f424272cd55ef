"""`/vllm` on Discord: the real CommandTree fed INTERACTION_CREATE payloads, answering
through discord.py's real response calls into the fake Discord."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from importlib import metadata
from typing import Any

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient

from bot.alerts.subscriptions import SubscriptionService
from bot.analysis.cache import ANALYSIS_VERSION
from bot.commands import COMMANDS, Context, help_text
from bot.core.config import Config, DiscordConfig, GitHubConfig, RepoConfig
from bot.core.document import Document
from bot.core.i18n import message
from bot.core.tasks import Admission, TaskTracker
from bot.core.weeks import parse_week
from bot.discord.app import CommandHandler, VllmDiscordBot
from bot.discord.endpoints import DiscordEndpoints
from bot.discord.platform import DiscordPlatform
from bot.store.ledger import Outcome, Owner
from bot.usecases.digest import DigestScope
from formatters.discord import render_discord
from tests.commands.fakes import NOW, REPO, bench_context, make_pr
from tests.fakes.backend import Bench, seed_week
from tests.fakes.discord import EPHEMERAL, FakeDiscord, FakeInteraction

EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{token}/messages/{message_id}"
DELETE_ORIGINAL = "DELETE /webhooks/{webhook_id}/{token}/messages/{message_id}"
FOLLOWUP = "POST /webhooks/{webhook_id}/{token}"


@dataclass
class Harness:
    fake: FakeDiscord
    client: VllmDiscordBot
    bench: Bench
    channel: int

    @property
    def subscriptions(self) -> SubscriptionService:
        return self.bench.app.subscriptions

    def invoke(
        self, subcommand: str, autocomplete: bool = False, **options: Any
    ) -> FakeInteraction:
        """Deliver `/vllm subcommand options…` as the gateway would; returns the record."""
        typed = []
        for name, value in options.items():
            focused = isinstance(value, Focused)
            raw = value.text if isinstance(value, Focused) else value
            kind = {bool: 5, int: 4}.get(type(raw), 3)
            typed.append({"name": name, "type": kind, "value": raw, "focused": focused})
        payload = self.fake.slash_interaction(
            subcommand, typed, channel_id=self.channel, autocomplete=autocomplete
        )
        self.client._connection.parse_interaction_create(payload)  # what the gateway calls
        return self.fake.interactions[int(payload["id"])]

    async def first_response(self, interaction: FakeInteraction) -> dict[str, Any]:
        await self.fake.wait_for(lambda: bool(self.fake.callbacks_for(interaction.id)))
        # How fast: bench/bench_discord_response.py measures it (Discord's deadline is 3 s).
        (callback,) = self.fake.callbacks_for(interaction.id)
        return callback.body

    async def answer(self, interaction: FakeInteraction) -> dict[str, Any]:
        """The answer the user sees after the deferral: the edited "thinking…" response,
        or the first follow-up when that was dropped for a private error; with its flags."""

        def answered() -> bool:
            if interaction.deleted_original:
                return bool(interaction.followups)
            original = interaction.original
            return original is not None and bool(
                original.body.get("content") or original.body.get("embeds")
            )

        # A deadline, not a timing claim: on a loaded 2-core machine an answer that waited on
        # a held GitHub took up to 11 s, past the fake's 5 s default.
        await self.fake.wait_for(answered, within=30.0)
        seen = interaction.followups[0] if interaction.deleted_original else interaction.original
        assert seen is not None
        return {**seen.body, "flags": seen.flags}

    async def choices(self, subcommand: str, **options: Any) -> list[dict[str, Any]]:
        interaction = self.invoke(subcommand, autocomplete=True, **options)
        body = await self.first_response(interaction)
        assert body["type"] == 8
        return body["data"]["choices"]


@dataclass
class Focused:
    """The option the user is typing in (autocomplete)."""

    text: str


def make_config(guild_ids: list[int]) -> Config:
    return Config(
        repos=[RepoConfig(name=REPO), RepoConfig(name="vllm-project/production-stack")],
        discord=DiscordConfig(guild_ids=guild_ids),
        github=GitHubConfig(max_retries=0),
    )


async def start_bot(
    fake: FakeDiscord,
    endpoints: DiscordEndpoints,
    bench: Bench,
    guild_ids: list[int],
    language: str | None = None,
) -> Harness:
    config = make_config(guild_ids)
    bench.app.config = config  # the running bot's own settings
    base = replace(
        bench_context(bench, platform="discord", subscriptions=True, language=language),
        config=config,
    )

    def context(channel: str | None, user: str | None) -> Context:
        return replace(base, channel=channel, user=user)

    async def rest() -> HTTPClient:
        # `digest … post` through the test client's own REST connection (logged in below).
        return client.http

    handler = CommandHandler(
        config=config,
        context_factory=context,
        store=bench.store.deliveries,
        platform=DiscordPlatform(config, rest),
    )
    client = VllmDiscordBot(handler=handler, endpoints=endpoints, guild_ids=guild_ids)
    await client.login(fake.token)  # runs setup_hook: gateway lookup and command sync
    return Harness(fake, client, bench, fake.add_channel().id)


@pytest.fixture
async def bot(
    fake: FakeDiscord, endpoints: DiscordEndpoints, bench: Bench
) -> AsyncIterator[Harness]:
    harness = await start_bot(fake, endpoints, bench, [fake.guild_id])
    try:
        yield harness
    finally:
        await harness.client.close()


def assert_no_mentions(fake: FakeDiscord) -> None:
    bodies = [*fake.sent_bodies(), *(c.body.get("data") or {} for c in fake.callbacks)]
    with_text = [b for b in bodies if b.get("content") or b.get("embeds")]
    assert with_text
    assert all(b["allowed_mentions"] == {"parse": []} for b in with_text)


# ---------------------------------------------------------------------------- start-up


async def test_login_syncs_commands_to_guilds_and_finds_the_gateway(
    bot: Harness, fake: FakeDiscord
) -> None:
    (group,) = fake.commands[fake.guild_id]
    assert group["name"] == "vllm"
    subcommands = {o["name"]: o for o in group["options"]}
    # The tree is the registry's: one subcommand per spec, one typed option per argument.
    assert list(subcommands) == [spec.name for spec in COMMANDS]
    kinds = {str: 3, int: 4, bool: 5}
    for spec in COMMANDS:
        options = {o["name"]: o for o in subcommands[spec.name].get("options", [])}
        assert set(options) == {a.name for a in spec.arguments}
        for argument in spec.arguments:
            option = options[argument.name]
            assert option["type"] == kinds[argument.kind]
            assert bool(option.get("required")) == argument.required
            assert bool(option.get("autocomplete")) == (argument.autocomplete is not None)
            assert [c["value"] for c in option.get("choices", [])] == list(argument.choice_values())
    help_choices = [c["value"] for c in subcommands["help"]["options"][0]["choices"]]
    assert help_choices == [spec.name for spec in COMMANDS]
    # Descriptions come from the catalogue: English by default, Chinese for zh-CN users.
    digest = subcommands["digest"]
    assert digest["description"] == message("en", "help.summary.digest")
    assert digest["description_localizations"]["zh-CN"] == message("zh", "help.summary.digest")
    week = next(o for o in digest["options"] if o["name"] == "week")
    assert week["description_localizations"]["zh-TW"] == message("zh", "help.arg.digest.week")
    number, repo = subcommands["pr"]["options"]
    assert (number["name"], number["type"], number["min_value"], number["required"]) == (
        "number",
        4,
        1,
        True,
    )
    assert repo["autocomplete"] is True and not repo.get("required")
    # Only DISCORD_API_URL was set: the gateway is what that API named on /gateway/bot.
    assert yarl.URL(fake.gateway_url) == DiscordWebSocket.DEFAULT_GATEWAY
    assert fake.requests_to("GET /gateway/bot")


async def test_without_guilds_commands_sync_globally(
    fake: FakeDiscord, endpoints: DiscordEndpoints, bench: Bench
) -> None:
    harness = await start_bot(fake, endpoints, bench, [])
    try:
        assert [c["name"] for c in fake.commands[None]] == ["vllm"]
        assert fake.guild_id not in fake.commands
    finally:
        await harness.client.close()


# ---------------------------------------------------------------------------- /vllm pr


async def test_cached_pr_is_deferred_at_once_then_answered(bot: Harness) -> None:
    await bot.bench.add(make_pr(42121), cached=True)
    interaction = bot.invoke("pr", number=42121)

    # Deferred before the store is read: the 3-second window never waits on the database.
    assert await bot.first_response(interaction) == {"type": 5, "data": {"flags": EPHEMERAL}}
    answer = await bot.answer(interaction)
    assert answer["flags"] & EPHEMERAL
    assert "42121" in answer["embeds"][0]["title"]
    assert bot.bench.github.requests() == []


async def test_a_full_queue_answers_busy_in_the_first_response(bot: Harness) -> None:
    github = bot.bench.github.hold()  # GitHub is slow: the one worker stays busy
    bot.client.handler.admission = Admission(1, 0)
    first = bot.invoke("pr", number=1)
    assert (await bot.first_response(first))["type"] == 5
    body = await bot.first_response(bot.invoke("pr", number=2))
    assert body["type"] == 4 and body["data"]["flags"] & EPHEMERAL
    assert body["data"]["content"] == "vllm-bot is busy right now; try again in a few seconds"
    github.release()
    await bot.answer(first)


async def test_uncached_pr_is_deferred_then_the_original_response_edited(bot: Harness) -> None:
    await bot.bench.add(make_pr(42121), cached=False)
    github = bot.bench.github.hold()  # GitHub is slow: the fetch waits for the test

    interaction = bot.invoke("pr", number=42121)
    body = await bot.first_response(interaction)

    assert body == {"type": 5, "data": {"flags": EPHEMERAL}}
    assert await asyncio.to_thread(github.reached.wait, 10)
    assert bot.fake.requests_to(EDIT_ORIGINAL) == []
    github.release()
    await bot.fake.wait_for(lambda: bool(bot.fake.requests_to(EDIT_ORIGINAL)))
    (edit,) = bot.fake.requests_to(EDIT_ORIGINAL)
    assert edit.status == 200 and edit.path.endswith("/messages/@original")
    assert "42121" in edit.json["embeds"][0]["title"]
    assert interaction.original is not None and interaction.original.flags & EPHEMERAL


async def test_pr_in_an_unwatched_repo_is_an_ephemeral_error(bot: Harness) -> None:
    answer = await bot.answer(bot.invoke("pr", number=1, repo="someone/else"))

    assert answer["flags"] & EPHEMERAL
    assert "someone/else is not watched" in answer["content"]
    assert "usage: /vllm pr" in answer["content"]


async def test_pr_in_another_watched_repo_uses_it(bot: Harness) -> None:
    other = "vllm-project/production-stack"
    await bot.bench.add(make_pr(7, repo=other), cached=True)

    answer = await bot.answer(bot.invoke("pr", number=7, repo=other))

    assert "#7" in answer["embeds"][0]["title"]


# ---------------------------------------------------------------------------- /vllm digest


async def week_digest(bench: Bench) -> Document:
    """The 2026-W23 digest of a seeded week, as the bot builds it."""
    seed_week(bench)
    window = parse_week("2026-W23", bench.app.config.tz, now=NOW)
    return await bench.backend.digest(DigestScope(REPO, ()), window, "en")


async def test_digest_post_is_posted_in_the_channel_through_the_ledger(bot: Harness) -> None:
    document = await week_digest(bot.bench)
    payloads = render_discord(document)
    assert len(payloads) > 1
    interaction = bot.invoke("digest", week="2026-W23", post=True)
    body = await bot.first_response(interaction)
    assert body == {"type": 5}  # public (no flags): the channel sees what is coming

    await bot.fake.wait_for(
        lambda: len(bot.fake.threads) == 1 and len(bot.fake.messages) > len(payloads)
    )
    (edit,) = bot.fake.requests_to(EDIT_ORIGINAL)
    assert "posting the 2026-W23 digest" in edit.json["content"]
    summary = next(m for m in bot.fake.channel_messages(bot.channel) if m.source == "bot")
    thread = bot.fake.thread_from(summary.id)
    assert thread is not None
    assert [m.body for m in bot.fake.channel_messages(thread.id)] == payloads[1:]

    # Asked again, the ledger (locked per document and channel) says it is all there.
    again = bot.invoke("digest", week="2026-W23", post=True)
    await bot.fake.wait_for(lambda: bool(again.followups))
    assert "already posted" in again.followups[0].body["content"]
    assert again.followups[0].flags & EPHEMERAL
    assert len(bot.fake.channel_messages(thread.id)) == len(payloads) - 1
    ledger = await bot.bench.store.deliveries.sent(document.id, "discord", str(bot.channel))
    assert sorted(ledger) == list(range(len(payloads)))


async def test_digest_post_held_by_another_run_is_reported_incomplete(bot: Harness) -> None:
    document = await week_digest(bot.bench)
    parts = len(render_discord(document))
    store = bot.bench.store
    channel = str(bot.channel)
    # Another live run (on another host, lease not run out) is posting part 2.
    elsewhere = Owner("elsewhere", "another-host", 12345)
    await store.deliveries.record(document.id, "discord", channel, 0, parts, "1", None)
    claim = await store.deliveries.claim(document.id, "discord", channel, 1, parts, owner=elsewhere)
    assert claim.outcome is Outcome.NEW

    interaction = bot.invoke("digest", week="2026-W23", post=True)
    await bot.fake.wait_for(lambda: bool(interaction.followups))

    text = interaction.followups[-1].body["content"]
    assert text.startswith(
        f"the 2026-W23 digest is not fully posted: 1 of {parts} messages are in this channel"
    )
    assert "another run is posting message 2 right now" in text
    assert interaction.followups[-1].flags & EPHEMERAL
    assert [m for m in bot.fake.channel_messages(bot.channel) if m.source == "bot"] == []


async def test_failed_public_deferral_turns_into_a_private_error(bot: Harness) -> None:
    bot.bench.github.inject(status=502, times=float("inf"))  # GitHub is down
    interaction = bot.invoke("digest", post=True)

    body = await bot.first_response(interaction)
    assert body == {"type": 5}
    await bot.fake.wait_for(lambda: bool(interaction.followups))

    assert interaction.deleted_original  # the public "thinking…" message is gone
    (followup,) = interaction.followups
    assert followup.flags & EPHEMERAL
    assert "GitHub is unavailable" in followup.body["content"]


# ---------------------------------------------------------------------------- subscriptions


async def test_subscribe_goes_through_the_command_layer(bot: Harness) -> None:
    answer = await bot.answer(
        bot.invoke("subscribe", module="attention Mixture of", filters="min:7 -label:ci")
    )
    # "Mixture of" is not a module: the command layer says so, privately.
    assert answer["flags"] & EPHEMERAL and "unknown module" in answer["content"]

    answer = await bot.answer(
        bot.invoke("subscribe", module="attention moe", filters="min:7 -label:ci")
    )
    assert not answer["flags"]  # the channel sees it
    [info] = await bot.subscriptions.list(platform="discord", channel=str(bot.channel))
    assert info.modules == ("attention", "moe")
    assert info.filters.min_score == 7 and info.filters.not_labels == ("ci",)

    answer = await bot.answer(bot.invoke("unsubscribe", target="moe"))
    assert answer["content"] == "subscription #1 no longer includes moe; it still follows attention"
    answer = await bot.answer(bot.invoke("unsubscribe", target="all"))
    assert "removed 1 subscription" in answer["content"]
    assert await bot.subscriptions.list(platform="discord", channel=str(bot.channel)) == []


async def test_help_and_modules(bot: Harness) -> None:
    assert (await bot.answer(bot.invoke("help")))["content"] == help_text()
    answer = await bot.answer(bot.invoke("help", command="subscribe"))
    assert answer["content"] == help_text("subscribe")
    answer = await bot.answer(bot.invoke("modules"))
    assert "attention" in answer["embeds"][0]["description"]


# ---------------------------------------------------------------------------- autocomplete


async def test_module_autocomplete_is_filtered_and_capped(bot: Harness) -> None:
    everything = await bot.choices("subscribe", module=Focused(""))
    assert len(everything) == 25  # 29 modules, Discord shows at most 25

    typed = await bot.choices("subscribe", module=Focused("at"))
    assert typed and typed[0]["value"] == "attention"
    assert all("at" in (c["value"] + c["name"]).lower() for c in typed)

    by_name = await bot.choices("subscribe", module=Focused("混合"))
    assert [c["value"] for c in by_name] == ["moe"]

    second_word = await bot.choices("subscribe", module=Focused("attention spec"))
    assert [c["value"] for c in second_word] == ["attention spec-decode"]

    assert await bot.choices("subscribe", module=Focused("zzz")) == []


async def test_repo_week_and_unsubscribe_autocomplete(bot: Harness) -> None:
    repos = await bot.choices("pr", number=1, repo=Focused("prod"))
    assert [c["value"] for c in repos] == ["vllm-project/production-stack"]

    weeks = await bot.choices("digest", week=Focused(""))
    assert [c["value"] for c in weeks[:2]] == ["last", "this"] and len(weeks) <= 25

    await bot.answer(bot.invoke("subscribe", module="rocm"))
    targets = await bot.choices("unsubscribe", target=Focused(""))
    assert [c["value"] for c in targets] == ["all", "1", "rocm"]


async def test_every_message_parses_no_mentions(bot: Harness) -> None:
    await bot.bench.add(make_pr(5, title="@everyone look <@&1234567890123456>"), cached=True)
    details = len(render_discord(await week_digest(bot.bench))) - 1
    await bot.first_response(bot.invoke("pr", number=5))
    await bot.first_response(bot.invoke("subscribe", module="@everyone"))
    await bot.first_response(bot.invoke("digest", week="2026-W23", post=True))
    await bot.fake.wait_for(
        lambda: any(len(bot.fake.channel_messages(t)) == details for t in bot.fake.threads)
    )

    assert_no_mentions(bot.fake)


# ---------------------------------------------------------------------------- shutdown


async def test_running_commands_are_in_flight_and_new_ones_refused_at_shutdown(
    bot: Harness,
) -> None:
    await bot.bench.add(make_pr(7), cached=False)
    github = bot.bench.github.hold()  # the lookup waits on GitHub
    bot.invoke("pr", number=7)
    handler = bot.client.handler
    await bot.fake.wait_for(lambda: bool(handler.in_flight()))
    [running] = handler.in_flight()
    handler.stop_accepting()
    late = bot.invoke("help")
    body = await bot.first_response(late)
    assert body["data"]["content"] == "vllm-bot is restarting; try again in a minute"
    assert body["data"]["flags"] & EPHEMERAL
    github.release()
    await asyncio.wait_for(running, 5)  # the one already running finishes
    assert handler.in_flight() == {}


async def test_commands_shutdown_gives_up_on_are_told_to_try_again(bot: Harness) -> None:
    # One worker: #7 waits on GitHub past the grace, #8 waits behind it. Both users saw
    # "thinking…"; both must read something before the client closes.
    await bot.bench.add(make_pr(7), cached=False)
    await bot.bench.add(make_pr(8), cached=True)
    github = bot.bench.github.hold()
    handler = bot.client.handler
    handler.admission = Admission(1, 5)
    running = bot.invoke("pr", number=7)
    assert (await bot.first_response(running))["type"] == 5
    assert await asyncio.to_thread(github.reached.wait, 10)
    queued = bot.invoke("pr", number=8)
    assert (await bot.first_response(queued))["type"] == 5
    try:
        cancelled = await TaskTracker([handler]).drain(grace=0.4)
    finally:
        github.release()
    assert cancelled == [f"discord /vllm in {bot.channel}"]  # #7, cut off
    for interaction in (running, queued):
        answer = await bot.answer(interaction)
        assert answer["content"] == "vllm-bot is restarting; try again in a minute"
        assert answer["flags"] & EPHEMERAL


# ---------------------------------------------------------------------------- new commands


async def test_version(bot: Harness) -> None:
    answer = await bot.answer(bot.invoke("version"))
    assert answer["flags"] & EPHEMERAL
    assert re.fullmatch(
        rf"vllm-bot {re.escape(metadata.version('vllm-bot'))} · rule set vllm "
        rf"{ANALYSIS_VERSION}:[0-9a-f]{{8}} · store schema \d{{4}}",
        answer["content"],
    ), answer["content"]


async def test_module_digest_gets_typed_values_not_text(bot: Harness) -> None:
    rocm = make_pr(31000, title="[ROCm] Enable AITER fused MoE on MI300")
    await bot.bench.add(rocm, cached=False)
    await bot.bench.add(make_pr(31001, title="[Docs] Fix a typo in the quickstart"), cached=False)
    interaction = bot.invoke("digest", modules="rocm Mixture of Experts", week="2026-W23")
    body = await bot.first_response(interaction)
    assert body == {"type": 5, "data": {"flags": EPHEMERAL}}  # private: no post
    await bot.fake.wait_for(lambda: bool(bot.fake.requests_to(EDIT_ORIGINAL)))
    (edit,) = bot.fake.requests_to(EDIT_ORIGINAL)
    shown = str(edit.json)
    assert "2026-W23" in shown
    assert "31000" in shown and "31001" not in shown  # the modules' PRs only


async def test_typed_bad_week_is_one_private_line_with_usage(bot: Harness) -> None:
    body = await bot.first_response(bot.invoke("digest", week="lsat"))
    assert body["type"] == 4 and body["data"]["flags"] & EPHEMERAL
    assert body["data"]["content"].splitlines() == [
        "unknown digest argument 'lsat'; did you mean 'last'? (accepted: this, last, an ISO week "
        "like 2026-W23, post)",
        "usage: /vllm digest [module...|org] [this|last|2026-W23] [post]",
    ]


async def test_weekly_subscription_as_a_typed_option(bot: Harness) -> None:
    answer = await bot.answer(bot.invoke("subscribe", module="rocm", weekly=True))
    assert not answer["flags"]
    assert answer["content"] == "subscribed this channel to a weekly module digest: #1: rocm"
    [info] = await bot.subscriptions.list(platform="discord", channel=str(bot.channel))
    assert info.weekly


async def test_digest_scope_autocomplete_offers_org_then_modules(bot: Harness) -> None:
    everything = await bot.choices("digest", modules=Focused(""))
    assert everything[0]["value"] == "org" and len(everything) == 25
    typed = await bot.choices("digest", modules=Focused("ro"))
    assert [c["value"] for c in typed][:1] == ["rocm"]
    assert await bot.choices("digest", modules=Focused("rocm o")) != []  # the second word


async def test_replies_in_the_channel_language(
    fake: FakeDiscord, endpoints: DiscordEndpoints, bench: Bench
) -> None:
    harness = await start_bot(fake, endpoints, bench, [fake.guild_id], language="zh")
    try:
        answer = await harness.answer(harness.invoke("pr", number=1, repo="someone/else"))
        assert answer["content"].splitlines() == [
            f"本机器人没有关注 someone/else（关注的是 {REPO}、vllm-project/production-stack）",
            "用法：/vllm pr <number|url>",
        ]
        answer = await harness.answer(harness.invoke("help"))
        assert answer["content"] == help_text(language="zh")
    finally:
        await harness.client.close()
