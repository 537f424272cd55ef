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
