"""The SubscriptionService the subscription use cases call."""

from __future__ import annotations

import pytest

from bot.alerts.subscriptions import SubscriptionService
from bot.analysis.catalogue import ModuleCatalogue
from bot.analysis.rules import load_ruleset
from bot.core.errors import InputError, UsageError
from bot.core.filters import SubscriptionFilters
from bot.core.settings import AlertChannel, AlertSettings

from .conftest import MODULES, Env


def service(env: Env, **values: object) -> SubscriptionService:
    return SubscriptionService(env.store, AlertSettings.model_validate(values), MODULES)


async def test_subscribe_list_and_ids(env: Env) -> None:
    filters = SubscriptionFilters(labels=("ready",), not_authors=("bot",), min_score=7.0)
    first = await env.subscribe("attention", "moe", filters=filters)
    second = await env.subscribe("scheduler", channel="C2")
    listed = await env.service.list(platform="slack", channel="C1")
    assert [(s.id, s.modules) for s in listed] == [(first.id, ("attention", "moe"))]
    assert listed[0].describe() == f"#{first.id}: attention, moe  label:ready -author:bot min:7"
    assert listed[0].created_by == "U1"
    assert second.id != first.id
    assert await env.service.list(platform="discord", channel="C1") == []


async def test_module_names_in_either_language_and_typos(env: Env) -> None:
    sub = await env.subscribe("Mixture of Experts", "注意力后端", "SPEC_DECODE")
    assert sub.modules == ("moe", "attention", "spec-decode")
    with pytest.raises(InputError) as caught:
        await env.subscribe("atention", "moe", "zzz")
    reason = str(caught.value)
    assert "unknown modules 'atention' (did you mean 'attention'?), 'zzz'" in reason
    assert "/vllm modules" in reason


async def test_real_ruleset_names_are_accepted(env: Env) -> None:
    catalogue = ModuleCatalogue.from_rulesets([load_ruleset("vllm")])
    assert catalogue.resolve("ROCm / AMD") == "rocm"
    assert catalogue.resolve("MoE 混合专家") == "moe"
    assert catalogue.suggestion("quantisation") == "quantization"


async def test_subscribing_twice_is_a_no_op(env: Env) -> None:
    first = await env.subscribe("attention", "moe")
    again = await env.subscribe("moe", "attention")
    assert again.id == first.id
    assert first.created and not again.created  # the reply can say "already subscribed"
    assert len(await env.service.list(platform="slack", channel="C1")) == 1


async def test_unsubscribe_by_id_module_and_all(env: Env) -> None:
    a = await env.subscribe("attention", "moe")
    b = await env.subscribe("moe")
    c = await env.subscribe("scheduler")
    other = await env.subscribe("scheduler", channel="C2")

    async def unsubscribe(target: str, kind: str, channel: str = "C1") -> int:
        return await env.service.unsubscribe(
            platform="slack", channel=channel, user="U1", target=target, kind=kind
        )

    # Another channel's id changes nothing here.
    assert await unsubscribe(other.id, "id") == 0
    # Dropping a module: single-module subscriptions go, others keep their id.
    assert await unsubscribe("Mixture of Experts", "module") == 2
    listed = await env.service.list(platform="slack", channel="C1")
    assert [(s.id, s.modules) for s in listed] == [(a.id, ("attention",)), (c.id, ("scheduler",))]
    assert b.id not in {s.id for s in listed}
    assert await unsubscribe(f"#{c.id}", "id") == 1
    with pytest.raises(InputError, match="did you mean 'attention'"):
        await unsubscribe("atention", "module")
    assert await unsubscribe("all", "all") == 1
    assert await env.service.list(platform="slack", channel="C1") == []
    assert len(await env.service.list(platform="slack", channel="C2")) == 1


async def test_ids_are_never_reused(env: Env) -> None:
    first = await env.subscribe("attention")
    await env.service.unsubscribe(
        platform="slack", channel="C1", user="U1", target="all", kind="all"
    )
    second = await env.subscribe("attention")
    assert int(second.id) > int(first.id)


async def test_admins_restrict_changes_but_not_listing(env: Env) -> None:
    svc = service(
        env,
        admins=["U-ADMIN", "discord:42"],
        channels=[AlertChannel(platform="slack", channel="OPEN", admins=[])],
    )
    with pytest.raises(UsageError, match="only this channel's alert admins"):
        await svc.subscribe(
            platform="slack", channel="C1", user="U-OTHER", modules=["moe"],
            filters=SubscriptionFilters(),
        )  # fmt: skip
    with pytest.raises(UsageError):
        await svc.unsubscribe(platform="slack", channel="C1", user=None, target="all", kind="all")
    ok = await svc.subscribe(
        platform="slack", channel="C1", user="U-ADMIN", modules=["moe"],
        filters=SubscriptionFilters(),
    )  # fmt: skip
    await svc.subscribe(
        platform="discord", channel="D1", user="42", modules=["moe"], filters=SubscriptionFilters()
    )
    # A channel may lift the restriction with an empty list of its own.
    await svc.subscribe(
        platform="slack", channel="OPEN", user="anyone", modules=["moe"],
        filters=SubscriptionFilters(),
    )  # fmt: skip
    assert [s.id for s in await svc.list(platform="slack", channel="C1")] == [ok.id]


async def test_by_default_anyone_may_change(env: Env) -> None:
    sub = await env.subscribe("moe", user=None)
    assert sub.created_by is None
