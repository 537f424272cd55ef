"""A synthetic vLLM week (2026-W23) and the week before, already analysed.

Analyses are written out here (not computed by bot.analysis) so the digest goldens only
change when the digest changes. Titles, paths and bodies imitate real vLLM PRs, including
the PR template, checklists, HTML comments and sign-offs the summary must strip.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.models import (
    Analysis,
    AnalyzedPR,
    Claim,
    FileChange,
    Flag,
    ModuleMatch,
    PullRequest,
    ScoreContribution,
)
from bot.core.weeks import iso_week

REPO = "vllm-project/vllm"
WINDOW = iso_week(2026, 23, UTC)
PREVIOUS_WINDOW = WINDOW.previous()

MODULE_NAMES: dict[str, tuple[str, str]] = {
    "rocm": ("ROCm", "ROCm"),
    "xpu": ("Intel XPU", "Intel XPU"),
    "cpu": ("CPU backend", "CPU 后端"),
    "tpu": ("TPU", "TPU"),
    "cuda-kernels": ("CUDA kernels", "CUDA 内核"),
    "attention": ("Attention", "注意力"),
    "moe": ("MoE", "MoE"),
    "quantization": ("Quantization", "量化"),
    "spec-decode": ("Speculative decoding", "推测解码"),
    "kv-connector": ("KV connector", "KV 传输"),
    "kv-cache": ("KV cache", "KV 缓存"),
    "scheduler": ("Scheduler", "调度器"),
    "model-runner": ("Model runner", "模型执行器"),
    "distributed": ("Distributed", "分布式"),
    "compile": ("torch.compile", "torch.compile 编译"),
    "models": ("Models", "模型"),
    "multimodal": ("Multimodal", "多模态"),
    "frontend": ("Frontend", "前端"),
    "rust-frontend": ("Rust frontend", "Rust 前端"),
    "tool-calling": ("Tool calling", "工具调用"),
    "structured-output": ("Structured output", "结构化输出"),
    "lora": ("LoRA", "LoRA"),
    "sampling": ("Sampling", "采样"),
    "metrics": ("Metrics", "指标"),
    "ci-build": ("CI/build", "CI 与构建"),
    "docs": ("Docs", "文档"),
    "tests": ("Tests", "测试"),
    "benchmarks": ("Benchmarks", "基准测试"),
    "dependencies": ("Dependencies", "依赖"),
}

TEMPLATE_TAIL = """
## Test Plan

pytest tests/kernels -k rocm

## Test Result

All passed.

---
<details>
<summary> Essential Elements of an Effective PR Description Checklist </summary>

- [x] The purpose of the PR, such as "Fix some issue (link existing issues this PR will resolve)".
- [x] The test plan, such as providing test command.
- [ ] The test results, such as pasting the results comparison before and after, or e2e results
- [ ] (Optional) The necessary documentation update.
- [ ] (Optional) Release notes update.
</details>

