"""Importance score 0..10 from weighted, explainable features; key-PR selection."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.core import i18n
from bot.core.models import AnalyzedPR, Claim, Flag, ModuleMatch, PullRequest, ScoreContribution

from .claims import best_claim
from .files import pr_lines
from .kinds import TRIVIAL_RE
from .reasons import by_weight, localized, make_contribution, nested, reuse_flag
from .regex import lazy
from .rules import ModuleRule, RuleSet
from .titles import parse_title

MAX_SCORE = 10.0
# A claim without a speed-up factor ("88% fewer bank conflicts") is real but says less
# about user-visible speed, so it earns this share of the claim weight.
UNQUANTIFIED_CLAIM_SHARE = 0.5


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
        """Return (score rounded to one decimal, contributions sorted by points desc)."""
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
        out.append(reuse_flag("core-path", w.core_path, "score.core-path", core))

    lines = pr_lines(pr)
    if lines > 0 and w.size:
        # Log scale: the 10th line matters more than the 1,000th.
        frac = min(1.0, math.log10(1 + lines) / math.log10(1 + w.size_saturation_lines))
        out.append(make_contribution("size", w.size * frac, "score.size", lines=lines))

    rule_by_id = sc.rule_by_id
    regular = [m.id for m in modules if m.id in rule_by_id and not rule_by_id[m.id].auxiliary]
    if regular and w.module:
        best = max(regular, key=lambda mid: (rule_by_id[mid].weight, -regular.index(mid)))
        pts = w.module * rule_by_id[best].weight
        if pts:
            rule = rule_by_id[best]
            module = localized(rule.name_en, rule.name_zh)
            out.append(make_contribution("module", pts, "score.module", module=module))
    if len(regular) > 1 and w.breadth_per_module:
        # Modules read from a title's words (no file list) overlap ("rms_norm", "quant",
        # "fusion" are three modules of one change): breadth counts one extra module at most.
        most = w.breadth_max if pr.files_known else w.breadth_per_module
        pts = min(most, w.breadth_per_module * (len(regular) - 1))
        out.append(
            make_contribution("breadth", pts, "score.breadth", count=len(regular), ids=regular)
        )

    claim = best_claim(list(claims))
    if claim and (w.claim or w.claim_factor):
        if claim.factor:
            # A claimed 4x and more earns the full factor bonus; 1.1x earns almost none.
            factor = claim.factor
            bonus = w.claim_factor * min(1.0, math.log2(factor) / 2) if factor > 1 else 0.0
            out.append(make_contribution("claim", w.claim + bonus, "score.claim", claim=claim.text))
        else:
            out.append(
                make_contribution(
                    "claim",
                    w.claim * UNQUANTIFIED_CLAIM_SHARE,
                    "score.claim.unquantified",
                    claim=claim.text,
                )
            )

    breaking = flag_by_id.get("breaking")
    if breaking and w.breaking:
        reason = nested(breaking.key, breaking.params) if breaking.key else breaking.reason
        out.append(make_contribution("breaking", w.breaking, "score.breaking", reason=reason))

    kind_pts = s.kinds.get(kind, 0.0)
    # What the title says the change is: a `[Model]` tag or a title that only touches a
    # model ("[Model] Avoid hardcoding pooling type") names an area, not a new model, and
    # weighs as the feature or misc change its words describe.
    scored_kind = kind
    if kind == "model" and not pr.files_known and not adds_model(pr.title):
        scored_kind = "feature" if _NEW_COMPONENT.search(pr.title) else "misc"
        kind_pts = s.kinds.get(scored_kind, 0.0)
        if kind_pts:
            out.append(
                make_contribution("kind", kind_pts, "score.kind.tag-only", kind=_kind_param(kind))
            )
    elif kind_pts:
        out.append(make_contribution("kind", kind_pts, "score.kind", kind=_kind_param(kind)))
    if not pr.files_known:
        out.extend(title_signals(pr.title, scored_kind))

    activity = 2 * pr.review_count + pr.comment_count
    if activity > 0 and w.activity:
        frac = min(1.0, math.log1p(activity) / math.log1p(w.activity_saturation))
        parts = []
        if pr.review_count:
            parts.append(nested("score.activity.reviews", {"count": pr.review_count}))
        if pr.comment_count:
            parts.append(nested("score.activity.comments", {"count": pr.comment_count}))
        out.append(make_contribution("activity", w.activity * frac, "score.activity", parts=parts))

    label_pts = sc.label_pts
    for label in sorted(set(pr.labels)):
        label_points = label_pts.get(label.lower())
        if label_points:
            out.append(make_contribution("label", label_points, "score.label", label=label))

    total = sum(c.points for c in out)
    cap = s.kind_caps.get(kind)
    cap_key, cap_params = "score.cap.kind", {"kind": _kind_param(kind), "cap": cap}
    if TRIVIAL_RE.search(pr.title) and (cap is None or s.trivial_cap < cap):
        cap, cap_key, cap_params = s.trivial_cap, "score.cap.trivial", {"cap": s.trivial_cap}
    if cap is not None and total > cap:
        out.append(make_contribution("cap", cap - total, cap_key, **cap_params))
        total = cap
    if total > MAX_SCORE:
        out.append(make_contribution("cap", MAX_SCORE - total, "score.cap.max", cap=MAX_SCORE))
        total = MAX_SCORE
    total = max(0.0, total)

    contributions = by_weight(
        [ScoreContribution(c.feature, round(c.points, 2), c.text, c.key, c.params) for c in out]
    )
    return round(total + 1e-9, 1), contributions


# ------------------------------------------------------------------ title-only signals

# Without a file list a PR earns no size or core-path points (up to 4.5 of 10), and every
# title-only score used to fall between 3.1 and 4.2: the title's own signals stand in for
# them. Each is a phrase of the title, shown as the reason. Not applied when files are
# known (size and paths say more than words then).
_TITLE_COMPONENT = (
    r"(?:attention )?backends?|kernels?|connectors?|parsers?|samplers?|schedulers?|"
    r"executors?|runners?|engines?|endpoints?|APIs?|quantization (?:method|scheme)s?|"
    r"ops?|operators?|fusions?|pipelines?|formats?|modes?|draft models?|MTP|EAGLE\d?"
)
_NEW_COMPONENT = lazy(
    r"\b(?:add(?:s|ed|ing)?|introduc(?:e|es|ed|ing)|implement(?:s|ed|ing)?|new|native|initial|"
    r"support(?:s|ing)?|"
    r"enable[sd]?|integrat(?:e|es|ed|ion))\b.{0,60}?\b(?P<what>" + _TITLE_COMPONENT + r")\b",
    re.IGNORECASE,
)
_REMOVED_COMPONENT = lazy(
    r"\b(?:remove[sd]?|drop(?:s|ped)?|delete[sd]?|deprecate[sd]?)\b.{0,50}?\b(?P<what>"
    + _TITLE_COMPONENT
    + r")\b",
    re.IGNORECASE,
)
_SERIES = lazy(
    r"[\[(]\s*(?P<part>\d+)[a-z]?\s*/\s*(?:n|\d+)\s*[\])]|\bpart\s+(?P<n>\d+)\b", re.IGNORECASE
)
# What every user of a setting meets: a default that changes ("Enable async scheduling by
# default", "Make FLASHINFER_MLA the default MLA backend", "Turn on … by default").
_DEFAULT_CHANGE = lazy(
    r"\b(?:by default|on by default|off by default|(?:as|the) default\b|default to\b|"
    r"defaults? (?:is|are|to|on|off)\b)",
    re.IGNORECASE,
)
# What users must migrate from: a deprecation or removal of a scheme, feature or option.
# ("[Deprecation] Remove PTPC FP8", "Deprecate Long Tail of Schemes"); never what the
# title calls dead or unused.
_DEPRECATED = lazy(
    r"^(?!.*\b(?:dead|unused|redundant|stale|obsolete|duplicate)\b).*?"
    r"\b(?P<what>deprecat(?:e|es|ed|ion)|(?:remov(?:e|es|ed|ing)|drop(?:s|ped)?) support)\b",
    re.IGNORECASE,
)
_SEVERE_BUG = lazy(
    r"\b(?:SSRF|injection|bypass|vulnerabilit(?:y|ies)|"
    r"crash(?:es|ed)?|segfaults?|IMA|illegal memory access|deadlocks?|hangs?|hanging|"
    r"NaNs?|corrupt(?:ion|ed)?|accuracy|correctness|wrong (?:outputs?|results?)|"
    r"memory leaks?|OOM|race conditions?|regressions?)\b",
)
_MINOR = lazy(
    r"\b(?:typos?|nits?|minor|tiny|small|cosmetic|comments?|docstrings?|logging|log(?:s)? "
    r"(?:message|level)|warnings?|type hints?|typing|lint(?:ing)?|format(?:ting)?|rename "
    r"variables?|reword|wording|readme|pre-commit|mypy|ruff|flaky|skip(?:ped)? tests?)\b"
    r"|^\s*\[(?:misc|minor|nit|doc|docs|ci|ci/build|test|tests)\]",
    re.IGNORECASE,
)
# A named subject: CamelCase, an acronym with digits or a versioned name (KVCacheSpec,
# WNA8O8Int, Gemma4, DeepSeek V4) rather than only common words.
_NAMED = lazy(r"\b(?:[A-Z][a-z]+[A-Z]\w*|[A-Z]{2,}\w*\d\w*|[A-Z][a-z]+\d[\w.]*|[A-Z][a-z]+ V\d)\b")
TITLE_POINTS = {
    "new-model": 1.6,
    "named": 0.5,
    "new-component": 1.4,
    "default-change": 1.2,
    "deprecated": 1.0,
    "removed-component": 1.0,
    "series": 0.8,
    "series-head": 0.4,
    "severe-bug": 0.8,
    "minor": -1.0,
}


# A title that adds a model: "new model", or a verb and a proper name (capitals or digits)
# ending the title, with at most a few words and "model"/"support" after it ("Add Molmo2
# multimodal model support", "[Model] Add LFM2-ColBERT-350M support", "Add Granite 4.0 1B
# speech to supported models"). "Add AutoWeightsLoader support for jais" or "Support MXFP4
# for MoE models" give something to models, and are no new model.
_NAME_WORD = r"(?!(?i:for|in|via|with|to|on|of|from|by|when|and|into|using)\b)[\w.\-/]+"
_ADDS_MODEL = lazy(
    r"(?i:\bnew models?\b)"
    r"|^(?i:add(?:s|ed|ing)?|support(?:s|ing)?|introduc(?:e|es|ed|ing)|implement(?:s|ed)?|"
    r"initial support for)\s+(?i:support\s+for\s+|the\s+)?"
    rf"(?=[\w.\-/]*[A-Z0-9]){_NAME_WORD}(?:\s+{_NAME_WORD}){{0,4}}?"
    r"(?:\s+(?i:to\s+(?:the\s+)?supported\s+models))?\s*[.!]?$"
)


def adds_model(title: str) -> bool:
    """Whether a title says a model is added (not only a `[Model]` tag on other work)."""
    info = parse_title(title)
    return any(t.norm == "new model" for t in info.tags) or bool(_ADDS_MODEL.search(info.rest))


def title_signals(title: str, kind: str) -> list[ScoreContribution]:
    """Score contributions read from a title alone (for PRs without a file list)."""
    out: list[ScoreContribution] = []
    if kind == "model" and adds_model(title):
        out.append(make_contribution("title", TITLE_POINTS["new-model"], "score.title.model"))
    named = _NAMED.search(parse_title(title).rest)
    if named and kind in {"feature", "model", "performance", "refactor"}:
        out.append(
            make_contribution("title", TITLE_POINTS["named"], "score.title.named", what=named[0])
        )
    new = None if kind == "model" else _NEW_COMPONENT.search(title)
    if new and kind in {"feature", "performance"}:
        out.append(
            make_contribution(
                "title", TITLE_POINTS["new-component"], "score.title.new", what=new.group("what")
            )
        )
    default = _DEFAULT_CHANGE.search(title)
    if default and kind not in {"docs", "ci", "test"}:
        out.append(
            make_contribution(
                "title",
                TITLE_POINTS["default-change"],
                "score.title.default",
                what=default.group(0),
            )
        )
    deprecated = _DEPRECATED.search(title)
    removed = _REMOVED_COMPONENT.search(title)
    if deprecated and not removed and kind in {"refactor", "feature", "misc"}:
        out.append(
            make_contribution(
                "title",
                TITLE_POINTS["deprecated"],
                "score.title.deprecated",
                what=deprecated.group("what"),
            )
        )
    if removed and not new and kind in {"refactor", "feature", "misc"}:
        out.append(
            make_contribution(
                "title",
                TITLE_POINTS["removed-component"],
                "score.title.removed",
                what=removed.group("what"),
            )
        )
    series = _SERIES.search(title)
    if series:
        part = series.group("part") or series.group("n")
        out.append(make_contribution("title", TITLE_POINTS["series"], "score.title.series"))
        if part in {"0", "1"}:
            out.append(
                make_contribution("title", TITLE_POINTS["series-head"], "score.title.series-head")
            )
    if kind == "bugfix":
        severe = _SEVERE_BUG.search(title)
        if severe:
            out.append(
                make_contribution(
                    "title", TITLE_POINTS["severe-bug"], "score.title.severe", what=severe.group(0)
                )
            )
    minor = _MINOR.search(title)
    # "[Misc] Enable async scheduling by default": the tag is filing, the default is news.
    if minor and not (default and minor.group(0).lstrip().startswith("[")):
        out.append(
            make_contribution(
                "title", TITLE_POINTS["minor"], "score.title.minor", what=minor.group(0).strip()
            )
        )
    return out


_KIND_PARAMS: dict[str, dict[str, str]] = {}


def _kind_param(kind: str) -> dict[str, str]:
    # English reasons keep the kind id ("kind performance"); Chinese shows the kind's name.
    # Memoised: the catalogue lookup would otherwise run for every PR.
    param = _KIND_PARAMS.get(kind)
    if param is None:
        param = _KIND_PARAMS[kind] = localized(kind, i18n.kind_name(kind, "zh"))
    return param


# A PR without a file list earns no size or core-path points, so it can rarely reach the
# absolute floor (real title-only vLLM weeks top out near 4 of 10). Such PRs are ranked
# against each other instead: the top TITLE_ONLY_SHARE of them become key PRs, "scored
# from titles", as long as the absolute key PRs leave room. Docs, CI and test changes and
# anything at or under the kind caps (2.0) never qualify this way.
TITLE_ONLY_SHARE = 0.1
TITLE_ONLY_MIN_SCORE = 2.0
TITLE_ONLY_EXCLUDED_KINDS = frozenset({"docs", "ci", "test", "revert"})


@dataclass(frozen=True, slots=True)
class KeyCandidate:
    number: int
    score: float
    kind: str
    title_only: bool  # no file list: scored from its title, labels and description


def choose_key_prs(
    candidates: Iterable[KeyCandidate], count: int, floor: float
) -> list[tuple[KeyCandidate, bool]]:
    """Key PRs, most important first, each with whether it was scored from titles.

    First the PRs at or above `floor` (top `count` by score; ties by PR number). While
    fewer than `count`, the title-only PRs fill up: the top TITLE_ONLY_SHARE (rounded up)
    of the window's title-only PRs by score, above TITLE_ONLY_MIN_SCORE and not of a
    TITLE_ONLY_EXCLUDED_KINDS kind. So a week imported from titles still has key PRs.
    """
    ranked = sorted(candidates, key=lambda c: (-c.score, c.number))
    count = max(count, 0)
    chosen = [(c, False) for c in ranked if c.score >= floor][:count]
    title_only = [c for c in ranked if c.title_only]
    room = count - len(chosen)
    if room > 0 and title_only:
        taken = {c.number for c, _ in chosen}
        quota = min(room, math.ceil(TITLE_ONLY_SHARE * len(title_only)))
        extra = [
            c
            for c in title_only
            if c.number not in taken
            and c.score > TITLE_ONLY_MIN_SCORE
            and c.kind not in TITLE_ONLY_EXCLUDED_KINDS
        ]
        chosen += [(c, True) for c in extra[:quota]]
    return chosen


def select_key_prs(
    analyzed: Iterable[AnalyzedPR], ruleset: RuleSet, count: int | None = None
) -> list[AnalyzedPR]:
    """Top-K PRs of a window by score, above the rule set's floor (ties by PR number);
    title-only PRs fill up by relative rank (choose_key_prs)."""
    k = ruleset.score.key_count if count is None else count
    # By candidate identity: the caller's list may repeat a PR number.
    item_of = {}
    for a in analyzed:
        candidate = KeyCandidate(
            a.pr.number, a.analysis.score, a.analysis.kind, not a.pr.files_known
        )
        item_of[id(candidate)] = (candidate, a)
    chosen = choose_key_prs((c for c, _ in item_of.values()), k, ruleset.score.key_floor)
    return [item_of[id(c)][1] for c, _ in chosen]


def shown_points(contributions: Sequence[ScoreContribution], score: float) -> list[float]:
    """Each contribution's points at one decimal, rounded so that they add up to ``score``
    exactly (largest remainder): a card that lists 2.1 + 2.0 + 1.8 must not claim 9.9."""
    if not contributions:
        return []
    tenths = [c.points * 10 for c in contributions]
    floors = [math.floor(t) for t in tenths]
    target = round(score * 10)
    short = target - sum(floors)
    if not 0 <= short <= len(tenths):
        # Not a rounding difference (an analysis whose parts were not all itemised): round
        # each as it is and let the caller show the rest.
        return [round(c.points, 1) for c in contributions]
    # Hand the missing tenths to the largest remainders (ties: the listed order).
    order = sorted(range(len(tenths)), key=lambda i: (-(tenths[i] - floors[i]), i))
    for i in order[: max(short, 0)]:
        floors[i] += 1
    for i in order[::-1][: max(-short, 0)]:
        floors[i] -= 1
    return [f / 10 for f in floors]
