from __future__ import annotations

import json

from bot.analysis.analyzer import Analyzer
from bot.analysis.auto_rules import build_auto_ruleset, labeler_rules, mergify_rules
from bot.analysis.report import analysis_to_json, describe_ruleset, explain_text
from bot.core.models import FileChange, PullRequest
from tests.analysis.analysis_factory import ANALYZER, VLLM, make_pr

CONTRACT_KEYS = {
    "repo", "number", "title", "url", "author", "state", "created_at", "merged_at",
    "additions", "deletions", "changed_files", "labels", "files", "modules", "kind", "flags",
    "score", "score_reasons", "claims",
}  # fmt: skip


def test_json_has_contract_keys_and_types() -> None:
    pr = make_pr(
        "[ROCm][Perf] Fused shared experts for Qwen3-Next",
        [("vllm/model_executor/layers/fused_moe/rocm_aiter_fused_moe.py", 300, 40)],
        body="16-24% decode throughput on MI300X",
        labels=["rocm"],
    )
    data = analysis_to_json(pr, ANALYZER.analyze(pr))
    assert set(data) >= CONTRACT_KEYS
    json.dumps(data)  # serialisable as is
    assert data["created_at"] == "2026-06-01T12:00:00Z"
    assert data["merged_at"] == "2026-06-02T08:30:00Z"
    assert data["files"] == [
        {
            "path": "vllm/model_executor/layers/fused_moe/rocm_aiter_fused_moe.py",
            "additions": 300,
            "deletions": 40,
        }
    ]
    assert data["modules"][0] in {"rocm", "moe"} and {"rocm", "moe"} <= set(data["modules"])
    assert data["kind"] == "performance"
    assert all(set(f) == {"id", "reason"} for f in data["flags"])
    assert data["claims"] == ["16-24% decode throughput"]
    assert isinstance(data["score"], float)
    assert data["score_reasons"] and all(isinstance(r, str) for r in data["score_reasons"])
    assert data["explain"]["modules"][0]["rule"]


def test_explain_text_shows_every_part() -> None:
    pr = make_pr(
        "[Spec Decode] Remove tree attention backend",
        [
            ("vllm/v1/attention/backends/tree_attn.py", 0, 900),
            ("vllm/v1/spec_decode/eagle.py", 20, 400),
        ],
    )
    text = explain_text(pr, ANALYZER.analyze(pr))
    for needle in (
        "modules:",
        "spec-decode",
        "attention",
        "kind: refactor",
        "breaking:",
        "score:",
        "claims: none",
    ):
        assert needle in text, needle


def test_describe_ruleset_rows() -> None:
    rows = describe_ruleset(VLLM)
    by_id = {r.id: r for r in rows}
    assert set(by_id) == {m.id for m in VLLM.modules}
    assert len(tuple(by_id["scheduler"])) == 4  # id, name_en, name_zh, rules
    assert by_id["scheduler"].name_zh == "调度器"
    assert "paths: vllm/v1/core/sched/**" in by_id["scheduler"].rules
    assert (
        "tags: " in by_id["spec-decode"].rules and "[SpecDecode]" not in by_id["spec-decode"].rules
    )
    assert "fallback when no rule matches" in by_id["other"].rules


LABELER_V5 = """\
# labels for an example repository
documentation:
  - changed-files:
      - any-glob-to-any-file:
          - '**/*.md'
          - 'docs/**'

"module:ops":
  - changed-files:
      - any-glob-to-any-file: ['pkg/ops/**', 'csrc/**']
      - all-globs-to-all-files: ['!pkg/ops/README.md']

module:quantization:
- changed-files:
  - any-glob-to-any-file:
    - pkg/quantization/**
"""
LABELER_V4 = """\
frontend: ['pkg/entrypoints/**']
ci/build:
  - .github/**
  - any: ['docker/**']
"""
MERGIFY = """\
pull_request_rules:
  - name: label-attention
    description: apply attention label
    conditions:
      - or:
          - files~=^pkg/attention/
          - files=pkg/layers/attn.py
          - title~=(?i)\\battention\\b
    actions:
      label:
        add:
          - attention
  - name: conflicts
    conditions:
      - conflict
      - -closed
    actions:
      label:
        add:
          - needs-rebase
      comment:
        message: |
          Please rebase: this has conflicts.
          Thanks!
"""


def test_labeler_v5_and_v4_parse() -> None:
    v5 = labeler_rules(LABELER_V5)
    assert v5["documentation"] == (["**/*.md", "docs/**"], [])
    assert v5["module:ops"] == (["pkg/ops/**", "csrc/**"], ["pkg/ops/README.md"])
    assert v5["module:quantization"] == (["pkg/quantization/**"], [])
    v4 = labeler_rules(LABELER_V4)
    assert v4["frontend"] == (["pkg/entrypoints/**"], [])
    assert v4["ci/build"] == ([".github/**", "docker/**"], [])


def test_mergify_label_rules_parse() -> None:
    rules = mergify_rules(MERGIFY)
    assert rules["attention"] == (
        ["re:^pkg/attention/", "pkg/layers/attn.py"],
        ["(?i)\\battention\\b"],
    )
    assert rules["needs-rebase"] == ([], [])


def _pr(title: str, paths: list[str]) -> PullRequest:
    pr = make_pr(title, [(p, 10, 2) for p in paths])
    pr.repo = "example/repo"
    return pr


def test_auto_ruleset_classifies_with_repo_rules_and_folders() -> None:
    rs = build_auto_ruleset(
        LABELER_V5 + LABELER_V4, MERGIFY, ["pkg", "csrc", "docs", ".github", "tools"]
    )
    ids = [m.id for m in rs.modules]
    assert {
        "ops",
        "quantization",
        "frontend",
        "attention",
        "pkg",
        "tools",
        "docs",
        "ci-build",
    } <= set(ids)
    assert "needs-rebase" not in ids
    assert ids[-1] == "other"
    analyzer = Analyzer(rs)
    assert analyzer.analyze(_pr("Speed up op", ["pkg/ops/fast.py"])).module_ids == ["ops"]
    assert analyzer.analyze(_pr("x", ["pkg/attention/a.py"])).module_ids == ["attention"]
    assert analyzer.analyze(_pr("Improve attention", None or [])).primary_module == "attention"
    assert analyzer.analyze(_pr("misc", ["pkg/util.py"])).module_ids == ["pkg"]
    assert analyzer.analyze(_pr("Update docs", ["docs/x.md"])).module_ids == ["docs"]
    labelled = _pr("x", ["pkg/util.py"])
    labelled.labels = ["module:quantization"]
    assert "quantization" in analyzer.analyze(labelled).module_ids


def test_auto_without_repo_files_is_generic() -> None:
    rs = build_auto_ruleset(None, None, [])
    pr = PullRequest(
        "o/r", 1, "t", "u", "merged", make_pr("x").created_at, files=[FileChange("a.py", 1, 0)]
    )
    assert Analyzer(rs).analyze(pr).module_ids == ["other"]


def test_hints_name_the_repositorys_own_modules_first() -> None:
    from bot.analysis.catalogue import GENERIC_MODULES, ModuleCatalogue
    from bot.analysis.rules import load_ruleset

    generic = load_ruleset("generic")
    assert {m.id for m in generic.modules} == GENERIC_MODULES
    auto = build_auto_ruleset(None, None, ["vllm_ascend"], labels=["module:ops"])
    assert ModuleCatalogue.from_rulesets([auto]).examples(2) == ["ops", "vllm-ascend"]
    assert ModuleCatalogue.from_rulesets([generic]).examples(1) == ["ci-build"]
