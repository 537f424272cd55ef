"""A bad `/vllm subscribe` is answered in the channel's language, through the real
SubscriptionService (its refusals are catalogue messages, not English text)."""

from __future__ import annotations

import dataclasses

from bot.alerts.subscriptions import SubscriptionService
from bot.commands import handle
from bot.commands.context import Context
from bot.core.settings import AlertSettings
from tests.commands.fakes import context

from .conftest import MODULES, Env


def channel(service: SubscriptionService, language: str | None = None) -> Context:
    return dataclasses.replace(context(language=language), subscriptions=service)


async def test_weekly_with_a_filter_is_refused_in_chinese(env: Env) -> None:
    reply = await handle("subscribe moe label:ready weekly", channel(env.service, "zh"))
    assert not reply.ok
    first, usage = reply.text.splitlines()
    assert first.startswith("每周订阅只接受模块和 `lang:`，不接受 label:ready"), first
    assert usage.startswith("用法：/vllm subscribe")
    assert await env.service.list(platform="slack", channel="C1") == []


async def test_the_same_refusal_in_an_english_channel_is_english(env: Env) -> None:
    reply = await handle("subscribe moe label:ready weekly", channel(env.service))
    assert reply.text.startswith("a weekly subscription takes modules and lang: only, not ")


async def test_a_non_admin_is_refused_in_chinese_without_a_usage_line(env: Env) -> None:
    settings = AlertSettings.model_validate({"admins": ["U-admin"]})
    service = SubscriptionService(env.store, settings, MODULES)
    reply = await handle("subscribe moe", channel(service, "zh"))
    assert not reply.ok
    assert reply.text == (
        "只有本频道的提醒管理员可以修改订阅（见机器人配置中的 `alerts.admins`）；请联系其中一位"
    )


async def test_a_week_in_the_future_is_answered_in_chinese() -> None:
    # bot.core.weeks refuses it (not the parser): its error reaches chat as id + params.
    reply = await handle("digest 2099-W01", context(language="zh"))
    assert not reply.ok
    first, usage = reply.text.splitlines()
    assert (
        first == "2099-W01 周尚未到来（开始于 2098-12-29）；请使用 `this`、`last` 或更早的 `ISO` 周"
    )
    assert usage.startswith("用法：/vllm digest")
