"""The real slack-bolt AsyncApp in HTTP mode behind aiohttp on loopback, with the fake Slack."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from bot.core.errors import GitHubUnavailable
from bot.core.models import PullRequest
from bot.core.tasks import Admission
from bot.slack.poster import SlackPoster
from bot.store import Store
from bot.store.ledger import Outcome, Owner
from tests.commands.fakes import REPO, FakeBackend, FakeSubscriptions, digest_document, make_pr
from tests.fakes.slack import FakeSlack
from tests.slack.helpers import Running, running_bot

PR_URL = f"https://github.com/{REPO}/pull/42121"


@pytest.fixture
async def slack(fake_slack: FakeSlack, store: Store, poster: SlackPoster) -> AsyncIterator[Running]:
    async with running_bot(fake_slack, store, poster) as running:
        yield running


def responses(fake: FakeSlack, key: str = "r1") -> list[dict]:
    return [body for k, body in fake.responses if k == key]


async def test_a_cached_pr_is_acknowledged_at_once_and_the_card_follows(slack: Running) -> None:
    slack.backend.add(make_pr(42121), cached=True)
    response = await slack.command("pr 42121")
    assert response.status == 200
    assert await response.json() == {"response_type": "ephemeral", "text": "looking up #42121…"}
    await slack.bot.drain()
    [card] = responses(slack.fake)
    assert card["response_type"] == "ephemeral"
    assert card["text"].startswith("PR #42121: ")
    # The whole card in one message: its summary and its thread part (flags, files).
    texts = [b.get("text", {}).get("text", "") for b in card["blocks"]]
    assert card["blocks"][0]["type"] == "header"
    assert "*Flags*" in texts and "*Overview*" in texts
    assert slack.backend.fetches == []


class StalledStore(FakeBackend):
    """A store whose reads wait (its pool exhausted, a lock held) until `go` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()

    async def cached_pr(self, repo: str, number: int) -> PullRequest | None:
        await self.go.wait()
        return await super().cached_pr(repo, number)


async def test_the_ack_never_waits_on_the_store(
    fake_slack: FakeSlack, store: Store, poster: SlackPoster
) -> None:
    backend = StalledStore()
    backend.add(make_pr(42121), cached=True)
    async with running_bot(fake_slack, store, poster, backend=backend) as slack:
        async with asyncio.timeout(2):
            response = await slack.command("pr 42121")
            assert response.status == 200
            assert (await response.json())["text"] == "looking up #42121…"
        assert fake_slack.responses == []
        backend.go.set()
        await slack.bot.drain()
        [card] = responses(fake_slack)
        assert card["text"].startswith("PR #42121: ")


async def test_a_full_queue_answers_busy_at_once_and_the_admitted_are_answered(
    fake_slack: FakeSlack, store: Store, poster: SlackPoster
) -> None:
    backend = StalledStore()
    for number in (1, 2, 3):
        backend.add(make_pr(number), cached=True)
    async with running_bot(fake_slack, store, poster, backend=backend) as slack:
        slack.bot.admission = Admission(1, 1)  # one worker, one waiting
        acks = [await (await slack.command(f"pr {n}", key=f"r{n}")).json() for n in (1, 2, 3)]
        assert [a["text"] for a in acks] == [
            "looking up #1…",
            "looking up #2…",
            "vllm-bot is busy right now; try again in a few seconds",
        ]
        assert acks[2]["response_type"] == "ephemeral"
        assert slack.bot.admission.depth == 1
        assert slack.bot.metrics.commands_busy.value(platform="slack") >= 1
        backend.go.set()
        await slack.bot.drain()
        assert [len(responses(fake_slack, f"r{n}")) for n in (1, 2, 3)] == [1, 1, 0]
        assert (slack.bot.admission.running, slack.bot.admission.depth) == (0, 0)


@pytest.mark.parametrize(
    ("secret", "age", "reason"),
    [
        ("wrong-secret", 0, "bad signature"),
        (None, 6 * 60, "stale timestamp (replayed after 5 minutes)"),
        (None, -6 * 60, "timestamp from the future"),
    ],
)
async def test_bad_or_stale_signature_is_401(
    slack: Running, secret: str | None, age: int, reason: str
) -> None:
    slack.backend.add(make_pr(42121), cached=True)
    kwargs = {"timestamp": int(time.time()) - age}
    if secret:
        kwargs["secret"] = secret
    response = await slack.command("pr 42121", **kwargs)
    assert response.status == 401, reason
    assert "42121" not in await response.text()
    await slack.bot.drain()
    assert slack.fake.calls == [] and slack.fake.responses == []


