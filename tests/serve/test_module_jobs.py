"""Module digests on schedule: `[[digest.targets]] modules` and weekly subscriptions, built by
the real pipeline from the fake GitHub and posted to the Slack and Discord fakes."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import SecretStr

from bot.alerts.repository import Subscriptions
from bot.app import App
from bot.core.config import Config, Environment
from bot.core.filters import SubscriptionFilters
from bot.core.metrics import Metrics
from bot.digest.pipeline import build_for_window
from bot.discord.endpoints import DiscordEndpoints, override_endpoints
from bot.runtime.scheduler import Jobs, week_before
from bot.slack.poster import SlackPoster, slack_client
from bot.store import Store
from tests.fakes.discord import FakeDiscord
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import make_prs
from tests.fakes.slack import FakeSlack, VirtualClock
from tests.serve.conftest import make_config

REPO = "vllm-project/vllm"
ASCEND = "vllm-project/vllm-ascend"  # for the organisation target
# Mondays 09:00 Europe/Berlin = 07:00 UTC in June; this run posts 2026-W23.
RUN = datetime(2026, 6, 8, 7, tzinfo=UTC)
W23 = (datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 7, 20, tzinfo=UTC))
W22 = (datetime(2026, 5, 25, tzinfo=UTC), datetime(2026, 5, 31, 20, tzinfo=UTC))
_PR = re.compile(r"/pull/(\d+)")


@dataclass
class World:
    services: App
    slack: FakeSlack
    discord: FakeDiscord
    discord_channel: str

    def jobs(self, now: datetime = RUN + timedelta(hours=1)) -> Jobs:
        return Jobs(self.services, clock=lambda: now, metrics=Metrics())

    def slack_prs(self, channel: str) -> set[int]:
        """PR numbers linked from the channel's messages."""
        text = json.dumps([m.blocks for m in self.slack.channel_messages(channel)])
        return {int(n) for n in _PR.findall(text)}

    def discord_messages(self) -> list[Any]:
        ids = {int(self.discord_channel)} | {
            t.id for t in self.discord.threads.values() if t.parent_id == int(self.discord_channel)
        }
        return [m for m in self.discord.messages if m.channel_id in ids]


def _config(discord_channel: str, *, extra_targets: Sequence[dict[str, Any]] = ()) -> Config:
    targets = [
        {"platform": "slack", "channel": "C1", "modules": ["rocm"], "chart": False},
        {"platform": "discord", "channel": discord_channel, "modules": ["rocm"]},
        *extra_targets,
    ]
    return make_config(digest={"targets": targets, "history_weeks": 2})


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    prs = make_prs(60, *W23, seed=11, first_number=40000) + make_prs(
        30, *W22, seed=12, first_number=39000
    )
    ascend = make_prs(12, *W23, seed=13, first_number=50000)
    github = await FakeGitHub({REPO: prs, ASCEND: ascend}).start()
    clock = VirtualClock()
    slack = await FakeSlack(clock=clock, channels={"C1": True, "C2": True}).start()
    discord = FakeDiscord()
    await discord.start()
    channel = str(discord.add_channel().id)
    env = Environment(
        github_token=SecretStr(github.token),
        github_api_url=github.api_url,
        github_graphql_url=github.graphql_url,
        slack_bot_token=SecretStr(slack.token),
        slack_api_url=slack.api_url,
        discord_bot_token=SecretStr(discord.token),
        discord_api_url=discord.api_url,
    )
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    services = App(config=_config(channel), env=env, store=store)
    # The fake's clock paces Slack's one message per second per channel.
    services._slack_poster = SlackPoster(
        slack_client(slack.token, slack.api_url), clock=clock, sleep=clock.sleep
    )
    with override_endpoints(DiscordEndpoints()):
        try:
            yield World(services, slack, discord, channel)
        finally:
            await services.close()
            await slack.close()
            await discord.close()
            await github.close()
    assert discord.violations == []


async def _expected(world: World, modules: list[str], language: str = "en") -> set[int]:
    window = week_before(RUN, world.services.config.tz)
    built = await build_for_window(
        world.services, REPO, window, language, sync=False, modules=modules
    )
    return {row.number for row in built.digest.prs}


