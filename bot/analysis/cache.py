"""Analyses kept in the store, so a warm digest of 10,000 PRs does not re-run every rule.

A cached analysis is valid for one PR version and one rule set: `store.prs.upsert` drops
the analyses of PRs it rewrites, and the key below changes whenever the rule set (or the
analysis code's version) does.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from sqlalchemy.exc import SQLAlchemyError

from bot.core.errors import StoreError, one_line
from bot.core.models import JSON, Analysis, Claim, Flag, ModuleMatch, PullRequest, ScoreContribution

if TYPE_CHECKING:
    from bot.analysis.analyzer import Analyzer

log = logging.getLogger(__name__)

# Bump when analysis code changes in a way that alters results for the same rule set.
# 2: module/kind/flag/claim fixes; flags and contributions carry reason keys and params.
# 3: kinds from titles (hand-labelled table), reason ids under "reason." in bot/core/i18n.py,
#    pure deletions are not missing tests.
# 4: claims tied to their metric (no bare figures, levels and layout comparisons without a
#    factor), breaking only with evidence, title signals in the score (branch prose).
# 5: claims from the author's prose only (no logs, code, tables, quotes), levels only with a
#    direction, ranges whole; title-only scores: a [Model] tag alone is no new model,
#    changed defaults and deprecations count (branch claims).
ANALYSIS_VERSION = "5"


@runtime_checkable
class AnalysisCache(Protocol):
    """`bot.store.analyses.AnalysisCache`, the store's `analyses`."""

    async def cached(self, repo: str, numbers: Sequence[int], key: str) -> dict[int, JSON]: ...

    async def save(self, repo: str, analyses: dict[int, JSON], key: str) -> None: ...


def analysis_key(analyzer: object) -> str | None:
    """Identifies the rule set's content; None for analyzers without one (test stubs)."""
    ruleset = getattr(analyzer, "ruleset", None)
    if ruleset is None or not hasattr(ruleset, "model_dump_json"):
        return None
    digest = hashlib.sha256(ruleset.model_dump_json().encode()).hexdigest()[:32]
    return f"{ANALYSIS_VERSION}:{digest}"


def to_dict(analysis: Analysis) -> JSON:
    return {
        "m": [[m.id, m.rule, m.lines] for m in analysis.modules],
        "k": analysis.kind,
        "kr": analysis.kind_reason,
        # A reason with a message key is kept as key and parameters only (models.Flag).
        "f": [[f.id, f.text, f.key, f.params] for f in analysis.flags],
        "s": analysis.score,
        "c": [[c.feature, c.points, c.text, c.key, c.params] for c in analysis.contributions],
        "cl": [[c.text, c.factor, c.metric] for c in analysis.claims],
    }


def from_dict(data: JSON) -> Analysis:
    return Analysis(
        modules=[ModuleMatch(*m) for m in data["m"]],
        kind=data["k"],
        kind_reason=data["kr"],
        flags=[Flag(*f) for f in data["f"]],
        score=data["s"],
        contributions=[ScoreContribution(*c) for c in data["c"]],
        claims=[Claim(*c) for c in data["cl"]],
    )


async def analyze_stored(
    store: object, analyzer: Analyzer, repo: str, prs: Sequence[PullRequest]
) -> list[Analysis]:
    """Analyses of `prs` (all from `repo`), from the store's cache where valid."""
    key = analysis_key(analyzer)
    # Stores without an analysis cache (test stubs) analyse every PR.
    cache = getattr(store, "analyses", None)
    if key is None or not isinstance(cache, AnalysisCache):
        return [analyzer.analyze(pr) for pr in prs]
    cached = await cache.cached(repo, [pr.number for pr in prs], key)
    results: list[Analysis] = []
    fresh: dict[int, JSON] = {}
    for pr in prs:
        data = cached.get(pr.number)
        if data is not None:
            results.append(from_dict(data))
            continue
        analysis = analyzer.analyze(pr)
        fresh[pr.number] = to_dict(analysis)
        results.append(analysis)
    if fresh:
        try:
            await cache.save(repo, fresh, key)
        except (StoreError, SQLAlchemyError) as exc:
            # A cache: a read-only store (or a locked one) still answers, just slower next time.
            log.info("analysis cache not saved (%s)", one_line(str(exc), 120))
    return results