async def test_unsigned_request_is_401(slack: Running) -> None:
    response = await slack.session.post(slack.url, data="command=%2Fvllm&text=help")
    assert response.status == 401


async def test_uncached_pr_acks_at_once_then_the_card_arrives(slack: Running) -> None:
    slack.backend.add(make_pr(42121), cached=False)
    slack.backend.gate = asyncio.Event()  # GitHub has not answered yet
    response = await slack.command("pr 42121")
    assert response.status == 200
    assert await response.json() == {"response_type": "ephemeral", "text": "looking up #42121…"}
    assert slack.backend.fetches == [(REPO, 42121)]  # the fetch is in flight, after the ack
    assert slack.fake.responses == []
    slack.backend.gate.set()
    await slack.bot.drain()
    [card] = responses(slack.fake)
    assert card["response_type"] == "ephemeral"
    assert card["text"].startswith("PR #42121: ") and card["blocks"]


async def test_github_down_is_try_again_never_a_traceback(slack: Running) -> None:
    slack.backend.fetch_error = GitHubUnavailable("502 three times")
    response = await slack.command("pr 7")
    assert (await response.json())["text"] == "looking up #7…"
    await slack.bot.drain()
    assert responses(slack.fake) == [
        {
            "response_type": "ephemeral",
            "text": "GitHub is unavailable, try again in a minute (502 three times)",
        }
    ]


async def test_bad_input_is_answered_in_the_ack_and_escaped(slack: Running) -> None:
    response = await slack.command("<!channel> now")
    body = await response.json()
    assert body["response_type"] == "ephemeral"
    assert body["text"].startswith("unknown command '&lt;!channel&gt;'")
    assert "<!channel>" not in body["text"]
    response = await slack.command("pr abc")
    assert (await response.json())["text"].startswith("not a PR number: 'abc'")
    response = await slack.command("subscriptions")
    assert (await response.json())["text"] == "working on it…"
    await slack.bot.drain()
    [answer] = responses(slack.fake)
    assert answer["text"] == "subscriptions are not available yet"


async def test_digest_post_posts_in_the_channel_once(slack: Running) -> None:
    response = await slack.command("digest 2026-W23 post")
    assert (await response.json())["text"] == (
        "building the 2026-W23 digest to post it in this channel…"
    )
    await slack.bot.drain()
    messages = slack.fake.channel_messages("C1")
    assert len(messages) == 8 and messages[0].thread_ts is None
    assert all(m.thread_ts == messages[0].ts for m in messages[1:])
    assert responses(slack.fake)[-1]["text"] == (
        "posted the 2026-W23 digest in this channel (8 messages, details in its thread)"
    )
    # Typed again: nothing new is posted.
    await slack.command("digest 2026-W23 post", key="r2")
    await slack.bot.drain()
    assert len(slack.fake.channel_messages("C1")) == 8
    assert responses(slack.fake, "r2")[-1]["text"].endswith(
        "already posted in this channel; nothing new to post"
    )


async def test_digest_post_where_the_bot_is_not_invited(slack: Running) -> None:
    slack.fake.channels["CPRIV"] = False
    await slack.command("digest last post", channel="CPRIV")
    await slack.bot.drain()
    [answer] = responses(slack.fake)
    assert answer["text"] == (
        "the bot is not in Slack channel CPRIV: invite it with /invite @vllm-bot in that channel"
    )


async def test_digest_preview_is_the_summary_plus_a_hint(slack: Running) -> None:
    await slack.command("digest 2026-W23")
    await slack.bot.drain()
    summary, hint = responses(slack.fake)
    assert summary["response_type"] == "ephemeral" and summary["blocks"]
    assert hint["text"] == (
        "…and 7 more messages of details. `/vllm digest 2026-W23 post` posts the whole digest "
        "in this channel."
    )
    assert slack.fake.messages == []  # nothing posted in the channel


async def test_subscribe_confirmation_is_visible_in_the_channel(
    fake_slack: FakeSlack, store: Store, poster: SlackPoster
) -> None:
    async with running_bot(fake_slack, store, poster, subscriptions=FakeSubscriptions()) as slack:
        response = await slack.command("subscribe attention min:7")
        assert (await response.json())["response_type"] == "ephemeral"
        await slack.bot.drain()
    assert responses(fake_slack) == [
        {"response_type": "in_channel", "text": "subscribed this channel: #1: attention  min:7"}
    ]


