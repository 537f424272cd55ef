"""Posting through the real slack_sdk client against the fake Slack Web API on loopback."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.slack.poster import SlackPostError, SlackUnavailable
from bot.store import Store
from formatters.slack import render_slack
from tests.commands.fakes import digest_document
from tests.fakes.slack import FakeSlack, VirtualClock
from tests.slack.conftest import make_poster

DOC = "digest:vllm-project/vllm:2026-W23:en"


def simple_payloads(n: int) -> list[dict]:
    return [
        {
            "text": f"part {i + 1} of {n}",
            "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": f"*part {i + 1}*"}}],
        }
        for i in range(n)
    ]


def assert_threaded_in_order(fake: FakeSlack, channel: str, texts: list[str]) -> None:
    messages = fake.channel_messages(channel)
    assert [m.text for m in messages] == texts
    root = messages[0]
    assert root.thread_ts is None
    assert all(m.thread_ts == root.ts for m in messages[1:])


def assert_paced(fake: FakeSlack, channel: str) -> None:
    times = [m.at for m in fake.channel_messages(channel)]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(gap >= 1.0 for gap in gaps), gaps


async def test_full_digest_posts_completely_in_order_threaded_and_paced(
    fake_slack: FakeSlack, clock: VirtualClock, poster, store: Store
) -> None:
    payloads = render_slack(digest_document("2026-W23", sections=6))
    assert len(payloads) >= 4  # a digest big enough to need a thread
    start = clock.now
    result = await poster.post_document(
        store.deliveries, document_id=DOC, channel="C1", payloads=payloads
    )
    assert result.sent == list(range(len(payloads))) and result.complete
    assert_threaded_in_order(fake_slack, "C1", [p["text"] for p in payloads])
    # Every message passed the fake's Block Kit validation, and blocks arrived intact.
    assert fake_slack.rejections == []
    assert [m.blocks for m in fake_slack.messages] == [p["blocks"] for p in payloads]
    assert_paced(fake_slack, "C1")
    # Paced, not stalled: n messages take about n-1 seconds.
    assert clock.now - start < len(payloads)
    assert result.root_id == fake_slack.messages[0].ts


async def test_pacing_is_per_channel(fake_slack: FakeSlack, clock: VirtualClock, poster) -> None:
    await poster.post_message("C1", simple_payloads(1)[0])
    before = clock.now
    await poster.post_message("C2", simple_payloads(1)[0])  # another channel: no wait
    assert clock.now == before
    await poster.post_message("C1", simple_payloads(1)[0])  # same channel: waits its second
    assert clock.now - before >= 1.0
    assert_paced(fake_slack, "C1")


async def test_429_waits_retry_after_and_continues(
    fake_slack: FakeSlack, clock: VirtualClock, poster, store: Store
) -> None:
    fake_slack.fail("chat.postMessage", ("pass", 0), ("429", 7), ("429", 2))
    payloads = simple_payloads(4)
    result = await poster.post_document(
        store.deliveries, document_id=DOC, channel="C1", payloads=payloads
    )
    assert result.complete
    assert_threaded_in_order(fake_slack, "C1", [p["text"] for p in payloads])
    limited = [r for r in fake_slack.rejections if r.status == 429]
    assert len(limited) == 2
    second = fake_slack.channel_messages("C1")[1]
    assert second.at - limited[0].at >= 7 + 2  # waited both Retry-After values, then posted
    # slack_sdk's handler waits Retry-After plus up to a second of jitter.
    assert any(7 <= s < 8 for s in clock.sleeps) and any(2 <= s < 3 for s in clock.sleeps)
    assert_paced(fake_slack, "C1")


async def test_transient_errors_are_retried_with_backoff(
    fake_slack: FakeSlack, clock: VirtualClock, poster
) -> None:
    fake_slack.fail("chat.postMessage", ("5xx", 503), ("drop", 0), ("5xx", 500))
    await poster.post_message("C1", simple_payloads(1)[0])
    assert len(fake_slack.messages) == 1
    assert fake_slack.calls.count("chat.postMessage") == 4
    # Exponential backoff (1 s, 2 s, 4 s) plus up to a second of jitter.
    assert len(clock.sleeps) == 3
    assert all(2**i <= s < 2**i + 1 for i, s in enumerate(clock.sleeps)), clock.sleeps


@pytest.mark.parametrize(
    ("bound", "failure", "message"),
    [
        ("max_retries", ("5xx", 500), r"Slack is unavailable \(HTTP 500\)"),
        ("max_rate_limit_waits", ("429", 1), r"kept rate limiting chat\.postMessage in C1"),
    ],
)
async def test_retries_are_bounded(
    fake_slack: FakeSlack,
    clock: VirtualClock,
    bound: str,
    failure: tuple[str, float],
    message: str,
) -> None:
    poster = make_poster(fake_slack, clock, **{bound: 2})
    fake_slack.fail("chat.postMessage", *[failure] * 5)
    with pytest.raises(SlackUnavailable, match=message):
        await poster.post_message("C1", simple_payloads(1)[0])
    assert fake_slack.calls.count("chat.postMessage") == 3  # the first try and 2 retries
    assert fake_slack.messages == []


async def test_a_transient_slack_error_fails_the_post_for_a_rerun(
    fake_slack: FakeSlack, clock: VirtualClock, poster
) -> None:
    # An HTTP 200 with ok:false internal_error: slack_sdk does not retry it; it is not the
    # user's fault either, so it is transient (a re-run resumes) rather than a fix-it error.
    fake_slack.fail("chat.postMessage", ("error", "internal_error"))
    with pytest.raises(SlackUnavailable, match="internal_error"):
        await poster.post_message("C1", simple_payloads(1)[0])
    assert fake_slack.calls.count("chat.postMessage") == 1
    assert clock.sleeps == []


async def test_crash_after_part_3_of_6_resumes_at_part_4(
    fake_slack: FakeSlack, clock: VirtualClock, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'ledger.sqlite3'}"
    payloads = simple_payloads(6)
    fake_slack.fail("chat.postMessage", ("pass", 0), ("pass", 0), ("pass", 0), ("drop", 0))
    async with await Store.open(url) as store:
        poster = make_poster(fake_slack, clock, max_retries=0)
        with pytest.raises(SlackUnavailable):
            await poster.post_document(
                store.deliveries, document_id=DOC, channel="C1", payloads=payloads
            )
        assert sorted(await store.deliveries.sent(DOC, "slack", "C1")) == [0, 1, 2]
    assert len(fake_slack.messages) == 3
    # A new process: new store connection, new client, nothing in memory.
    async with await Store.open(url) as store:
        result = await make_poster(fake_slack, clock).post_document(
            store.deliveries, document_id=DOC, channel="C1", payloads=payloads
        )
    assert result.skipped == [0, 1, 2] and result.sent == [3, 4, 5]
    assert_threaded_in_order(fake_slack, "C1", [p["text"] for p in payloads])


async def test_second_run_posts_nothing_and_force_posts_again(
    fake_slack: FakeSlack, poster, store: Store
) -> None:
    payloads = simple_payloads(3)
    first = await poster.post_document(
        store.deliveries, document_id=DOC, channel="C1", payloads=payloads
    )
    calls = len(fake_slack.calls)
    again = await poster.post_document(
        store.deliveries, document_id=DOC, channel="C1", payloads=payloads
    )
    assert again.nothing_new and again.skipped == [0, 1, 2]
    assert again.root_id == first.root_id
    assert len(fake_slack.calls) == calls  # not even one API call
    assert "already posted" in again.summary_line()
    # Another channel is a separate delivery.
    other = await poster.post_document(
        store.deliveries, document_id=DOC, channel="C2", payloads=payloads
    )
    assert other.sent == [0, 1, 2]
    forced = await poster.post_document(
        store.deliveries, document_id=DOC, channel="C1", payloads=payloads, force=True
    )
    assert forced.sent == [0, 1, 2] and forced.root_id != first.root_id
    c1 = fake_slack.channel_messages("C1")
    assert len(c1) == 6
    assert all(m.thread_ts == forced.root_id for m in c1[4:])


@pytest.mark.parametrize(
    ("channel", "token", "error", "words"),
    [
        (
            "CNOPE",
            None,
            "channel_not_found",
            ["Slack channel CNOPE was not found", "/invite @vllm-bot"],
        ),
        ("CPRIV", None, "not_in_channel", ["not in Slack channel CPRIV", "/invite @vllm-bot"]),
        ("C1", "xoxb-wrong", "invalid_auth", ["SLACK_BOT_TOKEN", "reinstall"]),
    ],
)
async def test_permanent_errors_stop_with_the_fix(
    fake_slack: FakeSlack,
    clock: VirtualClock,
    store: Store,
    channel: str,
    token: str | None,
    error: str,
    words: list[str],
) -> None:
    fake_slack.channels["CPRIV"] = False
    poster = make_poster(fake_slack, clock, token=token)
    with pytest.raises(SlackPostError) as info:
        await poster.post_document(
            store.deliveries, document_id=DOC, channel=channel, payloads=simple_payloads(3)
        )
    assert info.value.error == error and info.value.channel == channel
    for word in words:
        assert word in str(info.value)
    assert fake_slack.calls.count("chat.postMessage") == 1  # no retry of a permanent error
    assert clock.sleeps == []
    assert await store.deliveries.sent(DOC, "slack", channel) == {}


async def test_fake_enforces_block_kit_limits(fake_slack: FakeSlack, poster) -> None:
    too_many = {
        "text": "x",
        "blocks": [{"type": "divider"}] * 51,
    }
    long_header = {
        "text": "x",
        "blocks": [{"type": "header", "text": {"type": "plain_text", "text": "h" * 151}}],
    }
    duplicate_ids = {
        "text": "x",
        "blocks": [{"type": "divider", "block_id": "a"}, {"type": "divider", "block_id": "a"}],
    }
    huge = {
        "text": "x",
        "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": "y" * 2900}} for _ in range(5)
        ],
    }
    for payload, error in (
        (too_many, "invalid_blocks"),
        (long_header, "invalid_blocks"),
        (duplicate_ids, "invalid_blocks"),
        (huge, "msg_blocks_too_long"),
    ):
        with pytest.raises(SlackPostError) as info:
            await poster.post_message("C1", payload)
        assert info.value.error == error
        assert "bot bug" in str(info.value)
    # slack_sdk itself warns about a missing fallback; the fake refuses it.
    with pytest.warns(UserWarning, match="text"), pytest.raises(SlackPostError, match="no_text"):
        await poster.post_message("C1", {"blocks": [{"type": "divider"}]})
    assert fake_slack.messages == []


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_real_digest_posts_within_slack_limits(
    fake_slack: FakeSlack, poster, store: Store, language: str
) -> None:
    # The digest engineers' synthetic week, through the real digest document and formatter.
    from bot.digest.document import digest_document as real_digest_document
    from tests.digest.helpers import fixture_digest

    document = real_digest_document(fixture_digest(), language)
    payloads = render_slack(document)
    result = await poster.post_document(
        store.deliveries, document_id=document.id, channel="C1", payloads=payloads
    )
    assert result.complete and result.sent == list(range(len(payloads)))
    assert fake_slack.rejections == []
    assert_threaded_in_order(fake_slack, "C1", [p["text"] for p in payloads])
    assert_paced(fake_slack, "C1")
