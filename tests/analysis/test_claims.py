from __future__ import annotations

import pytest

from bot.analysis.claims import extract_claims


@pytest.mark.parametrize(
    ("text", "claim", "factor", "metric"),
    [
        ("On RX 7900 XTX we get 2.15x throughput.", "2.15x throughput", 2.15, "throughput"),
        ("Qwen3.5 mixed batches: throughput +24%", "throughput +24%", 1.24, "throughput"),
        # A bare figure takes the metric its sentence names.
        (
            "Output throughput on the serving benchmark: up +24%",
            "Output throughput +24%",
            1.24,
            "output throughput",
        ),
        (
            "Gives 16-24% decode throughput improvement on MI300X",
            "16-24% decode throughput improvement",
            1.24,
            "decode throughput",
        ),
        ("pick_config: 1289μs -> 1.8μs (719x)", "1289μs -> 1.8μs (719x)", 719.0, "latency"),
        ("TPS 1.24-3.17x depending on batch", "TPS 1.24-3.17x", 3.17, "TPS"),
        ("up to 319% speedup end to end", "319% speedup", 4.19, "speedup"),
        (
            "20% kernel performance improvement",
            "20% kernel performance improvement",
            1.2,
            "kernel performance",
        ),
        ("3x faster warmup", "3x faster", 3.0, None),
        ("TTFT 120 ms -> 80 ms", "TTFT 120 ms -> 80 ms", 1.5, "TTFT"),
        # A level that moved: its metric and both figures, never "86%" as a gain factor.
        (
            "The prefix cache hit rate went from 33% to 86% on agents.",
            "prefix cache hit rate 33% → 86%",
            None,
            "prefix cache hit rate",
        ),
        (
            "Prefix-cache hit rate: 33% -> 86%",
            "Prefix-cache hit rate: 33% -> 86%",
            None,
            "prefix-cache hit rate",
        ),
    ],
)
def test_claims_are_extracted_as_stated(
    text: str, claim: str, factor: float, metric: str | None
) -> None:
    claims = extract_claims(text)
    assert [c.text for c in claims] == [claim]
    assert claims[0].factor == (None if factor is None else pytest.approx(factor, rel=1e-3))
    assert claims[0].metric == metric


@pytest.mark.parametrize(
    "text",
    [
        "[ROCm] Upgrade AITER to v0.1.13-rc5",
        "Follow-up to #123 and #41234",
        "Removes about 1400 lines of code",
        "Tested on 8x H100 and 4x MI300X",
        "[ROCm][Perf] DSv3.2 MI355X TP4 decode-step cleanup (3 micro-opts)",
        "Merged on 2026-06-01, see 2026-W23",
        "gsm8k accuracy 95.2% (baseline 95.1%)",
        "--gpu-memory-utilization 0.9 (90%)",
        "Grid of 4x4 tiles, 2x8 warps",
        "torch 2.11 and CUDA 12.8",
        # Bare figures: what they measure is not said (issue 21: never a bare "90%").
        "Result: +24% on the serving benchmark",
        "This reduces it by 90%.",
        # A server log pasted in the description: readings, not claims.
        "(APIServer pid=23) INFO [loggers.py:271] Avg generation throughput: 1074.6 tokens/s, "
        "GPU KV cache usage: 11.7%, Prefix cache hit rate: 0.0%",
    ],
)
def test_numbers_that_are_not_claims(text: str) -> None:
    assert extract_claims(text) == []


def test_claims_are_deduplicated_and_ordered() -> None:
    text = "2x throughput. Details: 2x throughput on H100; latency reduced by 30%."
    assert [c.text for c in extract_claims(text)] == ["2x throughput", "latency reduced by 30%"]


@pytest.mark.parametrize(
    "text",
    [
        "DP8 vs TP8: TP8 gets 1.8x higher throughput than DP8",
        "Compared with the TP16 deployment, the DP4+EP layout delivers 35% higher throughput.",
    ],
)
def test_a_comparison_of_two_layouts_is_not_a_speedup(text: str) -> None:
    from bot.analysis.claims import claim_text, is_comparison

    (claim,) = extract_claims(text)
    assert claim.factor is None and is_comparison(claim)
    assert "vs" in claim.text or "Compared" in claim.text  # the comparison stays visible
    assert "提升" not in claim_text(claim, "zh")


# ------------------------------------------------------------------ prose only (issue 33)

LOG_IN_A_FENCE = """Adds the SSD offload.

### 5.2 P log, `external prefix cache hit rate`: 8.3%
```log
(APIServer pid=32017) INFO 05-28 21:58:46 [loggers.py:271] Engine 000: \
Avg generation throughput: 0.1 tokens/s, Prefix cache hit rate: 25.9%, \
External prefix cache hit rate: 8.3%
```
"""
LOG_IN_A_QUOTE = """The weights load and the acceptance rate of the draft model is right.

> (APIServer pid=774401) INFO 06-11 11:07:59 [loggers.py:271] Engine
000: Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 7.1
tokens/s, Running: 1 reqs, GPU KV cache usage: 0.1%,
Prefix cache hit rate: 0.0%
Avg Draft acceptance rate: 83.3%
"""
TABLE_DUMP = """Kernel timings:

| num_heads | batch | AscendC (us) | Triton (us) | Speedup |
|-----------|-------|-------------|-------------|---------|
| 16 | 1 | 5.2 | 16.4 | 3.18x |
| 64 | 1 | 5.2 | 50.4 | 9.73x |
"""
UNPARSED_TABLE_ROWS = """Python API timings
| num_heads | batch | AscendC avg (us) | Triton avg (us) | Speedup |
| 16 | 1 | 47.7 | 96.4 | 2.02x | 18.9 | 71.9 |
"""
METRICS_LINE = """Result of the run:
Avg prompt throughput: 0.1 tokens/s, Running: 0 reqs, GPU KV cache usage: 17.2%, \
Prefix cache hit rate: 25.9%
"""


