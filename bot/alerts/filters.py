"""Subscription filters: storage and evaluation.

The filters are `bot.core.filters.SubscriptionFilters`; parsing lives in the command layer (the
`/vllm subscribe` parser, whose errors users see); this module only stores those filters
as JSON and compiles them into predicates, so there is exactly one parser.

Semantics (docs/alerts.md): different filters combine with AND; several values of one
filter are alternatives (`author:a author:b` is "by a or b"); a negated filter excludes the
PR when any of its values matches. Labels and authors compare case-insensitively (GitHub
treats both that way).
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields

from bot.analysis.paths import REGEX_PREFIX, PatternSet
from bot.core.filters import SubscriptionFilters
from bot.core.models import JSON

__all__ = [
    "SubscriptionFilters",
    "compile_paths",
    "filters_from_json",
    "filters_to_json",
    "repo_filters",
]

_GLOB_CHARS = frozenset("*?[")


def filters_to_json(filters: SubscriptionFilters) -> str:
    data = {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(filters).items()}
    return json.dumps({k: v for k, v in data.items() if v not in ((), [], None)}, sort_keys=True)


def filters_from_json(text: str | None) -> SubscriptionFilters:
    """Unknown keys are dropped: a row written by a newer version still loads."""
    data: JSON = json.loads(text) if text else {}
    known = {f.name for f in fields(SubscriptionFilters)}
    values: JSON = {
        k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in known
    }
    return SubscriptionFilters(**values)


def _expand(pattern: str) -> list[str]:
    # `path:vllm/attention` without wildcards means the directory (or file) and everything
    # below it, which is what people type; patterns with wildcards are root-anchored globs
    # exactly as in module rules (bot.analysis.paths).
    if pattern.startswith(REGEX_PREFIX) or _GLOB_CHARS & set(pattern) or pattern.endswith("/"):
        return [pattern]
    bare = pattern.strip("/")
    return [bare, bare + "/**"]


def compile_paths(patterns: tuple[str, ...]) -> PatternSet | None:
    if not patterns:
        return None
    return PatternSet.compile([p for pattern in patterns for p in _expand(pattern)])


def repo_filters(filters: SubscriptionFilters) -> tuple[frozenset[str], frozenset[str]]:
    """The `repo:OWNER/NAME` and `-repo:OWNER/NAME` values of a subscription, lower-cased
    (GitHub names are case-insensitive). They let one channel follow `rocm` across an
    organisation (no repo filter) or in one repository only.
    """
    return (
        frozenset(r.lower() for r in filters.repos),
        frozenset(r.lower() for r in filters.not_repos),
    )
