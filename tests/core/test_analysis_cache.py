from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.analysis.analyzer import Analyzer
from bot.analysis.cache import analysis_key, analyze_stored, from_dict, to_dict
from bot.analysis.rules import load_ruleset
from bot.core.models import FileChange, PullRequest
from bot.store import Store

T0 = datetime(2026, 6, 2, tzinfo=UTC)


def pr(number: int, title: str, path: str, lines: int = 120) -> PullRequest:
    return PullRequest(
        repo="vllm-project/vllm",
        number=number,
        title=title,
        url=f"https://github.com/vllm-project/vllm/pull/{number}",
        state="merged",
        created_at=T0,
        merged_at=T0,
        body="Decode throughput improves by 2.1x on H100.",
        additions=lines,
        deletions=3,
        changed_files=1,
        files=[FileChange(path, lines, 3)],
    )


PRS = [
    pr(1, "[ROCm][Perf] Fused MoE kernel for RDNA3", "csrc/rocm/moe.cu"),
    pr(2, "[Core] Scheduler: avoid pipeline bubbles", "vllm/v1/core/sched/scheduler.py"),
    pr(3, "[Doc] Fix typo", "docs/index.md", 2),
]


class CountingAnalyzer(Analyzer):
    calls = 0

    def analyze(self, pr: PullRequest):
        CountingAnalyzer.calls += 1
        return super().analyze(pr)


@pytest.fixture
async def store(tmp_path: Path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
    await store.prs.upsert(PRS)
    yield store
    await store.close()


def test_round_trip_is_exact() -> None:
    analyzer = Analyzer(load_ruleset("vllm"))
    for item in PRS:
        analysis = analyzer.analyze(item)
        assert from_dict(to_dict(analysis)) == analysis


async def test_second_run_reads_the_cache_and_agrees(store: Store) -> None:
    analyzer = CountingAnalyzer(load_ruleset("vllm"))
    CountingAnalyzer.calls = 0
    first = await analyze_stored(store, analyzer, "vllm-project/vllm", PRS)
    assert CountingAnalyzer.calls == len(PRS)
    second = await analyze_stored(store, analyzer, "vllm-project/vllm", PRS)
    assert CountingAnalyzer.calls == len(PRS)  # nothing re-analysed
    assert second == first == [Analyzer(load_ruleset("vllm")).analyze(p) for p in PRS]


async def test_a_changed_pr_is_analysed_again(store: Store) -> None:
    analyzer = CountingAnalyzer(load_ruleset("vllm"))
    await analyze_stored(store, analyzer, "vllm-project/vllm", PRS)
    changed = pr(2, 'Revert "[Core] Scheduler: avoid pipeline bubbles"', "vllm/x.py")
    await store.prs.upsert([changed])
    CountingAnalyzer.calls = 0
    results = await analyze_stored(store, analyzer, "vllm-project/vllm", [PRS[0], changed])
    assert CountingAnalyzer.calls == 1
    assert results[1].kind == "revert"


def test_the_key_follows_the_rule_set() -> None:
    vllm, generic = load_ruleset("vllm"), load_ruleset("generic")
    assert analysis_key(Analyzer(vllm)) == analysis_key(Analyzer(load_ruleset("vllm")))
    assert analysis_key(Analyzer(vllm)) != analysis_key(Analyzer(generic))
    # Editing a weight or threshold in the user's rule set invalidates every cached analysis.
    tweaked = vllm.model_copy(update={"description": vllm.description + " (edited)"})
    assert analysis_key(Analyzer(tweaked)) != analysis_key(Analyzer(vllm))
