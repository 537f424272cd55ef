"""The Analyzer: compiles a rule set once, then analyses PRs with pure functions."""

from __future__ import annotations

from bot.models import Analysis, PullRequest

from .claims import extract_claims
from .files import TEST, FileCategorizer
from .flags import FlagDetector
from .kinds import KindClassifier
from .modules import ModuleClassifier
from .rules import RuleSet
from .score import Scorer
from .titles import parse_title


class Analyzer:
    """``Analyzer(ruleset).analyze(pr)``: no network and no I/O; safe to share."""

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self._modules = ModuleClassifier(ruleset)
        self._files = FileCategorizer(ruleset)
        self._kinds = KindClassifier(ruleset)
        self._flags = FlagDetector(ruleset)
        self._scorer = Scorer(ruleset)

    def analyze(self, pr: PullRequest) -> Analysis:
        title = parse_title(pr.title)
        facts = self._files.facts(pr)
        modules = self._modules.classify(pr, title)
        claims = extract_claims(f"{pr.title}\n{pr.body}" if pr.body else pr.title)
        kind, kind_reason = self._kinds.classify(pr, title, facts, claims)
        core: list[str] = []
        if pr.files_known:
            tests = {f.path for f in pr.files if self._files.category(f.path) & TEST}
            core = self._flags.core_paths(pr, tests)
        flags = self._flags.detect(pr, title, facts, kind, core)
        score, contributions = self._scorer.score(pr, modules, kind, flags, claims)
        return Analysis(
            modules=modules,
            kind=kind,
            kind_reason=kind_reason,
            flags=flags,
            score=score,
            contributions=contributions,
            claims=claims,
        )
