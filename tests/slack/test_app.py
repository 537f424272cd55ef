"""The real slack-bolt AsyncApp in HTTP mode behind aiohttp on loopback, with the fake Slack."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from importlib import metadata

import pytest

from bot.analysis.cache import ANALYSIS_VERSION
from bot.core.document import Document
from bot.core.tasks import Admission
from bot.core.weeks import parse_week
from bot.slack.poster import SlackPoster
from bot.store.ledger import Outcome, Owner
from bot.usecases.digest import DigestScope
from formatters.slack import render_slack
from tests.commands.fakes import NOW, REPO, make_pr
from tests.fakes.backend import Bench, seed_week
from tests.fakes.slack import FakeSlack
from tests.slack.helpers import Running, running_bot, stalled

PR_URL = f"https://github.com/{REPO}/pull/42121"


@pytest.fixture
async def slack(fake_slack: FakeSlack, bench: Bench, poster: SlackPoster) -> AsyncIterator[Running]:
    async with running_bot(fake_slack, bench, poster) as running:
        yield running


def responses(fake: FakeSlack, key: str = "r1") -> list[dict]:
    return [body for k, body in fake.responses if k == key]


async def test_a_cached_pr_is_acknowledged_at_once_and_the_card_follows(slack: Running) -> None:
    await slack.bench.add(make_pr(42121), cached=True)
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
    assert slack.bench.github.requests() == []


async def test_the_ack_never_waits_on_the_store(
    fake_slack: FakeSlack, bench: Bench, poster: SlackPoster
) -> None:
    backend, ctx = stalled(bench)
    await bench.add(make_pr(42121), cached=True)
    async with running_bot(fake_slack, bench, poster, context=ctx) as slack:
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
    fake_slack: FakeSlack, bench: Bench, poster: SlackPoster
) -> None:
    backend, ctx = stalled(bench)
    for number in (1, 2, 3):
        await bench.add(make_pr(number), cached=True)
    async with running_bot(fake_slack, bench, poster, context=ctx) as slack:
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


async def test_one_users_flood_does_not_hold_up_the_next_users_card(
    fake_slack: FakeSlack, bench: Bench, poster: SlackPoster
) -> None:
    # One worker. U1 sends five lookups GitHub must answer, the first held there; then U2
    # asks for a card the store holds. Served first come, first served, U2 waited for all
    # of U1's; round-robin, U2 is next once the running lookup ends.
    for number in range(1, 6):
        await bench.add(make_pr(number), cached=False)
    await bench.add(make_pr(42121), cached=True)
    github = bench.github.hold()
    async with running_bot(fake_slack, bench, poster) as slack:
        slack.bot.admission = Admission(1, 10)
        for number in range(1, 6):
            await slack.command(f"pr {number}", key=f"flood{number}", user="U1")
        assert await asyncio.to_thread(github.reached.wait, 10)
        ack = await slack.command("pr 42121", key="neighbour", user="U2")
        assert (await ack.json())["text"] == "looking up #42121…"
        github.release()
        await slack.bot.drain()
    answered = [key for key, _ in fake_slack.responses]
    assert answered == ["flood1", "neighbour", "flood2", "flood3", "flood4", "flood5"]
    assert responses(fake_slack, "neighbour")[0]["text"].startswith("PR #42121: ")


async def test_a_user_with_five_commands_pending_is_told_to_wait_and_no_one_else(
    fake_slack: FakeSlack, bench: Bench, poster: SlackPoster
) -> None:
    backend, ctx = stalled(bench)
    for number in range(1, 8):
        await bench.add(make_pr(number), cached=True)
    async with running_bot(fake_slack, bench, poster, context=ctx) as slack:
        acks = [
            await (await slack.command(f"pr {n}", key=f"r{n}", user="U1")).json()
            for n in range(1, 7)
        ]
        other = await (await slack.command("pr 7", key="r7", user="U2")).json()
        backend.go.set()
        await slack.bot.drain()
        assert [a["text"] for a in acks[:5]] == [f"looking up #{n}…" for n in range(1, 6)]
        assert acks[5] == {
            "response_type": "ephemeral",
            "text": "you have 5 commands waiting for their answers already; try again once "
            "one is answered",
        }
        assert other["text"] == "looking up #7…"
        assert [len(responses(fake_slack, f"r{n}")) for n in range(1, 8)] == [1] * 5 + [0, 1]
        # Answered: the same user is let in again.
        again = await slack.command("pr 6", key="again", user="U1")
        assert (await again.json())["text"] == "looking up #6…"


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
    await slack.bench.add(make_pr(42121), cached=True)
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
    await slack.bench.add(make_pr(42121), cached=False)
    github = slack.bench.github.hold()  # GitHub has not answered yet
    response = await slack.command("pr 42121")
    assert response.status == 200
    assert await response.json() == {"response_type": "ephemeral", "text": "looking up #42121…"}
    assert await asyncio.to_thread(github.reached.wait, 10)
    assert slack.bench.fetches() == [(REPO, 42121)]  # the fetch is in flight, after the ack
    assert slack.fake.responses == []
    github.release()
    await slack.bot.drain()
    [card] = responses(slack.fake)
    assert card["response_type"] == "ephemeral"
    assert card["text"].startswith("PR #42121: ") and card["blocks"]


async def test_github_down_is_try_again_never_a_traceback(slack: Running) -> None:
    slack.bench.github.inject(status=502)
    response = await slack.command("pr 7")
    assert (await response.json())["text"] == "looking up #7…"
    await slack.bot.drain()
    assert responses(slack.fake) == [
        {
            "response_type": "ephemeral",
            "text": "GitHub is unavailable, try again in a minute "
            "(GitHub unavailable after 1 attempts: GitHub answered 502 Bad Gateway)",
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


async def week_parts(bench: Bench, language: str = "en") -> tuple[Document, int]:
    """The 2026-W23 digest the bot builds, and how many Slack messages it takes."""
    window = parse_week("2026-W23", bench.app.config.tz, now=NOW)
    document = await bench.backend.digest(DigestScope(REPO, ()), window, language)
    return document, len(render_slack(document))


async def test_digest_post_posts_in_the_channel_once(slack: Running) -> None:
    seed_week(slack.bench)
    response = await slack.command("digest 2026-W23 post")
    assert (await response.json())["text"] == (
        "building the 2026-W23 digest to post it in this channel…"
    )
    await slack.bot.drain()
    messages = slack.fake.channel_messages("C1")
    parts = len(messages)
    assert parts > 1 and messages[0].thread_ts is None
    assert all(m.thread_ts == messages[0].ts for m in messages[1:])
    assert responses(slack.fake)[-1]["text"] == (
        f"posted the 2026-W23 digest in this channel ({parts} messages, details in its thread)"
    )
    # Typed again: nothing new is posted.
    await slack.command("digest 2026-W23 post", key="r2")
    await slack.bot.drain()
    assert len(slack.fake.channel_messages("C1")) == parts
    assert responses(slack.fake, "r2")[-1]["text"].endswith(
        "already posted in this channel; nothing new to post"
    )


async def test_digest_post_where_the_bot_is_not_invited(slack: Running) -> None:
    seed_week(slack.bench)
    slack.fake.channels["CPRIV"] = False
    await slack.command("digest last post", channel="CPRIV")
    await slack.bot.drain()
    [answer] = responses(slack.fake)
    assert answer["text"] == (
        "the bot is not in Slack channel CPRIV: invite it with /invite @vllm-bot in that channel"
    )


async def test_slacks_refusal_is_told_in_the_channel_language(
    fake_slack: FakeSlack, bench: Bench, poster: SlackPoster
) -> None:
    seed_week(bench)
    fake_slack.channels["CPRIV"] = False
    async with running_bot(fake_slack, bench, poster, language="zh") as slack:
        await slack.command("digest last post", channel="CPRIV")
        await slack.bot.drain()
    [answer] = responses(fake_slack)
    assert answer["text"] == (
        "机器人不在 `Slack` 频道 CPRIV 中：请在该频道用 `/invite @vllm-bot` 邀请它"
    )


async def test_digest_preview_is_the_summary_plus_a_hint(slack: Running) -> None:
    seed_week(slack.bench)
    await slack.command("digest 2026-W23")
    await slack.bot.drain()
    summary, hint = responses(slack.fake)
    assert summary["response_type"] == "ephemeral" and summary["blocks"]
    _, parts = await week_parts(slack.bench)
    assert parts > 1
    assert hint["text"] == (
        f"…and {parts - 1} more messages of details. `/vllm digest 2026-W23 post` posts the "
        "whole digest in this channel."
    )
    assert slack.fake.messages == []  # nothing posted in the channel


async def test_subscribe_confirmation_is_visible_in_the_channel(
    fake_slack: FakeSlack, bench: Bench, poster: SlackPoster
) -> None:
    async with running_bot(fake_slack, bench, poster, subscriptions=True) as slack:
        response = await slack.command("subscribe attention min:7")
        assert (await response.json())["response_type"] == "ephemeral"
        await slack.bot.drain()
    assert responses(fake_slack) == [
        {"response_type": "in_channel", "text": "subscribed this channel: #1: attention  min:7"}
    ]


async def test_link_shared_unfurls_watched_pr_links_only(slack: Running) -> None:
    await slack.bench.add(make_pr(42121), cached=False)
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
    assert slack.bench.fetches() == [(REPO, 42121)]  # the other links were never looked up


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
    assert slack.bench.fetches() == [(REPO, 99999999)]


# ---------------------------------------------------------------------------- new commands


async def test_version_is_acknowledged_then_answered(slack: Running) -> None:
    body = await (await slack.command("version")).json()
    assert body == {"response_type": "ephemeral", "text": "working on it…"}
    await slack.bot.drain()
    [answer] = responses(slack.fake)
    assert answer["response_type"] == "ephemeral"
    assert re.fullmatch(
        rf"vllm-bot {re.escape(metadata.version('vllm-bot'))} · rule set vllm "
        rf"{ANALYSIS_VERSION}:[0-9a-f]{{8}} · store schema \d{{4}}",
        answer["text"],
    ), answer["text"]


async def test_module_digest_is_acknowledged_then_followed_up(slack: Running) -> None:
    await slack.bench.add(
        make_pr(31000, title="[ROCm] Enable AITER fused MoE on MI300"), cached=False
    )
    await slack.bench.add(make_pr(31001, title="[Docs] Fix a typo in the quickstart"), cached=False)
    body = await (await slack.command("digest rocm 2026-W23")).json()
    assert body == {"response_type": "ephemeral", "text": "building the 2026-W23 digest…"}
    await slack.bot.drain()
    answers = responses(slack.fake)
    assert answers[0]["blocks"] and "`/vllm digest 2026-W23 post`" in answers[-1]["text"]
    shown = str(answers)
    assert "31000" in shown and "31001" not in shown  # the module's PRs only


async def test_replies_in_the_channel_language(
    fake_slack: FakeSlack, bench: Bench, poster: SlackPoster
) -> None:
    seed_week(bench)
    async with running_bot(fake_slack, bench, poster, language="zh") as slack:
        ack = await (await slack.command("digest 2026-W23")).json()
        bad = await (await slack.command("subscibe moe", key="r2")).json()
        await slack.bot.drain()
    assert ack["text"] == "正在生成 2026-W23 周报…"
    assert bad["text"].splitlines()[0] == "未知命令 'subscibe'；是不是想输入 'subscribe'？"
    _, parts = await week_parts(bench, "zh")
    hint = responses(slack.fake)[-1]["text"]
    assert hint.startswith(f"……另有 {parts - 1} 条详细消息。`/vllm digest 2026-W23 post`")


async def test_digest_post_held_by_another_run_is_reported_incomplete(slack: Running) -> None:
    seed_week(slack.bench)
    document, parts = await week_parts(slack.bench)
    assert parts >= 3
    # Another live run (on another host, lease not run out) is posting part 2.
    deliveries = slack.bench.store.deliveries
    elsewhere = Owner("elsewhere", "another-host", 12345)
    await deliveries.record(document.id, "slack", "C1", 0, parts, "1.0", None)
    claim = await deliveries.claim(document.id, "slack", "C1", 1, parts, owner=elsewhere)
    assert claim.outcome is Outcome.NEW

    await slack.command("digest 2026-W23 post")
    await slack.bot.drain()

    # Nothing posted over the other run's claim, and the user is told it is not finished.
    assert slack.fake.channel_messages("C1") == []
    last = responses(slack.fake)[-1]
    assert last["response_type"] == "ephemeral"
    missing = ", ".join(str(n) for n in range(2, parts + 1))
    assert last["text"] == (
        f"the 2026-W23 digest is not fully posted: 1 of {parts} messages are in this channel, "
        f"missing {missing} (another run is posting message 2 right now); "
        "run the command again to finish"
    )
    assert "finished posting" not in last["text"]
