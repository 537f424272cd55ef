"""Which subscriptions want a PR: an inverted index, then the remaining filters.

Every subscription names at least one module, so the index never has to fall back to a
scan. Each subscription is filed under its most selective positive constraints:

- with `author:` filters: under (module, author) for each pair;
- else with `label:` filters: under (module, label) for each pair;
- else: under (module).

A PR probes (module), (module, its author) and (module, each label) for its modules, so a
lookup touches only subscriptions that already agree on module and, where they ask for it,
author or label. Negations, path globs, minimum score and flags are checked afterwards on
that short candidate list. Matching is pure and synchronous: the index is rebuilt when the
subscriptions change, not per PR.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from bot.alerts.filters import compile_paths, repo_filters
from bot.alerts.model import Subscription
from bot.analysis.paths import PatternSet
from bot.core.models import Analysis, PullRequest


@dataclass(slots=True)
class PRFacts:
    """What matching reads from a PR and its analysis, normalised once per PR."""

    repo: str
    number: int
    modules: tuple[str, ...]
    author: str | None
    labels: frozenset[str]
    flags: frozenset[str]
    score: float
    paths: tuple[str, ...]
    files_known: bool
    merged_at: datetime | None
    # Path-filter results by pattern set: many subscriptions share the same `path:` filter.
    _path_hits: dict[int, bool] = field(default_factory=dict)

    @classmethod
    def of(cls, pr: PullRequest, analysis: Analysis) -> PRFacts:
        return cls(
            repo=pr.repo,
            number=pr.number,
            modules=tuple(dict.fromkeys(analysis.module_ids)),
            author=pr.author.lower() if pr.author else None,
            labels=frozenset(label.lower() for label in pr.labels),
            flags=frozenset(analysis.flag_ids),
            score=analysis.score,
            paths=tuple(f.path for f in pr.files),
            files_known=pr.files_known,
            merged_at=pr.merged_at,
        )

    def touches(self, patterns: PatternSet) -> bool:
        key = id(patterns)
        hit = self._path_hits.get(key)
        if hit is None:
            hit = any(patterns.matches(p) for p in self.paths)
            self._path_hits[key] = hit
        return hit


class _Compiled:
    """One subscription's filters, pre-normalised for the post-index check."""

    __slots__ = (
        "authors",
        "flags",
        "labels",
        "min_score",
        "not_authors",
        "not_flags",
        "not_labels",
        "not_paths",
        "not_repos",
        "paths",
        "repo",
        "repos",
        "simple",
        "sub",
    )

    def __init__(self, sub: Subscription, patterns: dict[tuple[str, ...], PatternSet | None]):
        f = sub.filters
        self.sub = sub
        self.repo = sub.repo.lower() if sub.repo else None
        self.repos, self.not_repos = repo_filters(f)
        self.labels = frozenset(v.lower() for v in f.labels)
        self.not_labels = frozenset(v.lower() for v in f.not_labels)
        self.authors = frozenset(v.lower() for v in f.authors)
        self.not_authors = frozenset(v.lower() for v in f.not_authors)
        self.flags = frozenset(f.flags)
        self.not_flags = frozenset(f.not_flags)
        self.min_score = f.min_score
        self.paths = _shared(patterns, f.paths)
        self.not_paths = _shared(patterns, f.not_paths)
        # The index already guarantees module agreement, and author or label agreement for
        # the key the subscription is filed under; only a label filter next to an author
        # filter is left to check.
        self.simple = not (
            (self.labels and self.authors)
            or self.not_labels
            or self.not_authors
            or self.flags
            or self.not_flags
            or self.min_score is not None
            or self.paths
            or self.not_paths
            or sub.repo
            or self.repos
            or self.not_repos
        )

    def accepts(self, pr: PRFacts) -> bool:
        """The filters the index did not decide. The merge-after-creation rule is
        applied by `MatchIndex.match` for all candidates at once."""
        repo = pr.repo.lower()
        if self.repo is not None and self.repo != repo:
            return False
        if (self.repos and repo not in self.repos) or repo in self.not_repos:
            return False
        if self.simple:
            return True
        author = pr.author
        if self.authors and author not in self.authors:
            return False
        if self.not_authors and author in self.not_authors:
            return False
        labels = pr.labels
        if self.labels and not (self.labels & labels):
            return False
        if self.not_labels and self.not_labels & labels:
            return False
        if self.flags and not (self.flags & pr.flags):
            return False
        if self.not_flags and self.not_flags & pr.flags:
            return False
        if self.min_score is not None and pr.score < self.min_score:
            return False
        if self.paths is not None and not (pr.files_known and pr.touches(self.paths)):
            return False  # an unknown file list cannot show the PR touches the path
        return not (self.not_paths is not None and pr.files_known and pr.touches(self.not_paths))


