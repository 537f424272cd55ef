"""The Analyzer: compiles a rule set once, then analyses PRs with pure functions."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.models import Analysis, PullRequest

from .claims import extract_claims
from .files import TEST, FileCategorizer
from .flags import FlagDetector
from .kinds import KindClassifier
from .modules import ModuleClassifier
from .rules import RuleSet
from .score import Scorer
from .titles import parse_title


@dataclass(frozen=True, slots=True)
class _Parts:
    modules: ModuleClassifier
    files: FileCategorizer
    kinds: KindClassifier
    flags: FlagDetector
    scorer: Scorer


class Analyzer:
    """``Analyzer(ruleset).analyze(pr)``: no network and no I/O; safe to share."""

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self._built: _Parts | None = None

    @property
    def _parts(self) -> _Parts:
        # Built on the first analysis: compiling the rules is most of the cost, and a card
        # or digest answered from the store's analysis cache needs only the rule set.
        if self._built is None:
            ruleset = self.ruleset
            self._built = _Parts(
                ModuleClassifier(ruleset),
                FileCategorizer(ruleset),
                KindClassifier(ruleset),
                FlagDetector(ruleset),
                Scorer(ruleset),
            )
        return self._built

    def analyze(self, pr: PullRequest) -> Analysis:
        parts = self._parts
        title = parse_title(pr.title)
        facts = parts.files.facts(pr)
        modules = parts.modules.classify(pr, title)
        claims = extract_claims(f"{pr.title}\n{pr.body}" if pr.body else pr.title)
        kind, kind_reason = parts.kinds.classify(pr, title, facts, claims)
        core: list[str] = []
        if pr.files_known:
            tests = {f.path for f in pr.files if parts.files.category(f.path) & TEST}
            core = parts.flags.core_paths(pr, tests)
        flags = parts.flags.detect(pr, title, facts, kind, core)
        score, contributions = parts.scorer.score(pr, modules, kind, flags, claims)
        return Analysis(
            modules=modules,
            kind=kind,
            kind_reason=kind_reason,
            flags=flags,
            score=score,
            contributions=contributions,
            claims=claims,
        )
