"""Importance score 0..10 from weighted, explainable features; key-PR selection."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from bot.models import AnalyzedPR, Claim, Flag, ModuleMatch, PullRequest, ScoreContribution

from .claims import best_claim
from .files import pr_lines
from .kinds import TRIVIAL_RE
from .rules import ModuleRule, RuleSet

MAX_SCORE = 10.0


def _fmt_int(n: int) -> str:
    return f"{n:,}"


def _fmt_factor(f: float) -> str:
    return f"{f:.1f}x" if f < 10 else f"{f:.0f}x"


def score_pr(
    pr: PullRequest,
    ruleset: RuleSet,
    modules: Sequence[ModuleMatch],
    kind: str,
    flags: Sequence[Flag],
    claims: Sequence[Claim],
) -> tuple[float, list[ScoreContribution]]:
    """Return (score rounded to one decimal, contributions sorted by points desc)."""
    return Scorer(ruleset).score(pr, modules, kind, flags, claims)


class Scorer:
    """Score computation with the rule set's lookups prepared once."""

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self.rule_by_id: dict[str, ModuleRule] = {m.id: m for m in ruleset.modules}
        self.label_pts = {label.lower(): pts for label, pts in ruleset.score.labels.items()}

    def score(
        self,
        pr: PullRequest,
        modules: Sequence[ModuleMatch],
        kind: str,
        flags: Sequence[Flag],
        claims: Sequence[Claim],
    ) -> tuple[float, list[ScoreContribution]]:
        return _score(self, pr, modules, kind, flags, claims)


def _score(
    sc: Scorer,
    pr: PullRequest,
    modules: Sequence[ModuleMatch],
    kind: str,
    flags: Sequence[Flag],
    claims: Sequence[Claim],
) -> tuple[float, list[ScoreContribution]]:
    ruleset = sc.ruleset
    w = ruleset.score.weights
    s = ruleset.score
    out: list[ScoreContribution] = []
    flag_by_id = {f.id: f for f in flags}

    core = flag_by_id.get("core-path")
    if core and w.core_path:
        out.append(ScoreContribution("core-path", w.core_path, core.reason))

    lines = pr_lines(pr)
    if lines > 0 and w.size:
        # Log scale: the 10th line matters more than the 1,000th.
        frac = min(1.0, math.log10(1 + lines) / math.log10(1 + w.size_saturation_lines))
        out.append(ScoreContribution("size", w.size * frac, f"{_fmt_int(lines)} lines changed"))

    rule_by_id = sc.rule_by_id
    regular = [m.id for m in modules if m.id in rule_by_id and not rule_by_id[m.id].auxiliary]
    if regular and w.module:
        best = max(regular, key=lambda mid: (rule_by_id[mid].weight, -regular.index(mid)))
        pts = w.module * rule_by_id[best].weight
        if pts:
            out.append(ScoreContribution("module", pts, f"in {rule_by_id[best].name_en}"))
    if len(regular) > 1 and w.breadth_per_module:
        pts = min(w.breadth_max, w.breadth_per_module * (len(regular) - 1))
        out.append(
            ScoreContribution(
                "breadth", pts, f"spans {len(regular)} modules ({', '.join(regular)})"
            )
        )

    claim = best_claim(list(claims))
    if claim and (w.claim or w.claim_factor):
        factor = claim.factor or 1.0
        # A claimed 4x and more earns the full factor bonus; 1.1x earns almost none.
        bonus = w.claim_factor * min(1.0, math.log2(factor) / 2) if factor > 1 else 0.0
        out.append(ScoreContribution("claim", w.claim + bonus, f"{claim.text} claim"))

    breaking = flag_by_id.get("breaking")
    if breaking and w.breaking:
        out.append(ScoreContribution("breaking", w.breaking, f"breaking: {breaking.reason}"))

    kind_pts = s.kinds.get(kind, 0.0)
    if kind_pts:
        out.append(ScoreContribution("kind", kind_pts, f"kind {kind}"))

    activity = 2 * pr.review_count + pr.comment_count
    if activity > 0 and w.activity:
        frac = min(1.0, math.log1p(activity) / math.log1p(w.activity_saturation))
        parts = []
        if pr.review_count:
            parts.append(f"{pr.review_count} review{'s' if pr.review_count != 1 else ''}")
        if pr.comment_count:
            parts.append(f"{pr.comment_count} comment{'s' if pr.comment_count != 1 else ''}")
        out.append(ScoreContribution("activity", w.activity * frac, ", ".join(parts)))

    label_pts = sc.label_pts
    for label in sorted(set(pr.labels)):
        pts = label_pts.get(label.lower())
        if pts:
            out.append(ScoreContribution("label", pts, f"label {label}"))

    total = sum(c.points for c in out)
    cap = s.kind_caps.get(kind)
    cap_reason = f"{kind} changes are capped at {cap:g}" if cap is not None else ""
    if TRIVIAL_RE.search(pr.title) and (cap is None or s.trivial_cap < cap):
        cap, cap_reason = s.trivial_cap, f"trivial change (typo/nit) capped at {s.trivial_cap:g}"
    if cap is not None and total > cap:
        out.append(ScoreContribution("cap", cap - total, cap_reason))
        total = cap
    if total > MAX_SCORE:
        out.append(ScoreContribution("cap", MAX_SCORE - total, f"capped at {MAX_SCORE:g}"))
        total = MAX_SCORE
    total = max(0.0, total)

    contributions = [ScoreContribution(c.feature, round(c.points, 2), c.reason) for c in out]
    contributions.sort(key=lambda c: (-c.points, c.feature, c.reason))
    return round(total + 1e-9, 1), contributions


def select_key_prs(
    analyzed: Iterable[AnalyzedPR], ruleset: RuleSet, count: int | None = None
) -> list[AnalyzedPR]:
    """Top-K PRs of a window by score, above the rule set's floor; ties by PR number."""
    k = ruleset.score.key_count if count is None else count
    floor = ruleset.score.key_floor
    eligible = [a for a in analyzed if a.analysis.score >= floor]
    eligible.sort(key=lambda a: (-a.analysis.score, a.pr.number))
    return eligible[:k]
