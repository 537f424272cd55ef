"""`repo:OWNER/NAME` subscription filters: one module across an organisation or in one
repository only."""

from __future__ import annotations

from bot.alerts.filters import repo_filters
from bot.alerts.matching import MatchIndex, PRFacts
from bot.alerts.model import Subscription
from bot.core.filters import SubscriptionFilters
from bot.core.models import Analysis, ModuleMatch

from .conftest import make_pr
from .test_matching import CREATED


def _sub(sid: int, filters: SubscriptionFilters) -> Subscription:
    return Subscription(
        id=sid,
        platform="slack",
        channel="C1",
        modules=("rocm",),
        filters=filters,
        created_at=CREATED,
    )


def _in(repo: str) -> PRFacts:
    pr = make_pr(1, ("rocm",))
    pr.repo = repo
    analysis = Analysis(
        modules=[ModuleMatch("rocm", "")],
        kind="feature",
        kind_reason="",
        flags=[],
        score=5.0,
        contributions=[],
        claims=[],
    )
    return PRFacts.of(pr, analysis)


def test_repo_filter_keeps_one_repository_and_none_means_all() -> None:
    everywhere = _sub(1, SubscriptionFilters())
    ascend_only = _sub(2, SubscriptionFilters(repos=("vllm-project/vllm-ascend",)))
    not_ascend = _sub(3, SubscriptionFilters(not_repos=("vllm-project/VLLM-ascend",)))
    index = MatchIndex([everywhere, ascend_only, not_ascend])
    assert [s.id for s in index.match(_in("vllm-project/vllm-ascend"))] == [1, 2]
    assert [s.id for s in index.match(_in("vllm-project/vllm"))] == [1, 3]


def test_filters_without_repo_fields_have_none() -> None:
    assert repo_filters(SubscriptionFilters()) == (frozenset(), frozenset())


def test_a_pr_merged_in_the_second_a_subscription_was_made_is_matched() -> None:
    from dataclasses import replace
    from datetime import timedelta

    # GitHub's merge times are whole seconds; a subscription's creation time is not.
    created = CREATED.replace(microsecond=0) + timedelta(microseconds=600_000)
    sub = replace(_sub(1, SubscriptionFilters()), created_at=created)
    older = replace(_sub(2, SubscriptionFilters()), created_at=CREATED - timedelta(days=1))
    pr = _in("vllm-project/vllm")
    pr = replace(pr, merged_at=created.replace(microsecond=0))
    assert [s.id for s in MatchIndex([older, sub]).match(pr)] == [1, 2]
    # A PR merged the second before is still history for it.
    earlier = replace(pr, merged_at=created.replace(microsecond=0) - timedelta(seconds=1))
    assert [s.id for s in MatchIndex([older, sub]).match(earlier)] == [2]
