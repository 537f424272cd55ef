from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.analysis.score import select_key_prs
from bot.core.models import AnalyzedPR
from tests.analysis.analysis_factory import ANALYZER, VLLM, make_pr

# Substantive changes: a kernel, the scheduler, a model. Low-value: typo, docs-only, CI, revert.
SUBSTANTIVE = [
    ("[Kernel] Fix fused_moe kernel tile config", "csrc/moe/moe_align_sum_kernels.cu"),
    ("[Core] Fix chunked prefill accounting in the scheduler", "vllm/v1/core/sched/scheduler.py"),
    ("[Model] Add Foo-7B support", "vllm/model_executor/models/foo.py"),
]
LOW_VALUE = [
    ("Fix typo in scheduler docstring", "vllm/v1/core/sched/scheduler.py"),
    ("[Doc] Rewrite the deployment guide", "docs/deployment/guide.md"),
    ("[CI] Tweak the test pipeline", ".buildkite/test-pipeline.yaml"),
    ('Revert "[Core] Faster scheduler (#41234)"', "vllm/v1/core/sched/scheduler.py"),
]


@settings(max_examples=300, deadline=None)
@given(
    sub=st.sampled_from(SUBSTANTIVE),
    low=st.sampled_from(LOW_VALUE),
    lines=st.integers(min_value=1, max_value=20_000),
    ratio=st.floats(min_value=0.5, max_value=2.0),
    reviews=st.integers(min_value=0, max_value=50),
    comments=st.integers(min_value=0, max_value=500),
    labels=st.lists(st.sampled_from(["ready", "release-blocker", "new-model"]), max_size=3),
)
def test_low_value_prs_never_outrank_substantive_ones_of_similar_size(
    sub: tuple[str, str],
    low: tuple[str, str],
    lines: int,
    ratio: float,
    reviews: int,
    comments: int,
    labels: list[str],
) -> None:
    # "Similar size" = within a factor of two in changed lines. The low-value PR also gets
    # arbitrary review/comment activity and labels while the substantive one gets none, so
    # the check holds even in the low-value PR's favour.
    low_lines = max(1, int(lines * ratio))
    substantive = make_pr(sub[0], [(sub[1], lines, 0)])
    low_value = make_pr(
        low[0], [(low[1], low_lines, 0)], reviews=reviews, comments=comments, labels=labels
    )
    s = ANALYZER.analyze(substantive).score
    lv = ANALYZER.analyze(low_value).score
    assert lv <= s, (low[0], lv, sub[0], s)