async def test_link_shared_unfurls_watched_pr_links_only(slack: Running) -> None:
    slack.backend.add(make_pr(42121), cached=False)
    response = await slack.event(
        {
            "type": "link_shared",
            "channel": "C1",
            "user": "U1",
            "message_ts": "1780000000.000100",
            "source": "conversations_history",
            "unfurl_id": "C1-1780000000.000100-abc",
            "links": [
                {"domain": "github.com", "url": PR_URL},
                {"domain": "github.com", "url": "https://github.com/someone/else/pull/1"},
                {"domain": "github.com", "url": f"https://github.com/{REPO}/issues/3"},
            ],
        }
    )
    assert response.status == 200
    await slack.bot.drain()
    [call] = slack.fake.unfurls
    assert list(call["unfurls"]) == [PR_URL]
    blocks = call["unfurls"][PR_URL]["blocks"]
    assert blocks and blocks[0]["type"] == "header"
    assert (call["unfurl_id"], call["source"]) == (
        "C1-1780000000.000100-abc",
        "conversations_history",
    )


async def test_link_to_missing_pr_is_not_unfurled(slack: Running) -> None:
    await slack.event(
        {
            "type": "link_shared",
            "channel": "C1",
            "user": "U1",
            "message_ts": "1.2",
            "links": [{"domain": "github.com", "url": f"https://github.com/{REPO}/pull/99999999"}],
        }
    )
    await slack.bot.drain()
    assert slack.fake.unfurls == []
    assert slack.backend.fetches == [(REPO, 99999999)]


# ---------------------------------------------------------------------------- new commands


async def test_version_is_acknowledged_then_answered(slack: Running) -> None:
    body = await (await slack.command("version")).json()
    assert body == {"response_type": "ephemeral", "text": "working on it…"}
    await slack.bot.drain()
    assert responses(slack.fake) == [
        {
            "response_type": "ephemeral",
            "text": "vllm-bot 0.1.0 · rule set vllm 3:abc123 · store schema 0004",
        }
    ]


async def test_module_digest_is_acknowledged_then_followed_up(slack: Running) -> None:
    body = await (await slack.command("digest rocm 2026-W23")).json()
    assert body == {"response_type": "ephemeral", "text": "building the 2026-W23 digest…"}
    await slack.bot.drain()
    assert slack.backend.digest_modules == [("rocm",)]
    summary, hint = responses(slack.fake)
    assert summary["blocks"] and "`/vllm digest 2026-W23 post`" in hint["text"]


async def test_replies_in_the_channel_language(
    fake_slack: FakeSlack, store: Store, poster: SlackPoster
) -> None:
    async with running_bot(fake_slack, store, poster, language="zh") as slack:
        ack = await (await slack.command("digest 2026-W23")).json()
        bad = await (await slack.command("subscibe moe", key="r2")).json()
        await slack.bot.drain()
    assert ack["text"] == "正在生成 2026-W23 周报…"
    assert bad["text"].splitlines()[0] == "未知命令 'subscibe'；是不是想输入 'subscribe'？"
    hint = responses(slack.fake)[-1]["text"]
    assert hint.startswith("……另有 7 条详细消息。`/vllm digest 2026-W23 post`")


async def test_digest_post_held_by_another_run_is_reported_incomplete(
    slack: Running, store: Store
) -> None:
    # Another live run (on another host, lease not run out) is posting part 2 of 8.
    document = digest_document("2026-W23")
    elsewhere = Owner("elsewhere", "another-host", 12345)
    await store.deliveries.record(document.id, "slack", "C1", 0, 8, "1.0", None)
    claim = await store.deliveries.claim(document.id, "slack", "C1", 1, 8, owner=elsewhere)
    assert claim.outcome is Outcome.NEW

    await slack.command("digest 2026-W23 post")
    await slack.bot.drain()

    # Nothing posted over the other run's claim, and the user is told it is not finished.
    assert slack.fake.channel_messages("C1") == []
    last = responses(slack.fake)[-1]
    assert last["response_type"] == "ephemeral"
    assert last["text"] == (
        "the 2026-W23 digest is not fully posted: 1 of 8 messages are in this channel, "
        "missing 2, 3, 4, 5, 6, 7, 8 (another run is posting message 2 right now); "
        "run the command again to finish"
    )
    assert "finished posting" not in last["text"]
