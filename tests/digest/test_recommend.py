"""Recommendations from the week's data (issue 33): each names its PRs and its evidence."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.core.models import AnalyzedPR
from bot.digest.prose import recommendation_text
from bot.digest.recommend import renamed_options
from tests.analysis.analysis_factory import ANALYZER, make_pr
from tests.digest.fixtures import WINDOW
from tests.digest.helpers import fixture_digest

ENV_MIGRATION = """Migrate selected environment variables to `AscendConfig`.

Migrated environment variables:

- `VLLM_ASCEND_BALANCE_SCHEDULING` → `enable_balance_scheduling`
(default:
  `False`)
- `VLLM_ASCEND_FLASHCOMM2_PARALLEL_SIZE` →
`enable_flashcomm2_parallel_size`
- `VLLM_ASCEND_ENABLE_NZ` → `weight_nz_mode` (default: `1`)
- `VLLM_ASCEND_ENABLE_MLAPO` → `enable_mlapo`

```bash
export OLD_NAME_IN_CODE=1  # -> not prose
```
"""


def _pr(number: int, title: str, hour: int, *, body: str = "", files=None, author="dev"):
    pr = make_pr(
        title, files if files is not None else [("vllm/utils.py", 10, 2)], number=number, body=body
    )
    pr = replace(
        pr, merged_at=WINDOW.start + timedelta(hours=hour), repo="vllm-project/vllm", author=author
    )
    return AnalyzedPR(pr, ANALYZER.analyze(pr))


def _recs(prs: list[AnalyzedPR], **kw: object):
    return fixture_digest(prs=prs, previous=[], **kw)


def test_renamed_and_removed_options_are_read_from_the_prose() -> None:
    renamed, removed = renamed_options(ENV_MIGRATION)
    assert renamed == [
        ("VLLM_ASCEND_BALANCE_SCHEDULING", "enable_balance_scheduling"),
        ("VLLM_ASCEND_FLASHCOMM2_PARALLEL_SIZE", "enable_flashcomm2_parallel_size"),
        ("VLLM_ASCEND_ENABLE_NZ", "weight_nz_mode"),
        ("VLLM_ASCEND_ENABLE_MLAPO", "enable_mlapo"),
    ]
    assert removed == []
    assert renamed_options("This PR removes `--disable-log-stats` and `VLLM_FOO_BAR`.") == (
        [],
        ["--disable-log-stats", "VLLM_FOO_BAR"],
    )
    # Its uses go, the option stays; and a dead variable was never set by anyone.
    assert renamed_options("Remove --async-scheduling from configs and docs.") == ([], [])
    assert renamed_options("Remove the dead VLLM_RPC_TIMEOUT env var.") == ([], [])


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["#201", "renames 4 options", "VLLM_ASCEND_ENABLE_NZ → weight_nz_mode", "1 more"]),
        (
            "zh",
            ["#201", "重命名了 4 个选项", "VLLM_ASCEND_ENABLE_NZ → weight_nz_mode", "另有 1 个"],
        ),
    ],
)
def test_a_renamed_option_is_a_migration_to_name(language: str, words: list[str]) -> None:
    digest = _recs([_pr(201, "[Refactor] Migrate env vars to AscendConfig", 3, body=ENV_MIGRATION)])
    (rec,) = [r for r in digest.recommendations if r.id == "migrate-option"]
    text = recommendation_text(rec, language, digest.span)
    assert all(w in text for w in words), text


def test_an_open_revert_names_what_it_reverted() -> None:
    digest = _recs(
        [
            _pr(300, "[Core] Fuse the QKV projection of Foo", 1),
            _pr(301, 'Revert "[Core] Fuse the QKV projection of Foo" (#300)', 5),
        ]
    )
    (rec,) = [r for r in digest.recommendations if r.id == "revert-follow-up"]
    assert rec.prs == [301]
    for language in ("en", "zh"):
        text = recommendation_text(rec, language, digest.span)
        assert "#301" in text and "Fuse the QKV projection of Foo" in text


def test_a_large_core_path_change_without_tests_says_where_and_how_large() -> None:
    big = _pr(
        400,
        "[Core] Rework the scheduler loop",
        2,
        files=[("vllm/v1/core/sched/scheduler.py", 1500, 300)],
    )
    small = _pr(
        401,
        "[Core] Tweak the scheduler loop",
        3,
        files=[("vllm/v1/core/sched/scheduler.py", 20, 3)],
    )
    digest = _recs([big, small])
    recs = [r for r in digest.recommendations if r.id == "core-untested"]
    assert [r.prs for r in recs] == [[400]]  # the small one is no large change
    en = recommendation_text(recs[0], "en", digest.span)
    assert "the scheduler" in en and "1,800 lines" in en
    assert "调度器" in recommendation_text(recs[0], "zh", digest.span)


def test_a_series_left_half_done_names_its_missing_parts() -> None:
    prs = [
        _pr(500, "[Attention][1/3] Move the backends", 1, author="ann"),
        _pr(501, "[Attention][2/3] Split the metadata", 2, author="ann"),
        # A complete series and a series of unknown length are no follow-up.
        _pr(510, "[Renderer] Move the preprocessor (1/2)", 3, author="bob"),
        _pr(511, "[Renderer] Move the preprocessor (2/2)", 4, author="bob"),
        _pr(520, "[MoE Refactor][17/N] Apply the refactor to Bf16", 5, author="cy"),
    ]
    digest = _recs(prs)
    (rec,) = [r for r in digest.recommendations if r.id == "series-incomplete"]
    assert rec.prs == [500, 501]
    en = recommendation_text(rec, "en", digest.span)
    assert "2 of 3 parts merged" in en and "part 3 is not merged" in en
    assert "（第 3 部分）尚未合入" in recommendation_text(rec, "zh", digest.span)


def test_no_recommendation_is_a_fixed_sentence_over_a_flag_list() -> None:
    digest = fixture_digest()
    ids = {r.id for r in digest.recommendations}
    assert not ids & {"split-large", "verify-claims", "watch-dependencies", "cross-platform"}
    for rec in digest.recommendations:
        assert len(rec.prs) >= 1 and rec.details  # every one has its evidence
