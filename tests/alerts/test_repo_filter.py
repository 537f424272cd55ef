"""`repo:OWNER/NAME` subscription filters: one module across an organisation or in one
repository only."""

from __future__ import annotations

from dataclasses import dataclass

from bot.alerts.filters import repo_filters
from bot.alerts.matching import MatchIndex, PRFacts
from bot.alerts.model import Subscription
from bot.filters import SubscriptionFilters
from bot.models import Analysis, ModuleMatch

from .conftest import make_pr
from .test_matching import CREATED


@dataclass(frozen=True, slots=True)
class RepoFilters(SubscriptionFilters):
    """The parser's filters with the repo fields the command layer stores."""

    repos: tuple[str, ...] = ()
    not_repos: tuple[str, ...] = ()


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
    ascend_only = _sub(2, RepoFilters(repos=("vllm-project/vllm-ascend",)))
    not_ascend = _sub(3, RepoFilters(not_repos=("vllm-project/VLLM-ascend",)))
    index = MatchIndex([everywhere, ascend_only, not_ascend])
    assert [s.id for s in index.match(_in("vllm-project/vllm-ascend"))] == [1, 2]
    assert [s.id for s in index.match(_in("vllm-project/vllm"))] == [1, 3]


def test_filters_without_repo_fields_have_none() -> None:
    assert repo_filters(SubscriptionFilters()) == (frozenset(), frozenset())
