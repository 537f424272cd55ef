"""Filters and the match index: each filter on its own, and the index agreeing with a
plain scan of every subscription on random data."""

from __future__ import annotations

import fnmatch
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.alerts.filters import filters_from_json, filters_to_json
from bot.alerts.matching import MatchIndex, PRFacts
from bot.alerts.model import Subscription
from bot.commands.registry import parse
from bot.commands.syntax import CommandError
from bot.core.filters import SubscriptionFilters
from bot.core.models import Analysis, Flag, ModuleMatch

from .conftest import T0, make_pr

CREATED = T0 - timedelta(hours=1)


def sub(sid: int, *modules: str, **filters: object) -> Subscription:
    return Subscription(
        id=sid,
        platform="slack",
        channel="C1",
        modules=modules or ("attention",),
        filters=SubscriptionFilters(**filters),  # type: ignore[arg-type]
        created_at=CREATED,
    )


def facts(
    number: int = 1,
    modules: tuple[str, ...] = ("attention",),
    *,
    author: str = "alice",
    labels: tuple[str, ...] = (),
    files: tuple[str, ...] | None = ("vllm/attention/layer.py",),
    score: float = 5.0,
    flags: tuple[str, ...] = (),
) -> PRFacts:
    pr = make_pr(number, modules, author=author, labels=labels, files=files)
    analysis = Analysis(
        modules=[ModuleMatch(m, "") for m in modules],
        kind="feature",
        kind_reason="",
        flags=[Flag(f, "") for f in flags],
        score=score,
        contributions=[],
        claims=[],
    )
    return PRFacts.of(pr, analysis)


def ids(index: MatchIndex, pr: PRFacts) -> list[int]:
    return [s.id for s in index.match(pr)]


def test_module_is_required_and_any_listed_module_matches() -> None:
    index = MatchIndex([sub(1, "attention"), sub(2, "moe", "scheduler"), sub(3, "docs")])
    assert ids(index, facts(modules=("scheduler",))) == [2]
    assert ids(index, facts(modules=("attention", "moe"))) == [1, 2]
    assert ids(index, facts(modules=())) == []


def test_label_and_negated_label() -> None:
    index = MatchIndex(
        [sub(1, labels=("ready",)), sub(2, not_labels=("wip",)), sub(3, labels=("a", "b"))]
    )
    assert ids(index, facts(labels=("Ready",))) == [1, 2]  # labels ignore case
    assert ids(index, facts(labels=("ready", "WIP"))) == [1]
    assert ids(index, facts(labels=("b",))) == [2, 3]  # values of one filter: any of them


def test_author_and_negated_author() -> None:
    index = MatchIndex(
        [
            sub(1, authors=("Alice",)),
            sub(2, not_authors=("dependabot[bot]",)),
            sub(3, authors=("bob", "alice"), labels=("ready",)),
        ]
    )
    assert ids(index, facts(author="alice")) == [1, 2]
    assert ids(index, facts(author="alice", labels=("ready",))) == [1, 2, 3]
    assert ids(index, facts(author="dependabot[bot]")) == []


def test_min_score() -> None:
    index = MatchIndex([sub(1, min_score=7.0)])
    assert ids(index, facts(score=7.0)) == [1]
    assert ids(index, facts(score=6.9)) == []


def test_flag_and_negated_flag() -> None:
    index = MatchIndex([sub(1, flags=("core-path",)), sub(2, not_flags=("revert",))])
    assert ids(index, facts(flags=("core-path", "large"))) == [1, 2]
    assert ids(index, facts(flags=("revert",))) == []


def test_path_glob_directory_regex_and_negation() -> None:
    index = MatchIndex(
        [
            sub(1, paths=("vllm/attention/**",)),
            sub(2, paths=("vllm/attention",)),  # no wildcard: that directory and below
            sub(3, paths=("*.py",)),  # root-anchored: `*` stays in one directory
            sub(4, paths=("re:layer\\.py$",)),
            sub(5, not_paths=("docs/**",)),
            sub(6, paths=("vllm/attn",)),  # a prefix of a name is not a directory
        ]
    )
    assert ids(index, facts(files=("vllm/attention/layer.py",))) == [1, 2, 4, 5]
    assert ids(index, facts(files=("setup.py", "docs/x.md"))) == [3]


def test_unknown_file_list_never_satisfies_a_path_filter_nor_excludes() -> None:
    index = MatchIndex([sub(1, paths=("vllm/**",)), sub(2, not_paths=("docs/**",))])
    assert ids(index, facts(files=None)) == [2]


def test_filters_combine_with_and() -> None:
    index = MatchIndex(
        [sub(1, labels=("ready",), authors=("alice",), min_score=6.0, flags=("core-path",))]
    )
    base = {"labels": ("ready",), "author": "alice", "score": 6.5, "flags": ("core-path",)}
    assert ids(index, facts(**base)) == [1]  # type: ignore[arg-type]
    for broken in ({"labels": ()}, {"author": "bob"}, {"score": 5.0}, {"flags": ()}):
        assert ids(index, facts(**(base | broken))) == []  # type: ignore[arg-type]


def test_other_repository_and_earlier_merges_do_not_match() -> None:
    scoped = Subscription(
        7, "slack", "C1", ("attention",), SubscriptionFilters(), CREATED, repo="other/repo"
    )
    index = MatchIndex([scoped, sub(8)])
    assert ids(index, facts()) == [8]
    early = facts()
    early.merged_at = CREATED - timedelta(seconds=1)
    assert ids(index, early) == []


