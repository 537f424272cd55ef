"""PR analysis: modules, kind, risk flags, importance score and performance claims.

Public API, imported from its module (this package imports nothing, so a command that
needs one piece, such as the path patterns of an alert filter, does not pay for the rule
engine)::

    from bot.analysis.analyzer import Analyzer
    from bot.analysis.rules import load_ruleset  # "vllm", "generic", "auto" or a TOML path
    from bot.analysis.report import analysis_to_json  # `pr --format json`, `explain ...`

    ruleset = load_ruleset("vllm")
    analysis = Analyzer(ruleset).analyze(pr)
    data = analysis_to_json(pr, analysis)

Also: `rules` (RuleSet, RuleSetError, parse_ruleset, BUILTIN_RULESETS), `auto_rules`
(build_auto_ruleset), `claims` (extract_claims), `report` (describe_ruleset, explain_text),
`score` (select_key_prs), `cache` (analyses kept in the store).
"""
