"""Regression tests for the QA review of the analysis: auto-rule modules, key-PR floor,
claims without factors, breaking-change guards, platform groups and explain counts."""

from __future__ import annotations

import pytest

from bot.analysis.analyzer import Analyzer
from bot.analysis.auto_rules import build_auto_ruleset, module_labels
from bot.analysis.claims import extract_claims
from bot.analysis.rules import load_ruleset
from bot.analysis.score import select_key_prs
from bot.core.models import AnalyzedPR
from tests.analysis.analysis_factory import ANALYZER, make_pr

# ---------------------------------------------------------------- 1. auto rule modules

ASCEND_FOLDERS = ["benchmarks", "csrc", "docs", "examples", "tests", "tools", "vllm_ascend"]


def _auto_pr(title: str, files: list[tuple[str, int, int]], labels: list[str] | None = None):  # type: ignore[no-untyped-def]
    pr = make_pr(title, files, labels=labels)
    pr.repo = "vllm-project/vllm-ascend"
    return pr


def test_source_folder_with_most_lines_is_primary_next_to_dependencies() -> None:
    # vllm-ascend #9415: 162 lines in vllm_ascend/xlite, 2 in requirements-dev.txt.
    analyzer = Analyzer(build_auto_ruleset(None, None, ASCEND_FOLDERS))
    pr = _auto_pr(
        "[Xlite][Feature] Xlite support glm4.7 w8a8 quantization",
        [
            ("requirements-dev.txt", 1, 1),
            ("vllm_ascend/xlite/utils.py", 5, 4),
            ("vllm_ascend/xlite/xlite.py", 70, 83),
        ],
    )
    analysis = analyzer.analyze(pr)
    assert analysis.module_ids == ["vllm-ascend", "dependencies"]


def test_source_folders_are_not_drowned_by_ci_and_dependency_files() -> None:
    analyzer = Analyzer(build_auto_ruleset(None, None, ["vllm", "csrc", "requirements"]))
    files = [(f"vllm/v1/m{i}.py", 30, 5) for i in range(5)]
    files += [("csrc/a.cu", 40, 2), ("csrc/b.cu", 10, 1), ("csrc/c.h", 3, 0)]
    files += [(".buildkite/test.yaml", 4, 1), ("requirements/cuda.txt", 1, 1)]
    ids = analyzer.analyze(_auto_pr("Something", files)).module_ids
    assert ids[:2] == ["vllm", "csrc"]
    assert {"ci-build", "dependencies"} <= set(ids)


def test_catch_all_folder_only_takes_files_no_label_rule_claims() -> None:
    labeler = "module:ops:\n- changed-files:\n  - any-glob-to-any-file:\n    - vllm_ascend/ops/**\n"
    analyzer = Analyzer(build_auto_ruleset(labeler, None, ASCEND_FOLDERS))
    pr = _auto_pr("x", [("vllm_ascend/ops/a.py", 50, 0), ("vllm_ascend/utils.py", 10, 0)])
    analysis = analyzer.analyze(pr)
    assert analysis.module_ids == ["ops", "vllm-ascend"]
    assert [m.lines for m in analysis.modules] == [50, 10]


def test_stored_module_labels_become_modules_without_labeler_text() -> None:
    stored = ["module:ops", "module:core", "module:quantization", "module:tests", "ci/build"]
    stored += ["documentation", "ready", "kind/bug", "kind/feature", "kind/cleanup"]
    rs = build_auto_ruleset(None, None, ASCEND_FOLDERS, labels=stored)
    ids = [m.id for m in rs.modules]
    assert {"ops", "core", "quantization"} <= set(ids)
    assert not {"bug", "feature", "cleanup", "ready"} & set(ids)
    assert rs.module("tests") is not None and "module:tests" in rs.module("tests").labels  # type: ignore[union-attr]
    pr = _auto_pr("[Ops] fused op", [("vllm_ascend/ops/x.py", 40, 3)], ["module:ops"])
    assert Analyzer(rs).analyze(pr).module_ids == ["vllm-ascend", "ops"]


def test_label_families_need_a_module_prefix_or_three_members() -> None:
    assert module_labels(["area/a", "x:y", "team:1", "team:2", "team:3", "size/XL"]) == [
        "area/a",
        "team:1",
        "team:2",
        "team:3",
    ]


