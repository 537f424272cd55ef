"""The pipeline end to end on a real SQLite store: dedupe, batching, quiet hours,
restarts, failures and concurrent senders."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.alerts.pipeline import AlertPipeline
from bot.alerts.render import BotCards
from bot.alerts.repository import AlertSends, AlertStore, Outbox
from bot.core.filters import SubscriptionFilters
from bot.core.settings import AlertChannel
from bot.store import Store
from bot.store.ledger import Owner
from tests.fakes.processes import gone_owner

from .conftest import T0, Env, card_kind, make_pr


async def test_matching_pr_is_alerted_once_with_a_compact_card(env: Env) -> None:
    await env.subscribe("attention")
    env.analyzer.flags[1] = ["core-path"]
    result = await env.pipeline.submit([make_pr(1)], source="poll")
    assert (result.matched, result.queued) == (1, 1)
    assert env.outbox.numbers() == [[1]]
    platform, channel, doc = env.outbox.sent[0]
    assert (platform, channel) == ("slack", "C1")
    shown = repr(doc)
    for part in ("change 1", "alice", "attention", "Core-path change", "5.0", "/pull/1"):
        assert part in shown
    await env.pipeline.submit([make_pr(1)], source="poll")
    assert len(env.outbox.sent) == 1


async def test_unrelated_module_is_not_alerted(env: Env) -> None:
    await env.subscribe("moe")
    await env.pipeline.submit([make_pr(1, ["attention"])], source="poll")
    assert env.outbox.sent == []


async def test_poller_then_webhook_and_webhook_then_poller_alert_once(env: Env) -> None:
    await env.subscribe("attention")
    await env.pipeline.submit([make_pr(1)], source="poll")
    await env.pipeline.submit([make_pr(1)], source="webhook")
    env.clock.advance(minutes=2)
    await env.pipeline.flush()
    # The other order: the webhook queues, the poll arrives inside the batch window.
    await env.pipeline.submit([make_pr(2)], source="webhook")
    assert env.outbox.numbers() == [[1]]  # 2 waits for its batch window
    await env.pipeline.submit([make_pr(2)], source="poll")
    env.clock.advance(minutes=2)
    await env.pipeline.flush()
    assert env.outbox.numbers() == [[1], [2]]


async def test_more_than_batch_after_in_one_poll_is_one_batched_message(env: Env) -> None:
    await env.subscribe("attention")
    await env.subscribe("moe", channel="C2")
    prs = [make_pr(n) for n in range(1, 7)] + [make_pr(n, ["moe"]) for n in range(10, 15)]
    await env.pipeline.submit(prs, source="poll")
    by_channel = {c: env.outbox.numbers()[i] for i, (_p, c, _d) in enumerate(env.outbox.sent)}
    c1 = [doc for _p, c, doc in env.outbox.sent if c == "C1"]
    assert len(c1) == 1 and card_kind(c1[0]) == "alert-batch"
    assert by_channel["C1"] == [1, 2, 3, 4, 5, 6]
    # Exactly batch_after (5) is not "more than": five single cards.
    c2 = [doc for _p, c, doc in env.outbox.sent if c == "C2"]
    assert [card_kind(d) for d in c2] == ["alert"] * 5


async def test_webhook_burst_within_a_minute_is_batched(env: Env) -> None:
    await env.subscribe("attention")
    for n in range(1, 7):
        await env.pipeline.submit([make_pr(n)], source="webhook")
        env.clock.advance(seconds=8)
    assert env.outbox.sent == []
    env.clock.advance(seconds=20)  # 68 s after the first: the window has closed
    await env.pipeline.flush()
    assert env.outbox.numbers() == [[1, 2, 3, 4, 5, 6]]
    # A later merge opens a new window and, alone, is a normal card.
    env.clock.advance(minutes=5)
    await env.pipeline.submit([make_pr(7)], source="webhook")
    env.clock.advance(seconds=61)
    await env.pipeline.flush()
    assert env.outbox.numbers()[-1] == [7]
    assert card_kind(env.outbox.sent[-1][2]) == "alert"


async def test_quiet_hours_hold_then_release(env: Env) -> None:
    quiet = AlertChannel(platform="slack", channel="C1", quiet_hours="22:00-08:00")
    pipeline = env.new_pipeline(channels=[quiet])
    await env.subscribe("attention")
    await env.subscribe("attention", channel="C2")  # no quiet hours there
    env.clock.now = datetime(2026, 6, 1, 23, 30, tzinfo=UTC)
    merged = env.clock.now - timedelta(minutes=1)
    result = await pipeline.submit([make_pr(1, merged_at=merged)], source="poll")
    assert result.queued == 2
    assert [c for _p, c, _d in env.outbox.sent] == ["C2"]
    held = await Outbox(env.store).held()
    assert [(h.channel, h.reason, h.release_at) for h in held] == [
        ("C1", "quiet", datetime(2026, 6, 2, 8, 0, tzinfo=UTC))
    ]
    env.clock.now = datetime(2026, 6, 2, 7, 59, tzinfo=UTC)
    await pipeline.flush()
    assert len(env.outbox.sent) == 1
    env.clock.now = datetime(2026, 6, 2, 8, 0, tzinfo=UTC)
    await pipeline.flush()
    assert [
        (c, n) for (_p, c, _d), n in zip(env.outbox.sent, env.outbox.numbers(), strict=True)
    ] == [
        ("C2", [1]),
        ("C1", [1]),
    ]
    assert await Outbox(env.store).held() == []


async def test_quiet_hours_respect_the_channel_timezone() -> None:
    quiet = AlertChannel(
        platform="slack", channel="C1", quiet_hours="22:00-08:00", timezone="Asia/Shanghai"
    )
    # 15:00 UTC is 23:00 in Shanghai: quiet until 08:00 Shanghai = 00:00 UTC.
    assert quiet.quiet_until(T0.replace(hour=15), "UTC") == datetime(2026, 6, 2, 0, 0, tzinfo=UTC)
    assert quiet.quiet_until(T0.replace(hour=1), "UTC") is None  # 09:00 in Shanghai
    daytime = AlertChannel(platform="slack", channel="C1", quiet_hours="12:00-13:30")
    assert daytime.quiet_until(T0.replace(hour=12, minute=10), "UTC") == T0.replace(
        hour=13, minute=30
    )
    assert daytime.quiet_until(T0.replace(hour=13, minute=30), "UTC") is None


async def test_unsubscribing_during_quiet_hours_cancels_held_alerts(env: Env) -> None:
    quiet = AlertChannel(platform="slack", channel="C1", quiet_hours="22:00-08:00")
    pipeline = env.new_pipeline(channels=[quiet])
    await env.subscribe("attention")
    env.clock.now = datetime(2026, 6, 1, 23, 0, tzinfo=UTC)
    await pipeline.submit([make_pr(1, merged_at=env.clock.now)], source="poll")
    await env.service.unsubscribe(
        platform="slack", channel="C1", user="U1", target="attention", kind="module"
    )
    env.clock.now = datetime(2026, 6, 2, 8, 0, tzinfo=UTC)
    await pipeline.flush()
    assert env.outbox.sent == []
    assert await Outbox(env.store).held() == []


async def test_restart_does_not_realert(env: Env) -> None:
    await env.subscribe("attention")
    await env.pipeline.submit([make_pr(1)], source="poll")
    await env.store.close()
    reopened = await Store.open(env.url)
    try:
        fresh = env.new_pipeline(store=reopened)
        result = await fresh.submit([make_pr(1)], source="poll")
        await fresh.submit([make_pr(1)], source="webhook")
        env.clock.advance(minutes=5)
        await fresh.flush()
        assert result.queued == 0
        assert env.outbox.numbers() == [[1]]
    finally:
        await reopened.close()
        env.store = await Store.open(env.url)  # the fixture closes it


async def test_alerts_held_at_shutdown_go_out_after_restart(env: Env) -> None:
    await env.subscribe("attention")
    await env.pipeline.submit([make_pr(1)], source="webhook")  # waiting for its window
    env.analyzer.calls = 0
    fresh = env.new_pipeline()  # no in-memory state: the PR comes back from the store
    env.clock.advance(minutes=2)
    await fresh.flush()
    assert env.outbox.numbers() == [[1]]
    assert env.analyzer.calls == 1


async def test_failed_send_is_retried_and_not_duplicated(env: Env) -> None:
    await env.subscribe("attention")
    env.outbox.fail = True
    result = await env.pipeline.submit([make_pr(1)], source="poll")
    assert result.queued == 1 and env.outbox.sent == []
    # The claim was released: the ledger holds nothing for the PR, the outbox still does.
    db = AlertStore(env.store)
    handled = await db.sends.handled([1], make_pr(1).repo, 1, now=T0, lease=timedelta(hours=1))
    assert handled == set()
    [held] = await db.outbox.held()
    assert (held.reason, held.attempts) == ("retry", 1)
    env.outbox.fail = False
    await env.pipeline.submit([make_pr(1)], source="poll")  # the poll sees it again
    assert env.outbox.sent == []  # not before the retry time
    env.clock.advance(minutes=1)
    await env.pipeline.flush()
    await env.pipeline.flush()
    assert env.outbox.numbers() == [[1]]


async def test_two_pipelines_flushing_the_same_alert_send_it_once(env: Env) -> None:
    await env.subscribe("attention")
    await env.pipeline.submit([make_pr(1)], source="webhook")
    other = env.new_pipeline()
    env.clock.advance(minutes=2)
    await asyncio.gather(env.pipeline.flush(), other.flush())
    assert env.outbox.numbers() == [[1]]


async def test_a_claim_left_by_a_crash_on_another_host_is_taken_over_after_the_lease(
    env: Env,
) -> None:
    sub = await env.subscribe("attention")
    db = AlertSends(env.store)
    pr = make_pr(1)
    crashed = await db.claim(
        sub_ids=[int(sub.id)], repo=pr.repo, number=1, platform="slack", channel="C1",
        owner=Owner("crashed", "another-host", 4242), now=env.clock(),
        lease=timedelta(minutes=10),
    )  # fmt: skip
    assert crashed == [int(sub.id)]
    await env.pipeline.submit([pr], source="poll")
    assert env.outbox.sent == []  # the claim is live: someone may be sending right now
    env.clock.advance(minutes=11)
    await env.pipeline.submit([pr], source="poll")  # queued again by the next poll
    assert env.outbox.numbers() == [[1]]


async def test_a_claim_of_a_dead_process_on_this_host_is_taken_over_at_once(env: Env) -> None:
    sub = await env.subscribe("attention")
    db = AlertSends(env.store)
    pr = make_pr(1)
    gone = gone_owner()
    crashed = await db.claim(
        sub_ids=[int(sub.id)], repo=pr.repo, number=1, platform="slack", channel="C1",
        owner=gone, now=env.clock(),
    )  # fmt: skip
    assert crashed == [int(sub.id)]
    await env.pipeline.submit([pr], source="poll")
    assert env.outbox.numbers() == [[1]]


async def test_an_alert_whose_delivery_is_incomplete_is_retried_not_marked_sent(
    env: Env,
) -> None:
    from bot.delivery import DeliveryResult

    await env.subscribe("attention")
    sent: list[str] = []

    async def busy_once(platform: str, channel: str, document: object) -> DeliveryResult:
        sent.append(channel)
        result = DeliveryResult("doc", platform, channel, parts=2, skipped=[0])
        if len(sent) == 1:
            result.busy_part = 1  # another live run holds part 2
        else:
            result.skipped = [0, 1]
        return result

    pipeline = env.new_pipeline()
    pipeline.sender = busy_once
    await pipeline.submit([make_pr(1)], source="poll")
    assert await Outbox(env.store).held() != []  # not sent: still in the outbox
    env.clock.advance(hours=1)
    await pipeline.flush()
    assert len(sent) == 2 and await Outbox(env.store).held() == []


async def test_two_matching_subscriptions_of_one_channel_give_one_alert(env: Env) -> None:
    await env.subscribe("attention")
    await env.subscribe("moe", filters=SubscriptionFilters(authors=("alice",)))
    await env.pipeline.submit([make_pr(1, ["attention", "moe"])], source="poll")
    assert env.outbox.numbers() == [[1]]


async def test_old_merges_and_merges_before_the_subscription_are_not_alerted(env: Env) -> None:
    await env.subscribe("attention")  # created at T0 - 1 h
    before = make_pr(1, merged_at=T0 - timedelta(hours=2))
    result = await env.pipeline.submit([before], source="poll")
    assert env.outbox.sent == [] and result.matched == 0
    stale = env.new_pipeline(max_age_hours=0.5)
    result = await stale.submit([make_pr(2, merged_at=T0 - timedelta(minutes=45))], source="poll")
    assert result.skipped == 1 and env.outbox.sent == []


async def test_subscription_language_picks_the_card_language(env: Env) -> None:
    await env.subscribe("attention", filters=SubscriptionFilters(language="zh"))
    await env.pipeline.submit([make_pr(1)], source="poll")
    assert env.outbox.sent[0][2].title.startswith("PR #1：")


async def test_unmerged_prs_are_ignored(env: Env) -> None:
    await env.subscribe("attention")
    pr = make_pr(1)
    pr.state, pr.merged_at = "closed", None
    result = await env.pipeline.submit([pr], source="webhook")
    assert result.skipped == 1 and await Outbox(env.store).held() == []


async def test_run_flushes_until_stopped(env: Env) -> None:
    await env.subscribe("attention")
    await env.pipeline.submit([make_pr(1)], source="webhook")
    env.clock.advance(minutes=2)
    stop = asyncio.Event()
    task = asyncio.create_task(env.pipeline.run(stop, tick=0.01))
    for _ in range(500):  # waits for the effect; the bound only stops a hung test
        if env.outbox.sent:
            break
        await asyncio.sleep(0.01)
    stop.set()
    await asyncio.wait_for(task, 5)
    assert env.outbox.numbers() == [[1]]


async def test_pipeline_reads_subscriptions_changed_by_another_process(env: Env) -> None:
    other: AlertPipeline = env.new_pipeline()
    await other.index()  # cached while empty
    await env.subscribe("attention")  # the service notifies env.pipeline, not `other`
    await other.submit([make_pr(1)], source="poll")
    assert env.outbox.numbers() == [[1]]


async def test_the_bot_cards_render_alerts_and_batches(env: Env) -> None:
    pipeline = AlertPipeline(
        env.store, env.settings.model_copy(update={"batch_after": 1}),
        analyzer_for=lambda repo: env.analyzer, sender=env.outbox, clock=env.clock,
        cards=BotCards(),
    )  # fmt: skip
    await env.subscribe("attention")
    await pipeline.submit([make_pr(1)], source="poll")
    await pipeline.submit([make_pr(2), make_pr(3)], source="poll")
    docs = [doc for _p, _c, doc in env.outbox.sent]
    assert [d.title for d in docs] == [
        "PR #1: [attention] change 1",
        "2 new PRs match your subscriptions",
    ]
    assert "change 2" in repr(docs[1]) and "change 3" in repr(docs[1])
