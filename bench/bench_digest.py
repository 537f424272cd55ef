"""Digest build time and peak memory for a 250-PR and a 10,000-PR week (warm data).

    .venv/bin/python bench/bench_digest.py

PRs are synthetic but shaped like vLLM's (titles, paths, bodies with the PR template).
When bot.analysis is importable they are analysed with the real vllm rule set, timed
separately; the goal figures are for build_digest + document + markdown rendering.
Goals: 250 PRs under 0.3 s, 10,000 PRs under 5 s.
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc
from datetime import UTC, timedelta

from bot.core.models import (
    FLAG_IDS,
    KIND_IDS,
    Analysis,
    AnalyzedPR,
    Claim,
    FileChange,
    Flag,
    ModuleMatch,
    PullRequest,
)
from bot.core.weeks import iso_week
from bot.digest.build import build_digest
from bot.digest.document import digest_document
from bot.digest.render import render_html, render_json, render_markdown

WINDOW = iso_week(2026, 23, UTC)
AREAS = [
    ("rocm", "[ROCm]", "vllm/platforms/rocm.py"),
    ("xpu", "[XPU]", "vllm/platforms/xpu.py"),
    ("attention", "[Attention]", "vllm/v1/attention/backends/flash_attn.py"),
    ("moe", "[MoE]", "vllm/model_executor/layers/fused_moe/layer.py"),
    ("scheduler", "[Core]", "vllm/v1/core/sched/scheduler.py"),
    ("frontend", "[Frontend]", "vllm/entrypoints/openai/serving_chat.py"),
    ("spec-decode", "[Spec Decode]", "vllm/v1/spec_decode/eagle.py"),
    ("quantization", "[Quant]", "vllm/model_executor/layers/quantization/fp8.py"),
    ("models", "[Model]", "vllm/model_executor/models/llama.py"),
    ("ci-build", "[CI/Build]", ".buildkite/test-pipeline.yaml"),
]
BODY = (
    "## Purpose\n\nFIX #{n}\n\nThis PR improves {area} handling for large batches. "
    "It also cleans up helpers.\n\n## Test Plan\n\npytest tests/\n\n<details>\n<summary> "
    "Essential Elements of an Effective PR Description Checklist </summary>\n\n- [ ] The "
    "purpose of the PR\n</details>\n\nSigned-off-by: dev <dev@example.com>\n"
)


def synthetic_prs(count: int, start_number: int, seed: int) -> list[PullRequest]:
    rng = random.Random(seed)
    prs = []
    for i in range(count):
        number = start_number + i
        module, tag, path = AREAS[rng.randrange(len(AREAS))]
        files = [FileChange(path, rng.randrange(1, 400), rng.randrange(0, 200))]
        if rng.random() < 0.5:
            files.append(FileChange(f"tests/{module}/test_{i}.py", rng.randrange(1, 100), 0))
        prs.append(
            PullRequest(
                repo="vllm-project/vllm",
                number=number,
                title=f"{tag} Improve {module} path {i} (+{rng.randrange(5, 60)}% throughput)",
                url=f"https://github.com/vllm-project/vllm/pull/{number}",
                state="merged",
                created_at=WINDOW.start - timedelta(days=2),
                merged_at=WINDOW.start + timedelta(seconds=rng.randrange(7 * 86400)),
                body=BODY.format(n=number - 1, area=module),
                author=f"dev{rng.randrange(max(count // 3, 1))}",
                additions=sum(f.additions for f in files),
                deletions=sum(f.deletions for f in files),
                changed_files=len(files),
                files=files,
            )
        )
    return prs


def synthetic_analysis(pr: PullRequest, rng: random.Random) -> Analysis:
    module = pr.files[0].path.split("/")[-1]
    ids = [a[0] for a in AREAS if a[2] == pr.files[0].path] or [module]
    return Analysis(
        modules=[ModuleMatch(m, "path") for m in ids],
        kind=rng.choice(KIND_IDS),
        kind_reason="title",
        flags=[Flag(f, "r") for f in FLAG_IDS if rng.random() < 0.15],
        score=round(rng.random() * 10, 1),
        contributions=[],
        claims=[Claim("+20% throughput", 1.2)] if rng.random() < 0.1 else [],
    )


def analyse(prs: list[PullRequest], seed: int) -> tuple[list[AnalyzedPR], float, str]:
    started = time.perf_counter()
    try:
        from bot.analysis.analyzer import Analyzer
        from bot.analysis.rules import load_ruleset

        analyzer = Analyzer(load_ruleset("vllm"))
        result = [AnalyzedPR(pr, analyzer.analyze(pr)) for pr in prs]
        how = "bot.analysis (vllm rules)"
    except ImportError:
        rng = random.Random(seed)
        result = [AnalyzedPR(pr, synthetic_analysis(pr, rng)) for pr in prs]
        how = "synthetic analyses"
    return result, time.perf_counter() - started, how


def _run(current: list[AnalyzedPR], previous: list[AnalyzedPR]) -> tuple[float, float]:
    """(build seconds, build + document + markdown seconds)."""
    started = time.perf_counter()
    digest = build_digest(
        current,
        previous,
        repo="vllm-project/vllm",
        window=WINDOW,
        timezone="UTC",
        module_names={a[0]: (a[0], a[0]) for a in AREAS},
        new_contributors={"dev1", "dev2"},
    )
    built = time.perf_counter() - started
    render_markdown(digest_document(digest, "zh"))
    return built, time.perf_counter() - started


def bench(count: int, goal: float) -> bool:
    current, t_now, how = analyse(synthetic_prs(count, 100_000, seed=count), count)
    previous, t_prev, _ = analyse(synthetic_prs(count, 50_000, seed=count + 1), count + 1)

    # Timed without tracemalloc (it slows allocation-heavy code several times over).
    runs = [_run(current, previous) for _ in range(3)]
    cold_build, cold_total = runs[0]
    warm_build, warm_total = min(runs[1:], key=lambda r: r[1])

    tracemalloc.start()
    _run(current, previous)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    digest = build_digest(
        current,
        previous,
        repo="vllm-project/vllm",
        window=WINDOW,
        timezone="UTC",
        module_names={},
    )
    started = time.perf_counter()
    render_html(digest_document(digest, "en"))
    render_json(digest, "en")
    html_json = time.perf_counter() - started

    ok = cold_total < goal
    print(
        f"{count:>6} PRs: build {cold_build:.3f}s cold / {warm_build:.3f}s warm; "
        f"build+document+markdown {cold_total:.3f}s cold / {warm_total:.3f}s warm "
        f"(goal < {goal}s: {'ok' if ok else 'MISSED'}); peak {peak / 2**20:.1f} MiB; "
        f"html+json {html_json:.3f}s; analysis of both weeks {t_now + t_prev:.2f}s [{how}]"
    )
    return ok


if __name__ == "__main__":
    results = [bench(250, 0.3), bench(10_000, 5.0)]
    sys.exit(0 if all(results) else 1)