def test_filters_survive_storage() -> None:
    filters = SubscriptionFilters(
        labels=("ready",), not_authors=("bot",), paths=("vllm/**",), min_score=7.5, language="zh"
    )
    assert filters_from_json(filters_to_json(filters)) == filters
    # A row written by a newer version with an unknown key still loads.
    assert filters_from_json('{"labels": ["x"], "someday": 1}') == SubscriptionFilters(
        labels=("x",)
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("subscribe attention min:11", "'min:11' is out of range; scores run from 0 to 10"),
        ("subscribe attention min:high", "'min:high' is not a number"),
        ("subscribe attention -min:3", "'min:' cannot be negated"),
        ("subscribe attention flag:core-pth", "unknown flag 'core-pth'; did you mean 'core-path'?"),
        ("subscribe attention lable:x", "unknown filter 'lable:'; did you mean 'label"),
        ("subscribe attention label:x -label:x", "'label:x' is both required and excluded"),
        ("subscribe attention path:vllm/[ab", "unbalanced brackets in 'path:vllm/[ab'"),
        ("subscribe attention path:re:(", "bad regular expression in 'path:re:('"),
        ("subscribe label:ready", "which modules?"),
        ("subscribe -attention", "only filters can be negated"),
    ],
)
def test_filter_errors_are_one_clear_line_with_usage(text: str, message: str) -> None:
    # The parser is the command layer's; the alerts reuse it rather than keep a second one.
    with pytest.raises(CommandError) as caught:
        parse(text)
    assert message in caught.value.reason
    assert str(caught.value).endswith(caught.value.usage)


# ------------------------------------------------------------------ index == scan

MODS = ("attention", "moe", "scheduler", "docs")
AUTHORS = ("alice", "bob", "carol")
LABELS = ("ready", "wip", "perf")
FLAGS = ("core-path", "large", "revert")
PATHS = ("vllm/attention/**", "docs", "*.py", "re:moe")


def _pick(values: tuple[str, ...]) -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(st.sampled_from(values), max_size=2, unique=True).map(tuple)


subscriptions = st.builds(
    lambda mods, la, nla, au, nau, pa, npa, fl, nfl, mn: (
        mods,
        SubscriptionFilters(la, nla, au, nau, pa, npa, fl, nfl, mn),
    ),
    st.lists(st.sampled_from(MODS), min_size=1, max_size=2, unique=True).map(tuple),
    *(_pick(v) for v in (LABELS, LABELS, AUTHORS, AUTHORS, PATHS, PATHS, FLAGS, FLAGS)),
    st.one_of(st.none(), st.sampled_from([3.0, 5.0, 7.0])),
)
prs = st.builds(
    lambda mods, author, labels, files, flags, score: facts(
        1, mods, author=author, labels=labels, files=files, flags=flags, score=score
    ),
    _pick(MODS),
    st.sampled_from(AUTHORS),
    _pick(LABELS),
    st.one_of(
        st.none(),
        st.lists(
            st.sampled_from(["vllm/attention/a.py", "docs/x.md", "setup.py", "csrc/moe/k.cu"]),
            max_size=3,
        ).map(tuple),
    ),
    _pick(FLAGS),
    st.sampled_from([2.0, 5.0, 8.0]),
)


def _glob(pattern: str, path: str) -> bool:
    if pattern.startswith("re:"):
        import re

        return re.search(pattern[3:], path) is not None
    if "*" not in pattern:
        return path == pattern or path.startswith(pattern + "/")
    if pattern.endswith("/**"):
        return path.startswith(pattern[:-2])
    return "/" not in path and fnmatch.fnmatch(path, pattern)


def _scan(pairs, pr: PRFacts) -> list[int]:
    """The naive reference: every subscription checked against every filter."""
    found = []
    for sid, (mods, f) in enumerate(pairs):
        labels = pr.labels
        checks = [
            bool(set(mods) & set(pr.modules)),
            not f.labels or bool(set(f.labels) & labels),
            not set(f.not_labels) & labels,
            not f.authors or pr.author in f.authors,
            pr.author not in f.not_authors,
            not f.flags or bool(set(f.flags) & pr.flags),
            not set(f.not_flags) & pr.flags,
            f.min_score is None or pr.score >= f.min_score,
            not f.paths or (pr.files_known and any(_glob(p, x) for p in f.paths for x in pr.paths)),
            not (pr.files_known and any(_glob(p, x) for p in f.not_paths for x in pr.paths)),
        ]
        if all(checks):
            found.append(sid)
    return found


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(subscriptions, max_size=25), st.lists(prs, min_size=1, max_size=5))
def test_index_agrees_with_a_scan_of_every_subscription(pairs, pr_list) -> None:
    index = MatchIndex(
        Subscription(i, "slack", "C1", mods, f, CREATED) for i, (mods, f) in enumerate(pairs)
    )
    for pr in pr_list:
        assert ids(index, pr) == _scan(pairs, pr)


def test_index_only_looks_at_candidates_of_the_prs_modules() -> None:
    subs = [sub(i, "moe") for i in range(1000)] + [sub(1000, "attention")]
    index = MatchIndex(subs)
    simple, checked = index._candidates(facts(modules=("attention",)))
    assert list(simple) + list(checked) == [1000]