pr_strategy = st.builds(
    lambda title, files, body, reviews, comments, labels, known: make_pr(
        title,
        files if known else None,
        body=body,
        reviews=reviews,
        comments=comments,
        labels=labels,
    ),
    title=st.text(max_size=120),
    files=st.lists(
        st.tuples(
            st.sampled_from(
                [
                    "vllm/v1/core/sched/scheduler.py",
                    "csrc/moe/x.cu",
                    "docs/a.md",
                    "tests/test_x.py",
                    "requirements/cuda.txt",
                    "vllm/entrypoints/openai/api_server.py",
                    "rust/src/main.rs",
                    "weird/path/file.txt",
                ]
            ),
            st.integers(0, 50_000),
            st.integers(0, 50_000),
        ),
        max_size=60,
    ),
    body=st.text(max_size=400),
    reviews=st.integers(0, 1000),
    comments=st.integers(0, 10_000),
    labels=st.lists(
        st.sampled_from(["ready", "breaking", "rocm", "documentation", "x"]), max_size=4
    ),
    known=st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(pr=pr_strategy)
def test_score_in_range_one_decimal_and_deterministic(pr) -> None:  # type: ignore[no-untyped-def]
    a = ANALYZER.analyze(pr)
    b = ANALYZER.analyze(pr)
    assert 0.0 <= a.score <= 10.0
    assert a.score == round(a.score, 1)
    assert a == b
    points = [c.points for c in a.contributions]
    assert points == sorted(points, reverse=True)
    assert a.modules, "every PR gets a module"
    assert a.kind
    assert all(f.reason for f in a.flags)


def test_contributions_carry_human_reasons() -> None:
    pr = make_pr(
        "[Core] Faster scheduling for long prompts",
        [
            ("vllm/v1/core/sched/scheduler.py", 1200, 250),
            ("tests/v1/core/test_scheduler.py", 80, 0),
        ],
        body="Output throughput 2.2x on Llama-3-8B.",
        reviews=3,
        comments=12,
    )
    analysis = ANALYZER.analyze(pr)
    reasons = [c.reason for c in analysis.contributions]
    assert "touches the scheduler" in reasons
    assert "2.2x on Llama-3-8B claim" not in reasons
    assert any(r.endswith("claim") and "2.2x" in r for r in reasons)
    assert "1,530 lines changed" in reasons
    assert "3 reviews, 12 comments" in reasons
    assert "touches the scheduler" in analysis.score_reasons()
    assert analysis.score >= 7.0


def test_key_prs_top_k_above_floor_ties_by_number() -> None:
    prs = [
        make_pr(
            "[Core] Scheduler change", [("vllm/v1/core/sched/scheduler.py", 900, 100)], number=n
        )
        for n in (3, 1, 2)
    ] + [make_pr("[Doc] typo", [("docs/a.md", 1, 1)], number=4)]
    analyzed = [AnalyzedPR(p, ANALYZER.analyze(p)) for p in prs]
    keys = select_key_prs(analyzed, VLLM, count=2)
    assert [a.pr.number for a in keys] == [1, 2]
    assert all(a.analysis.score >= VLLM.score.key_floor for a in keys)
    assert 4 not in [a.pr.number for a in select_key_prs(analyzed, VLLM)]


# ------------------------------------------------------------------ title-only (branch prose)

# Titles that say a lot (a new model, backend or kernel, the head of a series, a crash fix)
# and titles that say little; on title-only data every score used to fall in 3.1-4.2.
STRONG_TITLES = [
    "[Model] Add Foo-7B model support",
    "[Spec Decode] Add Cohere EAGLE draft model",
    "[Kernel][ROCm] Native W4A16 MoE kernel for AMD RDNA3",
    "[Attention] Add FlashFoo attention backend",
    "[KVConnector][1/N] Plan-based transfer for the NIXL connector",
]
WEAK_TITLES = [
    "[Misc] Remove dead VLLM_RPC_TIMEOUT env var and fix profiling doc that references it",
    "[Misc] Fix typo in scheduler comment",
    "[CI] Tweak the test pipeline",
    "[Core] Small logging cleanup in engine core",
    "[Bugfix] Fix a warning in the scheduler",
]


@given(
    strong=st.sampled_from(STRONG_TITLES),
    weak=st.sampled_from(WEAK_TITLES),
    reviews=st.integers(min_value=0, max_value=3),
)
def test_title_only_scores_follow_the_titles_signals(strong: str, weak: str, reviews: int) -> None:
    high = ANALYZER.analyze(make_pr(strong, None))
    low = ANALYZER.analyze(make_pr(weak, None, reviews=reviews))
    assert high.score > low.score + 1.0, (high.contributions, low.contributions)


def test_title_only_key_prs_are_the_titles_that_say_most() -> None:
    titles = (
        STRONG_TITLES
        + WEAK_TITLES
        + [f"[Bugfix] Fix issue {i} in the scheduler" for i in range(40)]
    )
    prs = [
        AnalyzedPR(pr, ANALYZER.analyze(pr))
        for i, title in enumerate(titles)
        for pr in [make_pr(title, None, number=1000 + i)]
    ]
    keys = {a.pr.title for a in select_key_prs(prs, VLLM)}
    assert keys and keys <= set(STRONG_TITLES)
    # The spread is wide enough to rank: strong titles sit above every ordinary fix.
    ordinary = max(a.analysis.score for a in prs if a.pr.title.startswith("[Bugfix] Fix issue"))
    assert min(a.analysis.score for a in prs if a.pr.title in STRONG_TITLES) > ordinary


# ------------------------------------------------------------ title-only importance (issue 33)


@pytest.mark.parametrize(
    ("area", "new_model"),
    [
        ("[Model] Avoid hardcoding pooling type", "[Model] Add LFM2-ColBERT-350M support"),
        ("[Model] Improve multimodal pooling examples", "Add Molmo2 multimodal model support"),
        (
            "[Model] Add AutoWeightsLoader support for jais",
            "[Model] Add Granite 4.0 1B speech to supported models",
        ),
        (
            "[Models] Fuse Qwen3.5 GDN's qkvz_proj and ba_proj",
            "[New Model] support new model ovis2.6",
        ),
    ],
)
def test_a_model_tag_alone_is_not_importance(area: str, new_model: str) -> None:
    tagged = ANALYZER.analyze(make_pr(area, None))
    added = ANALYZER.analyze(make_pr(new_model, None))
    assert "reason.score.title.model" not in {c.key for c in tagged.contributions}
    assert "reason.score.title.model" in {c.key for c in added.contributions}
    assert added.score >= tagged.score + 2.0


@pytest.mark.parametrize(
    ("news", "plain"),
    [
        (
            "[Misc] Enable async scheduling by default with spec decoding",
            "[Misc] Enable async scheduling with spec decoding",
        ),
        (
            "[Attention][MLA] Make `FLASHINFER_MLA` the default MLA backend on Blackwell",
            "[Attention][MLA] Tune `FLASHINFER_MLA` MLA backend on Blackwell",
        ),
        ("[Quantization][Deprecation] Remove PTPC FP8", "[Quantization] Refactor PTPC FP8"),
        (
            "[Quantization] Deprecate Long Tail of Schemes",
            "[Quantization] Refactor Long Tail of Schemes",
        ),
    ],
)
def test_a_changed_default_or_a_deprecation_is_news_on_titles(news: str, plain: str) -> None:
    assert ANALYZER.analyze(make_pr(news, None)).score >= (
        ANALYZER.analyze(make_pr(plain, None)).score + 1.0
    )
