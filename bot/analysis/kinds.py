"""One kind per PR, from title tags, title words, labels and the kinds of files changed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.models import Claim, PullRequest

from .files import FileFacts
from .regex import LazyPattern, lazy
from .rules import RuleSet, normalize_tag
from .titles import TitleInfo

REVERT_RE = lazy(r"^\s*(?:\[[^\]]*\]\s*)*revert(?:s|ed|ing)?\b", re.IGNORECASE)
SECURITY_RE = lazy(
    r"\bCVE-\d{4}-\d+\b|\bGHSA-[\w-]+\b|\bsecurity (?:fix|issue|vulnerabilit)|\bvulnerabilit",
    re.IGNORECASE,
)
TRIVIAL_RE = lazy(r"\btypos?\b|\bnits?\b|\bspelling\b|\bgrammar fix\b", re.IGNORECASE)
_NEW_MODEL_RE = lazy(
    r"\b(?:add|adds|adding|support|supports|initial support for|new)\b.{0,60}?"
    r"\bmodels?\b(?! runner)"
    r"(?!\s+(?:loader|loading|executor|runner|config|weights|tests?|states?|registry|inputs?))"
    r"|\bmodel support\b|\bnew model\b",
    re.IGNORECASE,
)
# "Add support for hybrid models", "support MLA model on Intel GPU": a class of models
# (or one class on a platform) gains a capability; no new model is added.
_MODEL_CLASS_RE = lazy(
    r"\b(?:add|adds|adding|support|supports|enable|enables)\s+(?:support\s+)?(?:for\s+)?"
    r"(?:the\s+)?(?:hybrid|all|more|other|these|such|different|pooling|quantized|MLA|MoE|"
    r"multimodal|encoder|decoder|embedding|generative|heterogeneous)\b"
    r"|\bmodels?\s+on\s+(?:the\s+)?\w+",
    re.IGNORECASE,
)
# Titles about tests under a CI tag ("[CI] Fix flaky X test", "[ROCm][CI] Mark gemma3 as
# large GPU test"): the change is to tests. Words of CI plumbing keep the CI kind
# ("[CI] Add uv pip compile workflow for rocm-test.txt", "[CI] Add eval job").
_TEST_WORDS_RE = lazy(
    r"\b(?:tests?|testing|test[ -]suites?|unit tests?|UTs?|flak(?:y|iness)|mocks?)\b"
    r"|\btest_\w+",
    re.IGNORECASE,
)
_CI_PLUMBING_RE = lazy(
    r"\b(?:jobs?|workflows?|pipelines?|queues?|mirrors?|runners?|lockfiles?|dependenc(?:y|ies)|"
    r"deps?|docker(?:file)?|images?|wheels?|builds?|buildkite|actions?|cron|locations?|triggers?)\b",
    re.IGNORECASE,
)
# A refactor/misc tag whose object is tests: "[Refactor] Relocate endpoint tests ...".
_TESTS_OBJECT_RE = lazy(r"^\w+\s+(?:[\w`.\-/]+\s+){0,5}?(?:tests|test suites?)\b", re.IGNORECASE)
# Tags that name an area rather than a kind ([Model]): a leading verb of another kind
# decides ("[Model] Refactor Step3-VL processor", "[Model] Deprecate the score task").
_AREA_TAG_KINDS = frozenset({"model"})


def _p(pattern: str) -> LazyPattern:
    return lazy(pattern, re.IGNORECASE)


# What a PR does when no tag says so: the leading verb decides first, then words anywhere.
# Patterns are split over several strings only to keep lines short.
_LEAD_WORDS: tuple[tuple[str, LazyPattern], ...] = (
    (
        "ci",
        _p(
            r"^(?:bump|upgrade|pin|unpin|downgrade|update)\s+[\w.\-/\[\]]+\s+"
            r"(?:(?:from\s+\S+\s+)?to\s+)?v?\d"
            # "Bump Flashinfer Version", "Pin torch": a version bump whatever follows.
            r"|^(?:bump|pin|unpin|downgrade)\b"
            r"|^(?:upgrade|update)\s+(?:the\s+)?[\w.\-/\[\]]+\s+(?:version|dependency)\b"
            # "Add flashinfer-cubin as CUDA default dep", "Added missing resampy dependency".
            r"|^(?:add|added|adds|remove|drop|require)\b.{0,50}"
            r"\b(?:deps?|dependency|dependencies|requirements?)\b"
            # "Mistral common v10": a package name and a version, nothing else.
            r"|^(?!.*\b(?:for|fix\w*|to|on|in|with|support\w*|add\w*)\b)"
            r"[A-Za-z][\w\-]*(?:\s[A-Za-z][\w\-]*){0,2}\s+v?\d+(?:\.\d+)*$"
            # GitHub plumbing: issue templates and triage bots.
            r"|\bissue (?:management|templates?|triage)\b"
            # "Skip docs build if ...", "Run the nightly job on ...": build and CI plumbing.
            r"|^(?:skip|run|trigger|gate|cache|speed ?up|downsize|upsize|move)\b.{0,50}"
            r"\b(?:builds?|CI|jobs?|pipelines?|workflows?|pre-commit|wheels?|queues?)\b"
        ),
    ),
    (
        "test",
        _p(
            r"^(?:add(?:s|ed|ing)?|extend(?:s|ed|ing)?|improve[sd]?|fix(?:es|ed)?|skip|re-?enable|"
            r"stabili[sz]e|cover(?:s|ed)?|increase|relocate|consolidate|mark|deflake)\b.{0,40}"
            r"\b(?:tests?|unit tests?|test coverage|UTs?)\b|^(?:unit )?tests?\b"
        ),
    ),
    (
        "docs",
        _p(
            r"^(?:update|add|fix|clarify|improve)\b.{0,30}"
            r"\b(?:docs?|documentation|docstrings?|README)\b|^docs?\b"
        ),
    ),
    (
        "bugfix",
        _p(
            r"^(?:fix(?:es|ed|ing)?|hotfix|resolve[sd]?|correct(?:s|ed)?|repair|prevent|"
            r"handle|guard|patch|fall ?back|work ?around)\b"
            r"|^make\b.{0,60}\brobust\b"
        ),
    ),
    (
        "performance",
        _p(
            r"^(?:optimi[sz]e[sd]?|speed ?up|accelerate|faster|perf)\b"
            r"|^zero-?(?:bubble|copy|overhead)\b"
            # "Avoid pipeline parallel bubbles", "Skip loading X if ...": work not done.
            r"|^(?:avoid|eliminate|reduce|skip)\b.{0,40}"
            r"\b(?:bubbles?|blocking|overhead|sync(?:hroni[sz]ation)?s?|copy|copies|"
            r"allocations?|launch(?:es)?|recompil\w*|stalls?|latency|loading|round ?trips?)\b"
            r"|^non[- ]?blocking\b"
        ),
    ),
    (
        "refactor",
        _p(
            r"^(?:refactor|clean ?up|cleanup|remove|drop|delete|move|rename|simplify|"
            r"consolidate|migrate|unify|restructure|reorgani[sz]e|extract|deprecate|split|"
            r"resettle|decouple|replace|standardi[sz]e|adjust design|use|switch to|adopt|"
            r"convert|relocate|port)\b"
            # "Update X to use Y" swaps an implementation.
            r"|^update\b.{0,60}\bto use\b"
        ),
    ),
    (
        "feature",
        _p(
            r"^(?:add|adds|adding|support|supports|enable|enables|implement|introduce|allow|"
            r"expose|new|initial|auto-?\w+|automatically)\b"
            # "Make async EPLB default", "Make X configurable".
            r"|^make\b.{0,40}\b(?:default|configurable|optional|available)\b"
        ),
    ),
)
_ANY_WORDS: tuple[tuple[str, LazyPattern], ...] = (
    (
        "bugfix",
        _p(
            r"\bfix(?:es|ed)?\b|\b(?:crash|bug|illegal memory access|IMA|deadlock|NaN|"
            r"race condition|regression)\b"
        ),
    ),
    (
        "performance",
        _p(
            r"\b(?:optimi[sz](?:e|ation)|speed-?up|faster|throughput|latency|fast[- ]path|"
            r"zero-?copy|zero-?bubble|non[- ]?blocking|"
            r"to avoid (?:blocking|overhead|sync\w*|copies))\b"
        ),
    ),
    (
        "refactor",
        _p(
            r"\b(?:refactor(?:ing)?|dead code|clean ?up|cleanup)\b"
            r"|\bin an? (?:better|cleaner|simpler|clearer) way\b"
        ),
    ),
    ("ci", _p(r"\bactions/[\w-]+|\bCODEOWNERS\b|\b(?:CI|nightly|buildkite) jobs?\b")),
    ("test", _p(r"\b(?:unit|roundtrip|e2e|regression) tests?\b")),
    (
        "feature",
        _p(
            r"\bsupport(?:s|ed)?\b|\bnative\b|\benable[sd]?\b|\badd(?:s|ed)?\b"
            # A new endpoint, op or kernel named in the title: "Streaming generate endpoint",
            # "Triton-based selective scan forward op", "PP-aware handshake".
            r"|\bendpoints?\b|\b[\w-]+-(?:based|aware)\b"
            r"|\b(?:kernels?|ops?)\s+(?:for|using|via|with|on)\b|\bby default\b"
        ),
    ),
)
# Tags that only say "small" ([Misc], [Minor], [Nit]): the words decide, these only when
# nothing else does.
_WEAK_TAG_KINDS = frozenset({"misc"})


@dataclass
class KindClassifier:
    ruleset: RuleSet

    def __post_init__(self) -> None:
        self._tags: dict[str, str] = {}
        for kind, names in self.ruleset.kinds.tags.items():
            for n in names:
                self._tags.setdefault(normalize_tag(n), kind)
        self._labels: dict[str, str] = {}
        for kind, names in self.ruleset.kinds.labels.items():
            for n in names:
                self._labels.setdefault(n.strip().lower(), kind)

    def tag_kind(self, title: TitleInfo) -> tuple[str, str] | None:
        for tag in title.tags:
            kind = self._tags.get(tag.norm)
            if kind is None and "/" in tag.norm:
                kind = next((self._tags[p] for p in tag.norm.split("/") if p in self._tags), None)
            if kind is None and tag.norm.endswith("refactor"):
                kind = "refactor"  # "[MoE Refactor]", "[Logs Refactor]"
            if kind:
                return kind, f"title tag [{tag.raw}]"
        return None

    @staticmethod
    def _refine_tag(kind: str, rest: str) -> tuple[str, str] | None:
        """A kind tag that the title's own words overrule, with the words that did."""
        if kind == "ci" and not _CI_PLUMBING_RE.search(rest):
            m = _TEST_WORDS_RE.search(rest)
            if m:
                return "test", f"about tests ('{m.group(0)}')"
        if kind in {"refactor", "misc"}:
            m = _TESTS_OBJECT_RE.search(rest)
            if m:
                return "test", f"changes '{m.group(0)}'"
        if kind in _AREA_TAG_KINDS:
            for lead_kind, pattern in _LEAD_WORDS:
                if lead_kind == "feature":
                    continue
                m = pattern.search(rest)
                if m:
                    return lead_kind, f"title starts with '{m.group(0).strip()}'"
        return None

    @staticmethod
    def _maybe_model(kind: str, new_model: bool, reason: str) -> tuple[str, str]:
        if kind == "feature" and new_model:
            return "model", f"{reason}, adds model support"
        return kind, reason

    def classify(
        self,
        pr: PullRequest,
        title: TitleInfo,
        facts: FileFacts,
        claims: Sequence[Claim] = (),
    ) -> tuple[str, str]:
        if REVERT_RE.match(pr.title):
            return "revert", "title starts with 'Revert'"
        tagged = self.tag_kind(title)
        if (tagged and tagged[0] == "security") or SECURITY_RE.search(pr.title):
            return "security", tagged[1] if tagged else "security advisory in title"

        # What the files say overrides tags: a "[Bugfix]" that only touches docs is docs.
        if pr.files_known and facts.total_files:
            if facts.docs_files == facts.total_files:
                return "docs", "only documentation files changed"
            if facts.test_files == facts.total_files and (not tagged or tagged[0] != "ci"):
                return "test", "only test files changed"
            only_ci = facts.ci_files + facts.dep_files >= facts.total_files
            if (
                only_ci
                and facts.source_files == 0
                and (not tagged or tagged[0] not in {"bugfix", "performance"})
            ):
                return "ci", "only CI, build or dependency files changed"

        new_model = (
            bool(_NEW_MODEL_RE.search(title.rest)) and not _MODEL_CLASS_RE.search(title.rest)
        ) or facts.adds_model
        weak_tag = tagged if tagged and tagged[0] in _WEAK_TAG_KINDS else None
        if tagged and not weak_tag:
            kind, reason = tagged
            refined = self._refine_tag(kind, title.rest)
            if refined:
                return refined[0], f"{reason}, {refined[1]}"
            if kind == "feature" and new_model:
                return "model", f"{reason}, adds model support"
            return kind, reason

        for kind, pattern in _LEAD_WORDS:
            m = pattern.search(title.rest)
            if m:
                return self._maybe_model(
                    kind, new_model, f"title starts with '{m.group(0).strip()}'"
                )
        if claims:
            return "performance", f"claims {claims[0].text}"
        for kind, pattern in _ANY_WORDS:
            m = pattern.search(title.rest)
            if m:
                return self._maybe_model(kind, new_model, f"title word '{m.group(0).strip()}'")

        for label in pr.labels:
            label_kind = self._labels.get(label.strip().lower())
            if label_kind:
                return label_kind, f"label {label}"
        if new_model:
            return "model", "adds model support"
        if weak_tag:
            return weak_tag
        return "misc", "no kind signal in title, labels or files"
