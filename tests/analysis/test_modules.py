from __future__ import annotations

import pytest

from bot.analysis.titles import parse_title
from tests.analysis.analysis_factory import ANALYZER, make_pr


@pytest.mark.parametrize(
    ("title", "module"),
    [
        ("[Spec Decode] Fix drafter", "spec-decode"),
        ("[SpecDecode] Fix drafter", "spec-decode"),
        ("[spec-decode] Fix drafter", "spec-decode"),
        ("[MRV2] Something", "model-runner"),
        ("[Model Runner V2] Something", "model-runner"),
        ("[ModelRunnerV2] Something", "model-runner"),
        ("[P/D] Something", "kv-connector"),
        ("[PD] Something", "kv-connector"),
        ("[NIXL] Something", "kv-connector"),
        ("[NixlConnector] Something", "kv-connector"),
        ("[Mooncake] Something", "kv-connector"),
        ("[KVConnector] Something", "kv-connector"),
        ("[KV Connector] Something", "kv-connector"),
        ("[Rust Frontend] Something", "rust-frontend"),
        ("[XPU] Something", "xpu"),
        ("[DSV4] Something", "models"),
        ("[MM] Something", "multimodal"),
        ("[CG] Something", "compile"),
        ("[WideEP] Something", "moe"),
        ("[CI/Build] Something", "ci-build"),
        ("[ROCm] Something", "rocm"),
        ("[MoE/b12x] Something", "moe"),
        ("fix(config): something", "engine"),
    ],
)
def test_title_tag_aliases_normalise_to_module_ids(title: str, module: str) -> None:
    analysis = ANALYZER.analyze(make_pr(title))
    assert analysis.primary_module == module, analysis.modules


def test_series_markers_are_ignored_and_do_not_hide_later_tags() -> None:
    info = parse_title("[KVConnector][1/N] PP-aware handshake")
    assert [t.norm for t in info.tags] == ["kvconnector"]
    assert parse_title("[10b/n] Migrate kernels").tags == ()
    assert parse_title("[Bugfix]Fix thing").rest == "Fix thing"


SEED_CASES = [
    # (title, files, expected module subset, primary)
    (
        "[ROCm][Perf] HIP-native fused MoE W4A16 kernel for RDNA3 (gfx1100)",
        [
            ("csrc/rocm/moe_wna16_rdna3.cu", 900, 0),
            ("vllm/model_executor/layers/fused_moe/rocm_wna16_moe.py", 240, 10),
            ("vllm/model_executor/layers/quantization/moe_wna16.py", 40, 5),
            ("tests/kernels/moe/test_rdna3_w4a16.py", 120, 0),
        ],
        {"rocm", "moe", "quantization"},
        None,
    ),
    (
        "[Spec Decode] Remove unsupported tree attention backend",
        [
            ("vllm/v1/attention/backends/tree_attn.py", 0, 820),
            ("vllm/v1/spec_decode/eagle.py", 30, 310),
            ("vllm/v1/attention/backends/registry.py", 0, 6),
            ("tests/v1/spec_decode/test_tree_attention.py", 0, 260),
        ],
        {"attention", "spec-decode"},
        None,
    ),
    (
        "[NIXL] Plan-based transfer refactor (3/N): EngineTransferPlan and RegionPlan",
        [
            ("vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py", 420, 380),
            ("vllm/distributed/kv_transfer/kv_connector/v1/nixl/plan.py", 300, 0),
            ("tests/v1/kv_connector/unit/test_nixl_connector.py", 80, 20),
        ],
        {"kv-connector"},
        "kv-connector",
    ),
    (
        "[Core] Replace routed-experts replay with a device cache",
        [
            ("vllm/model_executor/layers/fused_moe/routed_experts_capturer.py", 260, 180),
            ("vllm/v1/worker/gpu_model_runner.py", 40, 12),
            ("vllm/v1/engine/core.py", 8, 3),
        ],
        {"moe", "model-runner", "engine"},
        "moe",
    ),
    (
        "[Model] Add Gemma4 MTP speculative decoding",
        [
            ("vllm/model_executor/models/gemma4_mtp.py", 520, 0),
            ("vllm/model_executor/models/registry.py", 2, 0),
            ("vllm/v1/spec_decode/eagle.py", 40, 5),
        ],
        {"models", "spec-decode"},
        None,
    ),
    (
        "[Tool Parser] Add LFM2 tool call parser",
        [
            ("vllm/tool_parsers/lfm2_tool_parser.py", 380, 0),
            ("tests/tool_parsers/test_lfm2_tool_parser.py", 210, 0),
        ],
        {"tool-calling"},
        "tool-calling",
    ),
    (
        "[CPU] W8A16 block-quantised linear via AMX",
        [
            ("csrc/cpu/w8a16_amx.cpp", 600, 0),
            ("vllm/model_executor/layers/quantization/cpu_w8a16.py", 120, 0),
        ],
        {"cpu", "quantization"},
        "cpu",
    ),
    (
        "[Bugfix][ROCm] Fix MLA prefill scale computation",
        [("vllm/v1/attention/backends/mla/rocm_aiter_mla.py", 12, 4)],
        {"rocm", "attention"},
        None,
    ),
    (
        "[Metrics] Add Mooncake transfer stats",
        [
            ("vllm/distributed/kv_transfer/kv_connector/v1/mooncake_connector.py", 150, 10),
            ("vllm/v1/metrics/loggers.py", 20, 0),
        ],
        {"kv-connector", "metrics"},
        "kv-connector",
    ),
    (
        "Upgrade xgrammar to 0.2.0 and add strict structural tags",
        [
            ("requirements/common.txt", 1, 1),
            ("vllm/v1/structured_output/backend_xgrammar.py", 90, 20),
        ],
        {"structured-output", "dependencies"},
        "structured-output",
    ),
]