# ---------------------------------------------------------------- 2. key-PR floor


def test_generic_rules_have_a_reachable_key_floor() -> None:
    generic, vllm = load_ruleset("generic"), load_ruleset("vllm")
    assert vllm.score.key_floor == 5.0
    assert generic.score.key_floor < vllm.score.key_floor
    analyzer = Analyzer(build_auto_ruleset(None, None, ASCEND_FOLDERS))
    feature = _auto_pr(
        "[Feature] Support chunked prefill for the Ascend attention backend",
        [("vllm_ascend/attention/a.py", 200, 40)],
    )
    feature.review_count = 3
    typo = _auto_pr("Fix typo", [("vllm_ascend/attention/a.py", 1, 1)])
    analyzed = [AnalyzedPR(p, analyzer.analyze(p)) for p in (feature, typo)]
    assert [a.pr for a in select_key_prs(analyzed, analyzer.ruleset)] == [feature]


# ---------------------------------------------------------------- 3. claims

CLAIM_CASES = [
    # (text, [(claim text, factor, metric)])
    (
        "~52% reduction in scalar pipe cycles and ~88% reduction in bank group conflicts",
        [
            ("52% reduction in scalar pipe cycles", None, "scalar pipe cycles"),
            ("88% reduction in bank group conflicts", None, "bank group conflicts"),
        ],
    ),
    (
        "profiling shows ~52% reduction in scalar pipe\ncycles and fewer stalls.",
        [("52% reduction in scalar pipe cycles", None, "scalar pipe cycles")],
    ),
    ("30% reduction in memory usage", [("30% reduction in memory usage", None, "memory usage")]),
    ("3x less memory", [("3x less memory", None, "memory")]),
    ("2x fewer kernel launches", [("2x fewer kernel launches", None, "kernel launches")]),
    ("- 30% fewer allocations\n- other", [("30% fewer allocations", None, "allocations")]),
    ("30% lower latency", [("30% lower latency", 1.429, "latency")]),
    ("e2e latency reduced by 20%", [("e2e latency reduced by 20%", 1.25, "e2e latency")]),
    ("16-24% decode throughput", [("16-24% decode throughput", 1.24, "decode throughput")]),
    ("2.15x throughput", [("2.15x throughput", 2.15, "throughput")]),
    # A bare "+24%" says nothing of what it measures: not a claim (issue 21).
    ("+24%", []),
    ("throughput in this PR: +24%", [("throughput +24%", 1.24, "throughput")]),
]


@pytest.mark.parametrize(("text", "expected"), CLAIM_CASES)
def test_only_speed_claims_get_factors(
    text: str, expected: list[tuple[str, float | None, str | None]]
) -> None:
    assert [(c.text, c.factor, c.metric) for c in extract_claims(text)] == expected


def test_unquantified_claim_scores_modestly() -> None:
    body = "~52% reduction in scalar pipe cycles and ~88% reduction in bank group conflicts"
    pr = make_pr("[Perf] RGDR optimization", [("csrc/attention/x.h", 300, 20)], body=body)
    claim = next(c for c in ANALYZER.analyze(pr).contributions if c.feature == "claim")
    assert claim.points == 0.5
    assert claim.reason == "52% reduction in scalar pipe cycles claim (no speed-up factor)"


# ---------------------------------------------------------------- 4. breaking

SRC = [("vllm/v1/engine/core.py", 10, 2)]


@pytest.mark.parametrize(
    "body",
    [
        "Breaking down the cost per layer shows the gather dominates.",
        "This avoids breaking ties arbitrarily.",
        "- [ ] Breaking change",
        "This is not a breaking change.",
    ],
)
def test_breaking_needs_a_breaking_phrase(body: str) -> None:
    assert "breaking" not in ANALYZER.analyze(make_pr("[Core] Tweak", SRC, body=body)).flag_ids


@pytest.mark.parametrize(
    "body",
    [
        "BREAKING: the default changes.",
        "This is a breaking change for plugin authors.",
        "Breaking: `--foo` now requires a value.",
        "Backward-incompatible change to the output format.",
    ],
)
def test_breaking_phrases_are_found(body: str) -> None:
    assert "breaking" in ANALYZER.analyze(make_pr("[Core] Tweak", SRC, body=body)).flag_ids


