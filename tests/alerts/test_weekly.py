"""Weekly module subscriptions (`/vllm subscribe rocm weekly`): stored with their mode, listed
as weekly, and never alerted per PR (the scheduler posts their module digest instead)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.alerts.matching import MatchIndex, PRFacts
from bot.alerts.repository import Outbox, Subscriptions
from bot.core.errors import InputError
from bot.core.filters import SubscriptionFilters

from .conftest import T0, Env, make_pr


async def _weekly(env: Env, *modules: str, channel: str = "C1", **filters: object):
    return await env.service.subscribe(
        platform="slack",
        channel=channel,
        user="U1",
        modules=list(modules),
        filters=SubscriptionFilters(**filters),  # type: ignore[arg-type]
        weekly=True,
    )


async def test_a_weekly_subscription_gets_no_per_pr_alerts(env: Env) -> None:
    await _weekly(env, "attention")
    await env.subscribe("attention", channel="C2")  # an alert subscription elsewhere
    await env.pipeline.submit([make_pr(1), make_pr(2)], source="poll")
    env.clock.advance(minutes=5)
    await env.pipeline.submit([make_pr(3)], source="webhook")
    env.clock.advance(minutes=5)
    await env.pipeline.flush()
    assert {channel for _, channel, _ in env.outbox.sent} == {"C2"}
    assert sorted(n for numbers in env.outbox.numbers() for n in numbers) == [1, 2, 3]
    assert await Outbox(env.store).held(channel="C1") == []


async def test_weekly_is_stored_listed_and_kept_apart_from_alerts(env: Env) -> None:
    weekly = await _weekly(env, "attention", "moe")
    assert weekly.weekly and weekly.created
    again = await _weekly(env, "moe", "attention")
    assert again.id == weekly.id and not again.created
    alert = await env.subscribe("attention", "moe")
    assert alert.id != weekly.id and not alert.weekly  # per-PR alerts are another request
    listed = await env.service.list(platform="slack", channel="C1")
    assert [(s.id, s.weekly) for s in listed] == [(weekly.id, True), (alert.id, False)]
    stored = await Subscriptions(env.store).find("slack", "C1")
    assert [s.weekly for s in stored] == [True, False]


async def test_weekly_takes_a_language_but_no_pr_filters(env: Env) -> None:
    chinese = await _weekly(env, "attention", language="zh")
    assert chinese.weekly and chinese.filters.language == "zh"
    with pytest.raises(InputError) as caught:
        await _weekly(env, "attention", authors=("alice",), min_score=7.0)
    reason = str(caught.value)
    assert "weekly subscription takes modules and lang: only" in reason
    assert "author:alice min:7" in reason
    with pytest.raises(InputError, match="unknown module 'atention'"):
        await _weekly(env, "atention")


def test_the_match_index_leaves_weekly_subscriptions_out() -> None:
    from bot.alerts.model import Subscription

    subs = [
        Subscription(1, "slack", "C1", ("attention",), SubscriptionFilters(), T0, weekly=True),
        Subscription(2, "slack", "C2", ("attention",), SubscriptionFilters(), T0),
    ]
    index = MatchIndex(subs)
    pr = make_pr(1, merged_at=T0 + timedelta(minutes=1))
    analysis = type("A", (), {"module_ids": ["attention"], "flag_ids": [], "score": 5.0})()
    assert [s.id for s in index.match(PRFacts.of(pr, analysis))] == [2]  # type: ignore[arg-type]
    assert len(index) == 1


async def test_the_migration_keeps_existing_subscriptions_as_alerts(tmp_path: Path) -> None:
    from bot.store import Store
    from tests.fakes.databases import database_at

    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    await database_at(
        url,
        "0004",
        "INSERT INTO subscriptions (platform, channel, modules, filters, created_at, "
        "updated_at) VALUES ('slack', 'C1', '[\"rocm\"]', '{}', '2026-06-01 00:00:00', "
        "'2026-06-01 00:00:00')",
    )

    async with await Store.open(url) as store:  # upgrades to head
        db = Subscriptions(store)
        (old,) = await db.find()
        assert old.modules == ("rocm",) and not old.weekly
        added = await db.add(
            platform="slack",
            channel="C1",
            modules=["rocm"],
            filters=SubscriptionFilters(),
            created_by=None,
            now=T0,
            weekly=True,
        )
        assert added.weekly and added.id > old.id
        assert [s.weekly for s in await db.find()] == [False, True]