**BEFORE SUBMITTING, PLEASE READ <https://docs.vllm.ai/en/latest/contributing>**
"""

FLAG_REASONS = {
    "core-path": "changes vllm/v1/core/sched/scheduler.py",
    "missing-tests": "changes 240 lines of code and no test file",
    "breaking": "removes a public API",
    "dependency": "changes requirements/rocm.txt",
    "large": "1,200 lines changed",
    "revert": "title starts with Revert",
}


def _pr(
    number: int,
    title: str,
    author: str,
    modules: list[str],
    kind: str,
    score: float,
    *,
    files: list[tuple[str, int, int]],
    flags: tuple[str, ...] = (),
    claims: tuple[tuple[str, float | None, str | None], ...] = (),
    body: str = "",
    day: int | None = None,
    window_start: datetime = WINDOW.start,
) -> AnalyzedPR:
    day = number % 7 if day is None else day
    merged = window_start + timedelta(days=day, hours=3 + number % 17, minutes=number % 60)
    changes = [FileChange(path, add, rem) for path, add, rem in files]
    pr = PullRequest(
        repo=REPO,
        number=number,
        title=title,
        url=f"https://github.com/{REPO}/pull/{number}",
        state="merged",
        created_at=merged - timedelta(days=3),
        merged_at=merged,
        body=body,
        author=author,
        additions=sum(f.additions for f in changes),
        deletions=sum(f.deletions for f in changes),
        changed_files=len(changes),
        files=changes,
    )
    contributions = [
        ScoreContribution("core-path", 3.0, "touches a core path")
        if "core-path" in flags
        else ScoreContribution("module", 1.5, f"changes {modules[0]}"),
        ScoreContribution("size", 1.0, f"{pr.lines:,} lines changed"),
    ]
    if claims:
        contributions.insert(0, ScoreContribution("claim", 2.0, f"claims {claims[0][0]}"))
    analysis = Analysis(
        modules=[ModuleMatch(m, f"path vllm/{m}/**", 0) for m in modules],
        kind=kind,
        kind_reason=f"title tag [{kind}]",
        flags=[Flag(f, FLAG_REASONS[f]) for f in flags],
        score=score,
        contributions=contributions,
        claims=[Claim(text, factor, metric) for text, factor, metric in claims],
    )
    return AnalyzedPR(pr, analysis)


def this_week() -> list[AnalyzedPR]:
    return [
        _pr(
            44075,
            "[Kernel][ROCm] Native W4A16 MoE kernel for AMD RDNA3 (gfx1100)",
            "JartX",
            ["rocm", "moe", "quantization", "tests"],
            "performance",
            9.4,
            files=[
                ("csrc/rocm/moe_wna16.cu", 820, 10),
                ("vllm/model_executor/layers/fused_moe/rocm_wna16.py", 310, 22),
                ("tests/kernels/moe/test_rocm_wna16.py", 140, 0),
            ],
            flags=("large",),
            claims=(("2.15x throughput", 2.15, "throughput"),),
            body="<!-- markdownlint-disable -->\n## Purpose\n\nAdds a HIP-native fused MoE "
            "W4A16 kernel for RDNA3 GPUs. On an RX 7900 XTX this gives 2.15x throughput on "
            "Qwen3-30B-A3B-GPTQ.\n" + TEMPLATE_TAIL,
        ),
        _pr(
            43241,
            "[Model Runner V2][Spec Decode] Add Gemma4 MTP support",
            "TheEpicDolphin",
            ["spec-decode", "model-runner", "models"],
            "model",
            9.4,
            files=[
                ("vllm/v1/spec_decode/mtp.py", 420, 35),
                ("vllm/model_executor/models/gemma4_mtp.py", 380, 0),
                ("vllm/v1/worker/gpu/model_runner.py", 45, 12),
            ],
            flags=("core-path", "missing-tests"),
            claims=(("319% speedup on H100", 4.19, "speedup"),),
            body="## Purpose\n\nFIX #42001\n\nThis PR adds Gemma4 multi-token prediction "
            "(MTP) to Model Runner V2, with centroids masking to cut lm_head compute. "
            "Up to 319% speedup on H100.\n\n![bench](https://example.com/b.png)\n" + TEMPLATE_TAIL,
        ),
        _pr(
            42187,
            "[ModelRunnerV2] Avoid pipeline parallel bubbles",
            "njhill",
            ["model-runner", "scheduler", "distributed"],
            "performance",
            9.4,
            files=[
                ("vllm/v1/core/sched/scheduler.py", 160, 80),
                ("vllm/v1/worker/gpu/model_runner.py", 210, 95),
                ("vllm/v1/engine/core.py", 40, 18),
            ],
            flags=("core-path", "missing-tests"),
            claims=(("3.17x TPS", 3.17, "TPS"),),
            body="Reworks pipeline-parallel scheduling so that micro-batches no longer wait "
            "for the slowest stage. TPS improves 1.24-3.17x.\n\nSigned-off-by: Nick Hill "
            "<nick@example.com>",
        ),
        _pr(
            37505,
            "[KVCache] Support Pluggable KVCacheSpec",
            "MengqingCao",
            ["kv-cache", "tests"],
            "feature",
            9.4,
            files=[
                ("vllm/v1/kv_cache_interface.py", 150, 30),
                ("vllm/v1/core/kv_cache_utils.py", 90, 40),
                ("tests/v1/core/test_kv_cache_spec_registry.py", 120, 0),
            ],
            flags=("core-path",),
            body="### What this PR does / why we need it?\n\nLets out-of-tree platforms "
            "register their own `KVCacheSpec` subclasses through an external registry.\n\n"
            "### Does this PR introduce _any_ user-facing change?\nNo.\n\n"
            "- vLLM version: v0.20.2\n",
        ),
        _pr(
            37149,
            "[XPU] Transparent sleep mode on XPU",
            "yma11",
            ["xpu"],
            "feature",
            9.2,
            files=[("vllm/platforms/xpu.py", 88, 10), ("vllm/device_allocator/xpu.py", 240, 0)],
            flags=("missing-tests",),
            body="## Purpose\nEnable sleep mode (weights offload and KV cache release) on "
            "Intel XPU, matching CUDA behaviour.\n",
        ),
        _pr(
            44699,
            "[DSV4] Split sparse MLA metadata into its own backend",
            "WoosukKwon",
            ["attention", "models"],
            "refactor",
            9.2,
            files=[
                ("vllm/v1/attention/backends/mla/sparse_mla.py", 310, 120),
                ("vllm/model_executor/models/deepseek_v4.py", 40, 180),
            ],
            flags=("core-path", "missing-tests", "breaking"),
            body="Moves the DeepSeek V4 sparse MLA metadata builder out of the generic MLA "
            "backend. The old `SparseMLAMetadata` import path is removed.\n\n"
            "- [x] I have read the contributing guide\n",
        ),
        _pr(
            41968,
            "[KV Connector] Object-storage KV offloading tier for NIXL",
            "effi-ofer",
            ["kv-connector", "distributed"],
            "feature",
            9.2,
            files=[
                ("vllm/distributed/kv_transfer/kv_connector/v1/nixl_obj.py", 640, 0),
                ("requirements/common.txt", 1, 0),
            ],
            flags=("missing-tests", "dependency", "large"),
            body="## Purpose\n\nAdds an object-storage second tier to the NIXL KV offloading "
            "connector, so evicted KV blocks can be stored in S3-compatible buckets.\n",
        ),
        _pr(
            40426,
            "[ROCm] Integrate AITER hipBLASLt online tuning for FP8 linear",
            "hanlin12-AMD",
            ["rocm", "quantization"],
            "performance",
            9.2,
            files=[
                ("vllm/model_executor/layers/quantization/utils/rocm_fp8.py", 160, 20),
                ("requirements/rocm.txt", 1, 1),
            ],
            flags=("dependency",),
            claims=(("+18% decode throughput", 1.18, "throughput"),),
            body="## Purpose\nUse AITER's hipBLASLt online tuning for FP8 linear layers on "
            "MI300X, +18% decode throughput on Llama-3.1-70B-FP8.\n",
        ),
        _pr(
            44340,
            "[Quantization] Add WNA8O8Int linear and WNInt embedding to compressed-tensors",
            "mgoin",
            ["quantization", "tests"],
            "feature",
            9.0,
            files=[
                ("vllm/model_executor/layers/quantization/compressed_tensors/wna8o8.py", 280, 0),
                ("tests/quantization/test_compressed_tensors.py", 60, 2),
            ],
            body="<!-- Please describe the change -->\nAdds the WNA8O8Int linear scheme and "
            "WNInt embeddings to compressed-tensors, e.g. for int8 checkpoints. The int8 KV "
            "path now shares one kernel.",
        ),
        _pr(
            41980,
            "[Distributed] use split_group for pytorch process group creation",
            "tushar00jain",
            ["distributed"],
            "performance",
            8.8,
            files=[("vllm/distributed/parallel_state.py", 70, 25)],
            flags=("core-path", "missing-tests"),
            body="Use `split_group` instead of `new_group` to create process groups, which "
            "makes initialisation faster on large clusters.",
        ),
        _pr(
            44479,
            "[Frontend] Reorganise online serving utility modules",
            "noooop",
            ["frontend"],
            "refactor",
            8.8,
            files=[
                ("vllm/entrypoints/openai/serving_utils.py", 420, 380),
                ("vllm/entrypoints/utils.py", 120, 300),
            ],
            flags=("large", "missing-tests"),
            body="## Purpose\n\nCloses #44001\n\nMoves the shared helpers of the online "
            "serving entrypoints into one `serving_utils` package.\n",
        ),
        _pr(
            44700,
            "[Perf] Route decode requests in mixed batches to dedicated kernels for Qwen3.5",
            "vadiklyutiy",
            ["attention", "models"],
            "performance",
            8.7,
            files=[("vllm/v1/attention/backends/gdn_attn.py", 95, 30)],
            flags=("core-path",),
            claims=(("+24% throughput", 1.24, "throughput"),),
            body="Routes the decode part of mixed prefill/decode batches to the decode-only "
            "GDN kernel. Throughput +24% on Qwen3.5-35B-A3B.",
        ),
        _pr(
            43150,
            "[Bugfix] Use FP64 for Gumbel sampling to fix accuracy drift",
            "tianyu-z",
            ["sampling"],
            "bugfix",
            8.1,
            files=[
                ("vllm/v1/sample/ops/topk_topp_sampler.py", 12, 4),
                ("tests/v1/sample/test_gumbel.py", 30, 0),
            ],
            body="Signed-off-by: Tianyu <t@example.com>",
        ),
        _pr(
            42139,
            "[XPU][MoE] support block_fp8_moe on xpu",
            "zufangzhu",
            ["xpu", "moe", "quantization"],
            "feature",
            7.4,
            files=[("vllm/model_executor/layers/fused_moe/xpu_fp8.py", 140, 10)],
            flags=("missing-tests",),
            body="Supports block FP8 MoE on XPU via the IPEX fused MoE kernels.",
        ),
        _pr(
            43307,
            "[Kernel][Test] Extend lightning_attn and awq_triton kernel tests to XPU",
            "adobrzyn",
            ["xpu", "tests"],
            "test",
            4.2,
            files=[("tests/kernels/test_lightning_attn.py", 40, 8)],
        ),
        _pr(
            43421,
            "[XPU][Mamba] Triton-based selective scan forward op for XPU",
            "mfylcek",
            ["xpu"],
            "feature",
            6.9,
            files=[("vllm/model_executor/layers/mamba/ops/xpu_ssm.py", 180, 0)],
            flags=("missing-tests",),
            body="| before | after |\n|---|---|\n| 1 | 2 |\n\nAdds a Triton selective scan "
            "forward op so Mamba models run on XPU.",
        ),
        _pr(
            42832,
            "[ROCm] Fuse RoPE and FP8 quantization in the attention prologue",
            "charlifu",
            ["rocm", "attention"],
            "performance",
            7.8,
            files=[("vllm/v1/attention/backends/rocm_aiter_fa.py", 60, 20)],
            flags=("core-path", "missing-tests"),
            body="```python\nfused = rope_fp8(q, k)\n```\nFuses RoPE with FP8 per-token "
            "quantization for the AITER flash attention backend.",
        ),
        _pr(
            43500,
            "[ROCm][CI] Stabilise EAGLE3 acceptance tests",
            "AndreasKaratzas",
            ["rocm", "ci-build", "tests"],
            "ci",
            3.1,
            files=[(".buildkite/test-amd.yaml", 12, 6), ("tests/spec_decode/test_eagle3.py", 8, 3)],
        ),
        _pr(
            43501,
            "[ROCm][Bugfix] Fix AITER MXFP4 MoE weight shuffle flag",
            "MHYangAMD",
            ["rocm", "moe"],
            "bugfix",
            5.6,
            files=[("vllm/model_executor/layers/fused_moe/rocm_aiter.py", 6, 2)],
            flags=("missing-tests",),
            body="FIX #43400. The shuffle flag was dropped when loading MXFP4 MoE weights.",
        ),
        _pr(
            43779,
            "[Rust Frontend] Streaming generate endpoint",
            "frank-wei",
            ["rust-frontend"],
            "feature",
            6.5,
            files=[("rust/src/server/generate.rs", 260, 15), ("rust/tests/generate.rs", 80, 0)],
            body="Adds streaming `/generate` to the Rust frontend.",
        ),
        _pr(
            43778,
            "[Rust Frontend] Dynamic LoRA adapter management",
            "frank-wei",
            ["rust-frontend", "lora"],
            "feature",
            6.1,
            files=[("rust/src/server/lora.rs", 190, 4)],
            flags=("missing-tests",),
            body="Adds load/unload LoRA adapter endpoints to the Rust frontend.",
        ),
        _pr(
            44311,
            "[Bugfix] Fix chat template rendering with tool calls and reasoning",
            "chaunceyjiang",
            ["frontend", "tool-calling"],
            "bugfix",
            5.2,
            files=[
                ("vllm/entrypoints/chat_utils.py", 20, 9),
                ("tests/entrypoints/test_chat_utils.py", 40, 0),
            ],
            body="Fixes chat templates that dropped reasoning content when tool calls were "
            "present.",
        ),
        _pr(
            44320,
            'Revert "[Core] Prefix-cache aware scheduling for hybrid models"',
            "simon-mo",
            ["scheduler"],
            "revert",
            6.3,
            files=[("vllm/v1/core/sched/scheduler.py", 40, 210)],
            flags=("core-path", "revert"),
            body="Reverts vllm-project/vllm#44100: it broke prefix caching for Mamba hybrids.",
        ),
        _pr(
            44330,
            "[CI/Build] Bump torch to 2.11",
            "huydhn",
            ["ci-build", "dependencies"],
            "ci",
            7.2,
            files=[("requirements/cuda.txt", 2, 2), ("docker/Dockerfile", 4, 4)],
            flags=("dependency", "breaking"),
            body="Bumps torch to 2.11. Custom ops built against 2.10 must be rebuilt.",
        ),
        _pr(
            44331,
            "Bump actions/stale from 10.1.1 to 10.3.0",
            "app/dependabot",
            ["ci-build", "dependencies"],
            "ci",
            1.0,
            files=[(".github/workflows/stale.yml", 1, 1)],
            flags=("dependency",),
            body="Bumps actions/stale from 10.1.1 to 10.3.0.",
        ),
        _pr(
            44341,
            "[Doc] Add INT8 W4A8 docs and Arm's supported quantization schemes",
            "fadara01",
            ["docs", "quantization"],
            "docs",
            2.0,
            files=[("docs/features/quantization/int8.md", 60, 5)],
        ),
        _pr(
            44350,
            "[Misc] Use VLLMValidationError consistently in protocol validators",
            "umut-polat",
            ["frontend"],
            "refactor",
            3.4,
            files=[("vllm/entrypoints/openai/protocol.py", 30, 30)],
        ),
        _pr(
            44351,
            "[Metrics] Exclude KV transfer tokens from iteration_tokens_total",
            "tlrmchlsmth",
            ["metrics", "kv-connector"],
            "bugfix",
            4.8,
            files=[("vllm/v1/metrics/loggers.py", 10, 3)],
            flags=("missing-tests",),
        ),
        _pr(
            44352,
            "[Model] Add Hunyuan-Large-V2 support",
            "newcomer-dev",
            ["models"],
            "model",
            6.0,
            files=[
                ("vllm/model_executor/models/hunyuan_v2.py", 520, 0),
                ("tests/models/registry.py", 3, 0),
            ],
            flags=("large",),
            body="<!-- Thank you for your contribution! -->\n# Purpose\n\nAdd support for "
            "the Hunyuan-Large-V2 model family (dense and MoE).\n\nCo-authored-by: a <a@b.c>",
        ),
        _pr(
            44353,
            "[Structured Output] Upgrade xgrammar to 0.2.0",
            "aarnphm",
            ["structured-output", "dependencies"],
            "feature",
            5.9,
            files=[("requirements/common.txt", 1, 1), ("vllm/v1/structured_output/xg.py", 30, 12)],
            flags=("dependency",),
            body="Upgrades xgrammar to 0.2.0 and adds structural tags (off by default).",
        ),
    ]


def previous_week() -> list[AnalyzedPR]:
    start = PREVIOUS_WINDOW.start
    specs = [
        (43001, "[ROCm] Fix MLA prefill scale", "gshtras", ["rocm", "attention"], "bugfix", 6.0),
        (43002, "[ROCm] AITER bump to v0.1.13", "gshtras", ["rocm", "dependencies"], "ci", 5.0),
        (43003, "[XPU] Enable FP8 KV cache", "yma11", ["xpu", "kv-cache"], "feature", 6.2),
        (43004, "[TPU] Pallas ragged attention fix", "yaochengji", ["tpu"], "bugfix", 5.1),
        (43005, "[TPU] Bump jax", "yaochengji", ["tpu", "dependencies"], "ci", 2.0),
        (43006, "[Spec Decode] EAGLE for Cohere", "benchislett", ["spec-decode"], "model", 7.7),
        (43007, "[Frontend] Responses API parser", "albertoperdomo2", ["frontend"], "feature", 6.0),
        (43008, "[Frontend] Fix n>1 streaming", "DarkLight1337", ["frontend"], "bugfix", 4.0),
        (43009, "[Core] Remove dead code", "yewentao256", ["scheduler"], "refactor", 3.0),
        (43010, "[Doc] Update install guide", "hmellor", ["docs"], "docs", 1.0),
        (43011, "[Distributed] NCCL weight sync", "bedeks", ["distributed"], "feature", 7.0),
        (43012, "[Sampling] Top-p fast path", "cakeng", ["sampling"], "performance", 6.8),
        (43013, "[MoE Refactor] WNA16 oracle", "bnellnm", ["moe"], "refactor", 6.1),
        (43014, "[CI] Shard kernel tests", "khluu", ["ci-build"], "ci", 2.5),
        (43015, "[Bugfix] GLM5 PP loading", "UranusSeven", ["models"], "bugfix", 4.4),
        (
            43016,
            "[Frontend] Tool choice none",
            "hoobnn",
            ["frontend", "tool-calling"],
            "bugfix",
            4.1,
        ),
    ]
    return [
        _pr(
            number,
            title,
            author,
            modules,
            kind,
            score,
            files=[(f"vllm/{modules[0]}/x.py", 10 * (i + 1), i)],
            day=i % 7,
            window_start=start,
        )
        for i, (number, title, author, modules, kind, score) in enumerate(specs)
    ]


NEW_CONTRIBUTORS = {"newcomer-dev", "mfylcek", "someone-not-this-week"}