@pytest.mark.parametrize(
    "body",
    [
        LOG_IN_A_FENCE,
        LOG_IN_A_QUOTE,
        TABLE_DUMP,
        UNPARSED_TABLE_ROWS,
        METRICS_LINE,
        "```\nthroughput 3x faster\n```",
        "<details>\nthroughput 3x faster\n</details>",
        # Readings on lines of their own, not one figure with the next line's metric.
        "w8a8 65k-1.5k\nprefixcache: 90%\ntps: 2054",
    ],
)
def test_claims_come_only_from_prose(body: str) -> None:
    assert extract_claims(f"[Feature] Add a thing\n{body}") == []


@pytest.mark.parametrize(
    "text",
    [
        # A bug's symptom is a level without a direction, never a gain.
        "[Bugfix] Fix prefix cache hit rate 0% after restart",
        "Before this fix the prefix cache hit rate was 0% for every request.",
        "Acceptance rate: 63.0%",
    ],
)
def test_a_level_without_a_stated_direction_is_no_claim(text: str) -> None:
    assert extract_claims(text) == []


@pytest.mark.parametrize(
    ("text", "claim", "metric"),
    [
        # The metric stays with its figures.
        ("GPQA accuracy 72% → 86% with the fix", "GPQA accuracy 72% → 86%", "gpqa accuracy"),
        # A range is one claim, whatever the dash and wherever its unit.
        (
            "AscendC vs Triton: 1.27x–9.73x speedup, zero regressions.",
            "1.27x–9.73x speedup",
            "speedup",
        ),
        ("AscendC vs Triton: 1.27x-9.73x speedup.", "1.27x-9.73x speedup", "speedup"),
        # The direction word is kept with an approximate figure.
        (
            "This change improves throughput by ~90% compared to the previous version",
            "improves throughput by ~90%",
            "throughput",
        ),
        # Emphasis marks are not part of the claim; the verb after the metric stays.
        (
            "- total token throughput improves by **16.54%**",
            "token throughput improves by 16.54%",
            "token throughput",
        ),
        # A sentence wrapped at 72 columns is one sentence: the metric the sentence names.
        (
            "The most notable improvement is in P99 TPOT, which dropped -6.35%\n"
            "from 334.38ms → 313.15ms, indicating reduced tail latency.",
            "TPOT 334.38ms → 313.15ms",
            "TPOT",
        ),
    ],
)
def test_claims_keep_metric_range_and_direction(text: str, claim: str, metric: str) -> None:
    claims = extract_claims(text)
    assert [(c.text, c.metric) for c in claims] == [(claim, metric)]


@pytest.mark.parametrize(
    ("text", "zh"),
    [
        ("This change improves throughput by ~90% compared to before", "吞吐量提升 ~90%"),
        ("- mean E2E latency improves by **14.19%**", "端到端延迟改善 14.19%"),
        (
            "Token Throughput: 7122 token/s -> 8319 token/s",
            "词元吞吐量 7122 token/s -> 8319 token/s",
        ),
        ("AscendC vs Triton: 1.27x-9.73x speedup.", "速度提升 1.27x-9.73x"),
        ("GPQA accuracy 72% → 86%", "GPQA准确率 72% → 86%"),
    ],
)
def test_chinese_claims_keep_the_whole_figure(text: str, zh: str) -> None:
    from bot.analysis.claims import claim_text

    (claim,) = extract_claims(text)
    assert claim_text(claim, "zh") == zh


def test_chinese_adds_no_gain_the_source_does_not_state() -> None:
    from bot.analysis.claims import claim_text
    from bot.core.models import Claim

    # "prefix" has an "x" in it: that is no multiplier, and a level has no direction.
    level = Claim("prefix cache hit rate: 8.3%", None, "prefix cache hit rate")
    assert "提升" not in claim_text(level, "zh")
    assert "8.3%" in claim_text(level, "zh")


def _release_prs() -> dict[int, str]:
    from tests.conftest import SHARED

    path = SHARED / "datasets" / "releases" / "vllm-ascend-v0.20.2rc1..v0.21.0rc1.json"
    if not path.exists():
        pytest.skip(f"{path} absent")
    import json

    prs = json.loads(path.read_text(encoding="utf-8"))["pullRequests"]
    return {pr["number"]: f"{pr['title']}\n{pr['body'] or ''}" for pr in prs}


def test_real_descriptions_give_their_authors_claims_only() -> None:
    from bot.analysis.claims import claim_text

    prs = _release_prs()
    # Hit rates read from pasted logs (a fix's symptom among them) are no claims.
    for number in (9731, 10317):
        assert [c.text for c in extract_claims(prs[number])] == []
    (stated,) = extract_claims(prs[9721])
    assert (stated.text, claim_text(stated, "zh")) == (
        "improves throughput by ~90%",
        "吞吐量提升 ~90%",
    )
    # The author's two ranges, not the table rows under them.
    assert [c.text for c in extract_claims(prs[9601])] == [
        "1.27x-9.73x speedup",
        "1.80x-6.02x speedup",
    ]