@pytest.mark.parametrize(("title", "files", "expected", "primary"), SEED_CASES)
def test_realistic_prs_land_in_maintainer_modules(
    title: str, files: list[tuple[str, int, int]], expected: set[str], primary: str | None
) -> None:
    analysis = ANALYZER.analyze(make_pr(title, files))
    assert expected <= set(analysis.module_ids), analysis.modules
    if primary:
        assert analysis.primary_module == primary, analysis.modules
    for m in analysis.modules:
        assert m.rule, f"{m.id} has no explanation"


def test_primary_module_is_the_one_with_most_lines_when_files_known() -> None:
    pr = make_pr(
        "[Frontend] Add endpoint",
        [
            ("vllm/entrypoints/openai/api_server.py", 10, 0),
            ("vllm/v1/core/sched/scheduler.py", 200, 0),
        ],
    )
    analysis = ANALYZER.analyze(pr)
    assert analysis.module_ids[:2] == ["scheduler", "frontend"]
    assert analysis.modules[0].lines == 200
    assert "path vllm/v1/core/sched/**" in analysis.modules[0].rule
    assert "tag [Frontend]" in analysis.modules[1].rule


def test_title_tags_decide_primary_when_files_unknown() -> None:
    analysis = ANALYZER.analyze(make_pr("[Bugfix][ROCm][DSV4] Fix AITER MXFP4 MoE weight loading"))
    assert analysis.primary_module == "rocm"
    assert {"rocm", "models", "moe", "quantization"} <= set(analysis.module_ids)
    assert analysis.modules[0].rule == "tag [ROCm]"


def test_tests_and_docs_next_to_code_do_not_become_modules() -> None:
    pr = make_pr(
        "[Sampler] Faster top-p",
        [
            ("vllm/v1/sample/ops/topk_topp_triton.py", 80, 10),
            ("tests/v1/sample/test_topk_topp.py", 40, 0),
            ("docs/features/sampling.md", 5, 0),
        ],
    )
    assert ANALYZER.analyze(pr).module_ids == ["sampling"]


def test_docs_only_pr_is_in_docs() -> None:
    analysis = ANALYZER.analyze(make_pr("Fix typo", [("docs/usage/faq.md", 1, 1)]))
    assert analysis.module_ids == ["docs"]


def test_unknown_files_and_title_fall_back_with_reason() -> None:
    analysis = ANALYZER.analyze(make_pr("Handle spinloop ext load failure gracefully"))
    assert analysis.module_ids == ["other"]
    assert "no rule matched" in analysis.modules[0].rule


def test_hints_only_apply_without_known_files() -> None:
    unknown = ANALYZER.analyze(make_pr("Tune kernel configs for Qwen3"))
    known = ANALYZER.analyze(make_pr("Tune kernel configs for Qwen3", [("csrc/foo.cu", 5, 5)]))
    assert "models" in unknown.module_ids
    assert "models" not in known.module_ids
