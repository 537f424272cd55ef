"""Reverts re-landed in the window (issue 33): by title once tags, quotes and the "(#N)"
suffix are stripped, by a reference, or by a re-land named in its own words."""

from __future__ import annotations

import pytest

from tests.digest.test_prose import _analyzed


@pytest.mark.parametrize(
    ("revert", "reland"),
    [
        # Same title once tags, backticks and the "(#N)" suffix are gone, no reference.
        (
            'Revert "[Attention][MLA] Make `FLASHINFER_MLA` the default MLA backen…',
            "[Attention][MLA] Make FLASHINFER_MLA the default MLA backend on Blackwell",
        ),
        (
            'Revert "[Core] Fuse the QKV projection of Foo (#100)"',
            "[Perf][Core] Fuse the QKV projection of Foo (#100)",
        ),
        # A re-land that names the change in its own words (vLLM #34683 / #34697).
        (
            'Revert "[Models] Fuse Qwen3.5 GDN\'s qkvz_proj and ba_proj"',
            "[Bugfix] Redo Qwen3.5/Qwen3-Next GDN projector fusion",
        ),
    ],
)
def test_a_reland_by_title_alone_is_recognised(revert: str, reland: str) -> None:
    from bot.analysis.flags import relanded

    prs = [_analyzed(101, revert, 5).pr, _analyzed(102, reland, 30).pr]
    assert relanded(prs) == {101: 102}


def test_a_revert_by_number_is_relanded_under_the_original_title() -> None:
    from bot.analysis.flags import relanded

    prs = [
        _analyzed(100, "[Bugfix] Add `--trust-remote-code` to dataset bench args", 1).pr,
        _analyzed(101, "Revert #100", 5).pr,
        _analyzed(102, "[Redo] Add `--trust-remote-code` to dataset bench args", 30).pr,
    ]
    assert relanded(prs) == {101: 102}


def test_a_later_pr_on_another_subject_is_no_reland() -> None:
    from bot.analysis.flags import relanded, reverted

    revert = _analyzed(
        101, 'Revert "[Kernels][FI] Skip trtllm attention when num_kv_heads=1 (#308…', 5
    )
    prs = [revert.pr, _analyzed(102, "[Redo] Qwen3.5 GDN projector fusion", 30).pr]
    assert relanded(prs) == {}
    # A PR number cut short by GitHub is no number.
    assert reverted(revert.pr) == (None, "[Kernels][FI] Skip trtllm attention when num_kv_heads=1")
