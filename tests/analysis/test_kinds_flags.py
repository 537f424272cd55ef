from __future__ import annotations

import pytest

from tests.analysis.analysis_factory import ANALYZER, make_pr

SRC = [("vllm/v1/core/sched/scheduler.py", 40, 10)]

KIND_CASES = [
    ("[Bugfix][ROCm] Fix MLA prefill scale", SRC, "bugfix"),
    ("[ROCm][Perf] Fuse shared experts into the MoE kernel", SRC, "performance"),
    ("[Perf] Faster top-p", None, "performance"),
    ("[Model] Support Step-3.7-Flash", None, "model"),
    ("Add model support for granite speech plus", None, "model"),
    ("[Feature] Add support for JetBrains' Mellum v2 code generation model", None, "model"),
    ("[CI/Build] Bump flashinfer to v0.6.12", None, "ci"),
    ("Bump actions/stale from 10.1.1 to 10.3.0", None, "ci"),
    ("[Security] Validate chat template input", None, "security"),
    ("Fix CVE-2026-12345 in the media loader", None, "security"),
    ('Revert "[MoE Refactor] Migrate MoeWNA16Method quantization to MK oracle"', SRC, "revert"),
    ("[Refactor] Remove dead code in parallel_state", None, "refactor"),
    ("[MoE Refactor] WNA16 MoE backend selection into oracle module", None, "refactor"),
    ("[Doc] Update ViT CUDA graph interfaces", None, "docs"),
    ("docs: clarify ITL acronym", None, "docs"),
    # [Misc] only says "small": the words decide, the tag only when they say nothing.
    ("[Misc] Use VLLMValidationError consistently", None, "refactor"),
    ("[Misc] added unit tests for the core pooling methods", None, "test"),
    ("[Misc] Add unit tests for pooler head classes", None, "test"),
    ("[Misc] Support local image encoding in benchmarks", None, "feature"),
    ("[Misc] Remove dead VLLM_RPC_TIMEOUT env var", None, "refactor"),
    ("[Misc] Nit changes in tiered KV offload", None, "misc"),
    ("[Misc] Tiered KV offload tweaks", None, "misc"),
    ("Skip docs build if PR doesn't affect docs", None, "ci"),
    ("[Rust Frontend] Streaming generate endpoint", None, "feature"),
    ("[EPLB] Make async EPLB default", None, "feature"),
    ("Enable SHM communicator for PowerPC", None, "feature"),
    ("Add a --max-logprobs CLI flag", None, "feature"),
    ("[XPU][Mamba] Triton-based selective scan forward op for XPU", None, "feature"),
    ("[Rust Frontend] Cover different thinking modes in roundtrip tests", None, "test"),
    ("[EC Connector] Non blocking EC Connector lookup", None, "performance"),
    ("[XPU] fallback to TRITON_ATTN for vit attn on xpu", None, "bugfix"),
    ("[Attention][CPU] Standardize kv layout to blocks first", None, "refactor"),
    ("[Minor] Remove FlashInfer version check in topk_topp_sampler", None, "refactor"),
    # Words that are not kind signals must not invent one.
    ("[Core] Freeze garbage collector in workers after model initialization", None, "misc"),
    ("[Bugfix] Fix broken link", [("docs/usage/faq.md", 1, 1)], "docs"),
    ("[Bugfix] Fix flaky scheduler test", [("tests/v1/core/test_scheduler.py", 3, 3)], "test"),
    ("[ModelRunnerV2] Avoid pipeline parallel bubbles", None, "performance"),
    ("[Core] Support pluggable KVCacheSpec", None, "feature"),
]


@pytest.mark.parametrize(("title", "files", "kind"), KIND_CASES)
def test_kind_table(title: str, files: list[tuple[str, int, int]] | None, kind: str) -> None:
    analysis = ANALYZER.analyze(make_pr(title, files))
    assert analysis.kind == kind, analysis.kind_reason
    assert analysis.kind_reason


def test_stated_speedup_makes_an_untagged_change_performance() -> None:
    pr = make_pr("[ModelRunnerV2] Pipeline parallel bubbles", body="TPS 1.24-3.17x on 4xH100")
    analysis = ANALYZER.analyze(pr)
    assert analysis.kind == "performance"
    assert "TPS 1.24-3.17x" in analysis.kind_reason


def flags_of(pr):  # type: ignore[no-untyped-def]
    return {f.id: f.reason for f in ANALYZER.analyze(pr).flags}


def test_core_path_names_the_component() -> None:
    flags = flags_of(make_pr("[Core] Tweak", [("vllm/v1/core/sched/scheduler.py", 5, 1)]))
    assert flags["core-path"] == "touches the scheduler"


def test_core_path_ignores_tests_of_core_code() -> None:
    flags = flags_of(make_pr("[Test] x", [("tests/v1/core/sched/test_scheduler.py", 50, 1)]))
    assert "core-path" not in flags


def test_missing_tests_threshold_and_reason() -> None:
    big = make_pr("[Kernel] New op", [("csrc/ops/new_op.cu", 300, 20)])
    assert flags_of(big)["missing-tests"] == "320 lines of source changed, no test file touched"
    with_tests = make_pr(
        "[Kernel] New op",
        [("csrc/ops/new_op.cu", 300, 20), ("tests/kernels/test_new_op.py", 50, 0)],
    )
    assert "missing-tests" not in flags_of(with_tests)
    small = make_pr("[Kernel] New op", [("csrc/ops/new_op.cu", 30, 20)])
    assert "missing-tests" not in flags_of(small)