async def test_a_module_target_posts_its_module_digest_once_and_no_chart_when_off(
    world: World,
) -> None:
    outcomes = await world.jobs().catch_up()
    assert sorted(outcomes.values()) == [["posted"], ["posted"]]

    rocm = await _expected(world, ["rocm"])
    everything = await _expected(world, [])
    assert rocm and rocm < everything  # a real subset: the scope shows
    # Slack: only the module's PRs, titled as a module digest, and no chart (chart = false).
    posted = world.slack.channel_messages("C1")
    assert posted and posted[0].text.startswith("ROCm / AMD · ")
    assert world.slack_prs("C1") and world.slack_prs("C1") <= rocm
    assert world.slack.shared_files("C1") == []
    assert "files.getUploadURLExternal" not in world.slack.calls
    # Discord gets the same module digest.
    messages = world.discord_messages()
    assert messages
    discord_text = json.dumps([m.body for m in messages], ensure_ascii=False)
    linked = {int(n) for n in _PR.findall(discord_text)}
    assert linked and linked <= rocm

    # A restart (new Jobs, same database): the ledger says both are there.
    count = (len(posted), len(messages))
    again = await world.jobs(RUN + timedelta(hours=2)).catch_up()
    assert sorted(again.values()) == [["delivered"], ["delivered"]]
    assert (len(world.slack.channel_messages("C1")), len(world.discord_messages())) == count


async def test_a_module_digest_and_the_full_digest_of_one_channel_are_each_posted(
    world: World,
) -> None:
    full = {"platform": "slack", "channel": "C1", "chart": False}
    world.services.config = _config(world.discord_channel, extra_targets=[full])
    jobs = world.jobs()
    assert sorted(jobs.digests) == [
        f"digest:discord:{world.discord_channel}:{REPO}:en:modules=rocm",
        f"digest:slack:C1:{REPO}:en",
        f"digest:slack:C1:{REPO}:en:modules=rocm",
    ]
    outcomes = await jobs.catch_up()
    assert all(o == ["posted"] for o in outcomes.values()) and len(outcomes) == 3
    titles = [m.text for m in world.slack.channel_messages("C1") if m.thread_ts is None]
    assert len(titles) == 2
    assert sum(t.startswith("ROCm / AMD · ") for t in titles) == 1


async def test_weekly_subscriptions_of_a_channel_get_one_module_digest(world: World) -> None:
    db = Subscriptions(world.services.store)
    at = RUN - timedelta(days=30)
    # Two subscriptions with the same modules (named in another order), as two people made.
    for modules in (["rocm", "attention"], ["attention", "rocm"]):
        await db.add(
            platform="slack",
            channel="C2",
            modules=modules,
            filters=SubscriptionFilters(),
            created_by="U1",
            now=at,
            weekly=True,
        )
    # A per-PR subscription of the same channel is no weekly digest.
    await db.add(
        platform="slack",
        channel="C2",
        modules=["moe"],
        filters=SubscriptionFilters(),
        created_by="U1",
        now=at,
    )
    jobs = world.jobs()
    # C2 has no target: it posts on digest.cron (Mondays 09:00 in the config's timezone).
    outcomes = await jobs.run_weekly("0 9 * * MON")
    assert outcomes == {f"digest:slack:C2:{REPO}:en:modules=attention,rocm": "posted"}
    roots = [m for m in world.slack.channel_messages("C2") if m.thread_ts is None]
    assert len(roots) == 1 and roots[0].text.startswith("Attention backends, ROCm / AMD · ")
    assert world.slack_prs("C2") <= await _expected(world, ["attention", "rocm"])

    # Restarted: catch-up sees the week is in the ledger, and the next run of the cron too.
    count = len(world.slack.channel_messages("C2"))
    restarted = world.jobs(RUN + timedelta(hours=3))
    assert list((await restarted.catch_up()).get(next(iter(outcomes)), [])) == ["delivered"]
    assert await restarted.run_weekly("0 9 * * MON") == {next(iter(outcomes)): "delivered"}
    assert len(world.slack.channel_messages("C2")) == count


