"""Release notes posted to the channels that follow releases: once per channel through the
ledger, whether the webhook, a redelivery or the poll asks; a follower that failed is
retried by the next poll."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.alerts.releases import poll_releases, post_release, release_channels
from bot.app import App
from bot.core.config import Config, Environment
from bot.core.filters import SubscriptionFilters
from bot.slack.poster import SlackPoster, slack_client
from bot.store import Store
from tests.fakes.github import FakeGitHub, FakeTag
from tests.fakes.prdata import FakePR
from tests.fakes.slack import FakeSlack, VirtualClock
from tests.releases.helpers import merged, squash

REPO = "vllm-project/vllm-ascend"
START = datetime(2026, 6, 1, tzinfo=UTC)


def _release_data(count: int) -> tuple[list[FakePR], list[FakeTag]]:
    prs = []
    for i in range(count):
        n = 9000 + i
        title = "[Feature] Support DeepSeek V4 part" if i % 2 else "[BugFix] Fix DeepSeek V4"
        when = START + timedelta(hours=i)
        prs.append(merged(n, f"{title} {n}", when, "vllm_ascend/models/deepseek_v4.py"))
    commits = [squash(pr) for pr in prs]
    return prs, [FakeTag("v0.20.2rc1", commits[:2]), FakeTag("v0.21.0rc1", commits)]


@dataclass
class World:
    services: App
    slack: FakeSlack
    github: FakeGitHub

    def messages(self, channel: str) -> list[str]:
        return [
            json.dumps(m.blocks, ensure_ascii=False) for m in self.slack.channel_messages(channel)
        ]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    prs, tags = _release_data(12)
    github = await FakeGitHub({REPO: prs}, tags={REPO: tags}).start()
    clock = VirtualClock()
    slack = await FakeSlack(clock=clock, channels={"C1": True, "C2": True}).start()
    env = Environment(
        github_token=SecretStr(github.token),
        github_api_url=github.api_url,
        github_graphql_url=github.graphql_url,
        slack_bot_token=SecretStr(slack.token),
        slack_api_url=slack.api_url,
    )
    config = Config.model_validate(
        {
            "repos": [{"name": REPO, "modules": "generic"}],
            "releases": {"targets": [{"platform": "slack", "channel": "C1"}]},
        }
    )
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    services = App(config=config, env=env, store=store)
    services._slack_poster = SlackPoster(
        slack_client(slack.token, slack.api_url), clock=clock, sleep=clock.sleep
    )
    try:
        yield World(services, slack, github)
    finally:
        await services.close()
        await slack.close()
        await github.close()


async def _subscribe_c2_in_chinese(world: World) -> None:
    await world.services.subscriptions.subscribe(
        platform="slack",
        channel="C2",
        user="U1",
        modules=[],
        filters=SubscriptionFilters(language="zh"),
        releases=True,
    )


async def test_each_follower_gets_the_notes_once_in_its_language(world: World) -> None:
    await _subscribe_c2_in_chinese(world)
    channels = await release_channels(world.services, REPO)
    assert {(c.channel, c.language) for c in channels} == {("C1", "en"), ("C2", "zh")}
    first = await post_release(world.services, REPO, "v0.21.0rc1")
    assert all(r.complete for r in first) and len(first) == 2
    c1, c2 = world.messages("C1"), world.messages("C2")
    assert c1 and c2 and "release notes" in c1[0] and "发布说明" in c2[0]
    # Built once, written in both languages: GitHub was asked for the comparison once.
    assert len(world.github.requests("compare")) == 1
    # The webhook redelivered, then the poll: nothing new in either channel.
    await post_release(world.services, REPO, "v0.21.0rc1")
    assert await poll_releases(world.services) == ""
    assert (world.messages("C1"), world.messages("C2")) == (c1, c2)


async def test_the_poll_posts_a_release_the_webhook_missed_and_only_once(world: World) -> None:
    assert await poll_releases(world.services) == "1 new releases posted"
    posted = world.messages("C1")
    assert posted
    compares = len(world.github.requests("compare"))
    assert await poll_releases(world.services) == ""
    assert world.messages("C1") == posted
    assert len(world.github.requests("compare")) == compares  # announced: not built again


async def test_online_notes_count_newcomers_and_state_the_requests(world: World) -> None:
    from bot.releases.pipeline import build_release, render_release

    built = await build_release(world.services, REPO, "v0.21.0rc1", "en")
    digest = built.digest
    assert digest.base_date is not None
    prs = world.github.repos[REPO]
    earlier = {p.author for p in prs if p.merged_at and p.merged_at < digest.base_date}
    authors = {p.author for p in prs if p.number in {r.number for r in digest.rows}}
    # New: an author of the release with no PR merged before the base tag's date.
    assert digest.new_contributors == len(authors - earlier) > 0
    assert digest.contributors == len(authors)
    assert digest.requests is not None
    assert digest.requests.used == digest.requests.lower_bound  # tags, 1 compare, 1 GraphQL
    assert digest.requests.newcomers >= 1
    footer = render_release(built, "markdown").strip().splitlines()[-1]
    assert f"GitHub requests: {digest.requests.used} for the release" in footer