def test_large_by_lines_or_files() -> None:
    lines = flags_of(make_pr("[Model] Add X", [("vllm/model_executor/models/x.py", 1400, 50)]))
    assert lines["large"] == "1,450 lines changed (> 1,000)"
    many = [(f"vllm/model_executor/models/m{i}.py", 2, 1) for i in range(45)]
    assert flags_of(make_pr("[Model] Touch many", many))["large"] == "45 files changed (> 40)"


@pytest.mark.parametrize(
    ("title", "body", "labels", "expected"),
    [
        (
            "[Spec Decode] Remove tree attention backend",
            "",
            [],
            "title: Remove tree attention backend",
        ),
        (
            "[KVConnector] Remove legacy constructor compatibility (pre-v0.12.0)",
            "",
            [],
            "title: Remove legacy",
        ),
        ("[Misc] Drop the --disable-log-stats flag", "", [], "title: Drop the --disable-log-stats"),
        ("[Frontend] Rename VLLM_USE_FOO env var", "", [], "title: Rename VLLM_USE_FOO"),
        (
            "[Core] New weight transfer API",
            "BREAKING CHANGE: init() signature changed",
            [],
            "'BREAKING CHANGE' in the description",
        ),
        ("[Core] Tweak", "", ["breaking"], "labelled breaking"),
    ],
)
def test_breaking_reasons(title: str, body: str, labels: list[str], expected: str) -> None:
    pr = make_pr(title, [("vllm/v1/engine/core.py", 10, 30)], body=body, labels=labels)
    assert flags_of(pr)["breaking"].startswith(expected)


@pytest.mark.parametrize(
    ("title", "body"),
    [
        ("[Refactor] Remove dead code", ""),
        ("[Bugfix] Fix tool call args dropped in Responses API streaming", ""),
        ("[Core] Tweak", "This is a non-breaking change."),
        ("[Core] Tweak", "No breaking changes."),
    ],
)
def test_not_breaking(title: str, body: str) -> None:
    assert "breaking" not in flags_of(
        make_pr(title, [("vllm/v1/engine/core.py", 10, 30)], body=body)
    )


def test_docs_only_removal_is_not_breaking() -> None:
    pr = make_pr("[Doc] remove --async-scheduling from configs and docs", [("docs/a.md", 0, 20)])
    assert "breaking" not in flags_of(pr)


def test_deleted_public_entry_point_is_breaking() -> None:
    path = "vllm/entrypoints/openai/old_server.py"
    pr = make_pr("[Frontend] Cleanup", [(path, 0, 300)], change_types={path: "DELETED"})
    assert flags_of(pr)["breaking"] == f"deletes or renames public file {path}"


@pytest.mark.parametrize(
    ("title", "files", "expected"),
    [
        ("[CI/Build] Bump flashinfer to v0.6.12", None, "bumps flashinfer to v0.6.12"),
        ("Upgrade xgrammar to 0.2.0", None, "upgrades xgrammar to 0.2.0"),
        ("[ROCm] Upgrade AITER to v0.1.13.post1", None, "upgrades AITER to v0.1.13.post1"),
        ("Bump actions/stale from 10.1.1 to 10.3.0", None, "bumps actions/stale to 10.3.0"),
        (
            "[Misc] tidy",
            [("requirements/cuda.txt", 1, 1), ("setup.py", 2, 0)],
            "changes requirements/cuda.txt and 1 more",
        ),
        (
            "[ROCm] Rebuild image",
            [("docker/Dockerfile.rocm", 3, 1)],
            "changes docker/Dockerfile.rocm",
        ),
    ],
)
def test_dependency_reason(
    title: str, files: list[tuple[str, int, int]] | None, expected: str
) -> None:
    assert flags_of(make_pr(title, files))["dependency"] == expected


@pytest.mark.parametrize(
    ("title", "body", "expected"),
    [
        (
            'Revert "[MoE Refactor] Migrate MoeWNA16Method quantization to MK orac…',
            "",
            'reverts "[MoE Refactor] Migrate MoeWNA16Method quantization to MK orac"',
        ),
        (
            'Revert "[Core] Faster scheduler (#41234)"',
            "",
            'reverts #41234 "[Core] Faster scheduler"',
        ),
        ("Revert #41234", "", "reverts #41234"),
        ("[CI] Reverted gitignore changes", "", "reverts an earlier change"),
        (
            "Revert scheduler change",
            "Reverts vllm-project/vllm#40000 because of a hang",
            "reverts #40000",
        ),
    ],
)
def test_revert_flag_names_the_reverted_pr(title: str, body: str, expected: str) -> None:
    flags = flags_of(make_pr(title, [("vllm/v1/core/sched/scheduler.py", 10, 30)], body=body))
    assert flags["revert"] == expected


def test_no_file_based_flag_when_files_unknown() -> None:
    pr = make_pr(
        "[Core] Huge scheduler rewrite", None, body="Rewrites vllm/v1/core/sched/scheduler.py"
    )
    pr.additions, pr.deletions = 0, 0
    flags = flags_of(pr)
    assert not {"core-path", "missing-tests", "large"} & set(flags)
    # Title words are not file-based, so a stated pin or removal still counts.
    assert "dependency" in flags_of(make_pr("Bump torch to 2.11", None))
    assert "breaking" in flags_of(make_pr("[Core] Remove the V0 engine API", None))


def test_a_typo_fix_in_a_dependency_file_is_not_a_dependency_change() -> None:
    # branch prose: "[Doc] Fix typo pleause -> please in setup.py warning" was a dependency risk.
    pr = make_pr("[Doc] Fix typo pleause -> please in setup.py warning", [("setup.py", 1, 1)])
    assert "dependency" not in flags_of(pr)
    assert "dependency" in flags_of(make_pr("[Build] Require numpy<3", [("setup.py", 1, 1)]))
