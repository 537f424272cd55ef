from __future__ import annotations

import pytest

from bot.analysis.claims import extract_claims


@pytest.mark.parametrize(
    ("text", "claim", "factor", "metric"),
    [
        ("On RX 7900 XTX we get 2.15x throughput.", "2.15x throughput", 2.15, "throughput"),
        ("Qwen3.5 mixed batches: throughput +24%", "throughput +24%", 1.24, "throughput"),
        ("Result: +24% on the serving benchmark", "+24%", 1.24, None),
        (
            "Gives 16-24% decode throughput improvement on MI300X",
            "16-24% decode throughput",
            1.24,
            "decode throughput",
        ),
        ("pick_config: 1289μs -> 1.8μs (719x)", "1289μs -> 1.8μs (719x)", 719.0, "latency"),
        ("TPS 1.24-3.17x depending on batch", "TPS 1.24-3.17x", 3.17, "TPS"),
        ("up to 319% speedup end to end", "319% speedup", 4.19, "speedup"),
        ("20% kernel performance improvement", "20% kernel performance", 1.2, "kernel performance"),
        ("3x faster warmup", "3x faster", 3.0, None),
        ("TTFT 120 ms -> 80 ms", "120 ms -> 80 ms", 1.5, "latency"),
    ],
)
def test_claims_are_extracted_as_stated(
    text: str, claim: str, factor: float, metric: str | None
) -> None:
    claims = extract_claims(text)
    assert [c.text for c in claims] == [claim]
    assert claims[0].factor == pytest.approx(factor, rel=1e-3)
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
    ],
)
def test_numbers_that_are_not_claims(text: str) -> None:
    assert extract_claims(text) == []


def test_claims_are_deduplicated_and_ordered() -> None:
    text = "2x throughput. Details: 2x throughput on H100; latency reduced by 30%."
    assert [c.text for c in extract_claims(text)] == ["2x throughput", "latency reduced by 30%"]
