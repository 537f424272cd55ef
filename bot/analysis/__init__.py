"""PR analysis: modules, kind, risk flags, importance score and performance claims.

Public API::

    ruleset = load_ruleset("vllm")          # or "generic", "auto", or a path to a TOML file
    analysis = Analyzer(ruleset).analyze(pr)
    data = analysis_to_json(pr, analysis)   # `pr --format json` / `explain --format json`
"""

from __future__ import annotations

from .analyzer import Analyzer
from .auto_rules import build_auto_ruleset
from .claims import extract_claims
from .report import analysis_to_json, describe_ruleset, explain_text
from .rules import BUILTIN_RULESETS, RuleSet, RuleSetError, load_ruleset, parse_ruleset
from .score import select_key_prs

__all__ = [
    "BUILTIN_RULESETS",
    "Analyzer",
    "RuleSet",
    "RuleSetError",
    "analysis_to_json",
    "build_auto_ruleset",
    "describe_ruleset",
    "explain_text",
    "extract_claims",
    "load_ruleset",
    "parse_ruleset",
    "select_key_prs",
]