def _shared(
    cache: dict[tuple[str, ...], PatternSet | None], patterns: tuple[str, ...]
) -> PatternSet | None:
    if not patterns:
        return None
    key = tuple(sorted(patterns))
    if key not in cache:
        cache[key] = compile_paths(key)
    return cache[key]


_Bucket = dict[int, _Compiled]


class MatchIndex:
    """Built once from all subscriptions; `match` is then cheap per PR.

    Buckets are dicts keyed by subscription id, so collecting a PR's candidates (and
    dropping duplicates of subscriptions filed under several keys) is a handful of C-level
    `dict.update` calls. Subscriptions whose filters the index fully decides ("simple")
    live apart from the rest and are taken wholesale, without a per-subscription check.
    """

    def __init__(self, subscriptions: Iterable[Subscription]) -> None:
        # key -> (simple bucket, checked bucket); keys: module, (module, author),
        # (module, label).
        self._buckets: dict[object, tuple[_Bucket, _Bucket]] = {}
        patterns: dict[tuple[str, ...], PatternSet | None] = {}
        self.size = 0
        self._newest: datetime | None = None
        for sub in subscriptions:
            if sub.weekly or sub.releases:
                # A weekly module digest (the scheduler's) or release notes, not PR alerts.
                continue
            compiled = _Compiled(sub, patterns)
            self.size += 1
            if self._newest is None or sub.created_at > self._newest:
                self._newest = sub.created_at
            for key in self._keys(sub, compiled):
                simple, checked = self._buckets.setdefault(key, ({}, {}))
                (simple if compiled.simple else checked)[sub.id] = compiled

    @staticmethod
    def _keys(sub: Subscription, compiled: _Compiled) -> Iterable[object]:
        for module in sub.modules:
            if compiled.authors:
                for author in compiled.authors:
                    yield (module, "author", author)
            elif compiled.labels:
                for label in compiled.labels:
                    yield (module, "label", label)
            else:
                yield module

    def __len__(self) -> int:
        return self.size

    def _probe(self, pr: PRFacts) -> Iterable[object]:
        for module in pr.modules:
            yield module
            if pr.author is not None:
                yield (module, "author", pr.author)
            for label in pr.labels:
                yield (module, "label", label)

    def _candidates(self, pr: PRFacts) -> tuple[_Bucket, _Bucket]:
        simple: _Bucket = {}
        checked: _Bucket = {}
        for key in self._probe(pr):
            found = self._buckets.get(key)
            if found is not None:
                simple.update(found[0])
                checked.update(found[1])
        return simple, checked

    def match(self, pr: PRFacts) -> list[Subscription]:
        """Subscriptions that want the PR, each once, in subscription-id order."""
        simple, checked = self._candidates(pr)
        merged = pr.merged_at
        if merged is not None and self._newest is not None and merged < self._newest:
            # Rare: the PR merged before some subscription existed. Those never hear about
            # it (poll overlaps and redeliveries would otherwise alert history).
            simple = {i: c for i, c in simple.items() if merged >= _second(c.sub.created_at)}
            checked = {i: c for i, c in checked.items() if merged >= _second(c.sub.created_at)}
        for sub_id, compiled in checked.items():
            if compiled.accepts(pr):
                simple[sub_id] = compiled
        return [simple[i].sub for i in sorted(simple)]


def _second(at: datetime) -> datetime:
    """GitHub's merge times are whole seconds: a PR merged in the second a subscription was
    made, after it, must not count as history for it."""
    return at.replace(microsecond=0)