async def test_a_weekly_subscription_in_chinese_posts_a_chinese_module_digest(
    world: World,
) -> None:
    await Subscriptions(world.services.store).add(
        platform="slack",
        channel="C2",
        modules=["rocm"],
        filters=SubscriptionFilters(language="zh"),
        created_by="U1",
        now=RUN - timedelta(days=30),
        weekly=True,
    )
    outcomes = await world.jobs().run_weekly("0 9 * * MON")
    assert outcomes == {f"digest:slack:C2:{REPO}:zh:modules=rocm": "posted"}
    (root,) = [m for m in world.slack.channel_messages("C2") if m.thread_ts is None]
    assert root.text.startswith("ROCm / AMD 平台｜")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["C1", "C2", "C3"]),
            st.lists(st.sampled_from(["rocm", "moe", "tpu"]), min_size=1, max_size=3),
            st.sampled_from([None, "en", "zh"]),
            st.booleans(),
        ),
        max_size=25,
    )
)
def test_weekly_jobs_are_one_per_channel_module_set_and_language(
    subs: list[tuple[str, list[str], str | None, bool]],
) -> None:
    from bot.alerts.model import Subscription
    from bot.runtime.scheduler import weekly_jobs

    config = make_config(
        digest={"targets": [{"platform": "slack", "channel": "C1", "language": "zh"}]}
    )
    rows = [
        Subscription(
            i, "slack", channel, tuple(mods), SubscriptionFilters(), RUN, None, lang, None, weekly
        )
        for i, (channel, mods, lang, weekly) in enumerate(subs)
    ]
    jobs = weekly_jobs(config, rows)
    # C1's target says zh; the others fall back to the config's en.
    wanted = {
        (channel, frozenset(mods), lang or ("zh" if channel == "C1" else "en"))
        for channel, mods, lang, weekly in subs
        if weekly
    }
    assert len(jobs) == len(wanted) == len({job.id for job in jobs})
    assert {(j.channel, frozenset(j.modules), j.language) for j in jobs} == wanted
    assert all(list(j.modules) == sorted(set(j.modules)) for j in jobs)
    assert {j.cron for j in jobs} <= {"0 9 * * MON"}


async def test_catch_up_leaves_out_runs_from_before_the_weekly_subscription(world: World) -> None:
    # Subscribed an hour after Monday's run: a restart must not post the week it missed.
    await Subscriptions(world.services.store).add(
        platform="slack",
        channel="C2",
        modules=["rocm"],
        filters=SubscriptionFilters(),
        created_by="U1",
        now=RUN + timedelta(hours=1),
        weekly=True,
    )
    restarted = world.jobs(RUN + timedelta(hours=2))
    outcomes = await restarted.catch_up()
    assert f"digest:slack:C2:{REPO}:en:modules=rocm" not in outcomes
    assert world.slack.channel_messages("C2") == []


def test_target_modules_resolve_like_subscribe_and_unknown_ones_stop_serve() -> None:
    from bot.core.errors import ConfigError
    from bot.runtime.scheduler import digest_jobs

    named = make_config(
        digest={"targets": [{"platform": "slack", "channel": "C1", "modules": ["ROCm / AMD"]}]}
    )
    (job,) = digest_jobs(named)
    assert job.modules == ("rocm",) and job.id.endswith(":modules=rocm")
    typo = make_config(
        digest={"targets": [{"platform": "slack", "channel": "C1", "modules": ["rcom"]}]}
    )
    with pytest.raises(ConfigError, match=r"digest\.targets\.0\.modules: unknown module 'rcom'"):
        digest_jobs(typo)


async def test_an_organisation_target_posts_one_org_digest_once(world: World) -> None:
    repos = [REPO, ASCEND]
    org = {"platform": "slack", "channel": "C2", "repos": repos, "chart": False}
    world.services.config = _config(world.discord_channel, extra_targets=[org])
    jobs = world.jobs()
    job_id = f"digest:slack:C2:{','.join(repos)}:en"
    assert job_id in jobs.digests and jobs.digests[job_id].multi is not None

    outcomes = await jobs.catch_up()
    assert outcomes[job_id] == ["posted"]
    posted = world.slack.channel_messages("C2")
    # The organisation digest, not the first repository's own: its summary names both.
    summary = json.dumps(posted[0].blocks, ensure_ascii=False)
    assert "vllm-ascend" in summary
    linked = world.slack_prs("C2")
    assert any(n >= 50000 for n in linked) and any(n < 50000 for n in linked)  # both repos

    again = await world.jobs(RUN + timedelta(hours=2)).catch_up()
    assert again[job_id] == ["delivered"]
    assert len(world.slack.channel_messages("C2")) == len(posted)


def test_an_organisation_target_cannot_be_a_module_digest() -> None:
    from pydantic import ValidationError

    # Refused when the config loads, so every command (not only serve) says so.
    target = {"platform": "slack", "channel": "C2", "org": "vllm-project", "modules": ["rocm"]}
    with pytest.raises(ValidationError, match="a module digest covers one repository"):
        make_config(digest={"targets": [target]})