def test_removing_a_dead_env_var_is_a_refactor_not_breaking() -> None:
    # Issue 21: the title says no one can use it; "remove" alone is no evidence of a break.
    title = "[Misc] Remove dead VLLM_RPC_TIMEOUT env var and fix profiling doc that references it"
    for files in (None, [("vllm/envs.py", 0, 6), ("vllm/v1/engine/core_client.py", 1, 3)]):
        analysis = ANALYZER.analyze(make_pr(title, files))
        assert analysis.kind == "refactor"
        assert "breaking" not in analysis.flag_ids
    # A label or a stated break still counts.
    labelled = ANALYZER.analyze(make_pr(title, None, labels=["breaking"]))
    assert "breaking" in labelled.flag_ids


@pytest.mark.parametrize(
    "title",
    [
        "[Refactor] Remove unused helper arguments from the scheduler",
        "[Core] Remove redundant config options check",
        "[Misc] Drop dead `--foo` handling code",
        "[Model] Remove the num_heads parameter from attention helper",
    ],
)
def test_removal_without_evidence_is_not_breaking(title: str) -> None:
    assert "breaking" not in ANALYZER.analyze(make_pr(title, None)).flag_ids


@pytest.mark.parametrize(
    "title",
    [
        "[Frontend] Remove the --disable-log-requests CLI flag",
        "[Core] Remove the deprecated `best_of` sampling parameter",
        "[API] Drop the /v1/legacy endpoint",
    ],
)
def test_removed_public_option_or_api_is_breaking(title: str) -> None:
    assert "breaking" in ANALYZER.analyze(make_pr(title, None)).flag_ids


def test_net_removal_in_envs_py_is_breaking_and_a_default_change_is_not() -> None:
    removed = ANALYZER.analyze(make_pr("[Core] Tidy", [("vllm/envs.py", 0, 5)]))
    flag = next(f for f in removed.flags if f.id == "breaking")
    assert flag.reason == "removes 5 lines from vllm/envs.py (user-facing settings)"
    changed = ANALYZER.analyze(make_pr("[Core] Tidy", [("vllm/envs.py", 1, 1)]))
    assert "breaking" not in changed.flag_ids


def test_dead_code_removal_stays_non_breaking() -> None:
    analysis = ANALYZER.analyze(make_pr("[Refactor] Remove dead code in parallel_state", None))
    assert "breaking" not in analysis.flag_ids


# ---------------------------------------------------------------- 6. platform groups


def test_amd_cpu_title_stays_cpu() -> None:
    title = "[CPU][Zen] Route W8A8 and W4A16 linear inference through zentorch on AMD Zen CPUs"
    ids = ANALYZER.analyze(make_pr(title)).module_ids
    assert "cpu" in ids and "rocm" not in ids


def test_title_word_yields_to_a_platform_tag() -> None:
    ids = ANALYZER.analyze(make_pr("[CPU] Enable AVX-512 GEMM on AMD processors")).module_ids
    assert "cpu" in ids and "rocm" not in ids
    # Without a platform tag the word still counts.
    assert "rocm" in ANALYZER.analyze(make_pr("Enable GEMM on AMD processors")).module_ids
    # Files are evidence of their own: a path match is kept whatever the tags say.
    files = [("vllm/v1/attention/backends/cpu_attn.py", 10, 1), ("csrc/rocm/x.cu", 10, 1)]
    assert "rocm" in ANALYZER.analyze(make_pr("[CPU] x on AMD", files)).module_ids


# ---------------------------------------------------------------- 7. explain counts


def test_path_reason_counts_files_per_pattern() -> None:
    files = [
        ("csrc/rocm/attention.cu", 10, 1),
        ("vllm/platforms/rocm.py", 5, 1),
        ("vllm/model_executor/layers/rocm_aiter_fused_moe.py", 5, 1),
    ]
    rocm = next(m for m in ANALYZER.analyze(make_pr("x", files)).modules if m.id == "rocm")
    assert "csrc/rocm/** (3 files)" not in rocm.rule
    assert "csrc/rocm/**" in rocm.rule and rocm.rule.startswith("paths ")
    assert "(2 files)" in rocm.rule  # the two other files match one other pattern
