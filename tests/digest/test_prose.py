"""Highlights say what changed (branch prose, issue 21 B): an opening sentence built from the
lead PRs' titles, naming each PR inline, and only the PRs of the theme."""

from __future__ import annotations

import re

import pytest

from bot.analysis.changes import title_change
from bot.core import i18n
from bot.digest.prose import change_sentence, en_object, highlight_text, summary_of, zh_object
from tests.digest.helpers import fixture_digest


@pytest.mark.parametrize(("language", "opening"), [("en", "This week: "), ("zh", "本周")])
def test_each_highlight_opens_with_what_its_lead_prs_change(language: str, opening: str) -> None:
    digest = fixture_digest()
    assert digest.highlights
    titles = {row.number: row.title for row in digest.prs}
    for highlight in digest.highlights:
        text = highlight_text(highlight, language, digest.span)
        first = re.split(r"(?<=[.。])\s", text, maxsplit=1)[0]
        assert first.startswith(opening), text
        named = [int(n) for n in re.findall(r"#(\d+)", first)]
        # The lead PR is named, and nothing outside the theme is.
        assert named and named[0] == highlight.prs[0]
        assert set(named) <= set(highlight.prs)
        for number in named:
            change = title_change(titles[number])
            assert change is not None
            if language == "en":
                assert change.object.split()[0] in first
            else:
                # Worded in Chinese (identifiers bare), or the whole title quoted.
                assert f"“{change.title}”" in first or zh_object(change.object), first


def test_same_action_is_grouped_and_order_kept() -> None:
    changes = [
        (1, title_change("[Model] Add FooLM model")),
        (2, title_change("[Bugfix] Fix bar crash")),
        (3, title_change("Add Baz backend")),
    ]
    text = change_sentence(changes, "en", "week")
    assert text == "This week: adds FooLM model (#1) and Baz backend (#3); fixes bar crash (#2)."
    zh = change_sentence(changes, "zh", "week")
    # Worded from the catalogue's terms with names bare; an object with an English word the
    # catalogue has no Chinese for ("bar") is the whole title, quoted after 合入.
    assert zh == "本周新增 FooLM 模型（#1）、Baz 后端（#3），合入“Fix bar crash”（#2）。"


# ------------------------------------------------------------------ reverts re-landed


def _analyzed(number: int, title: str, hour: int, body: str = ""):
    from dataclasses import replace
    from datetime import timedelta

    from bot.core.models import AnalyzedPR
    from tests.analysis.analysis_factory import ANALYZER, make_pr
    from tests.digest.fixtures import WINDOW

    pr = make_pr(title, [("vllm/v1/engine/core.py", 10, 2)], number=number, body=body)
    pr = replace(pr, merged_at=WINDOW.start + timedelta(hours=hour), repo="vllm-project/vllm")
    return AnalyzedPR(pr, ANALYZER.analyze(pr))


def test_a_revert_relanded_in_the_window_is_not_follow_up_work() -> None:
    prs = [
        _analyzed(100, "[Core] Fuse the QKV projection of Foo", 1),
        _analyzed(101, 'Revert "[Core] Fuse the QKV projection of Foo" (#100)', 5),
        _analyzed(102, "[Core] Reland fuse the QKV projection of Foo", 30, body="Relands #100."),
        _analyzed(103, 'Revert "[Misc] Enable weights loading tracking"', 40),
    ]
    digest = fixture_digest(prs=prs, previous=[])
    assert [(r.revert, r.reland) for r in digest.relanded] == [(101, 102)]
    follow = [r for r in digest.recommendations if r.id == "revert-follow-up"]
    # Only the revert that stays open is follow-up work.
    assert [r.prs for r in follow] == [[103]]
    from bot.digest.document import digest_document
    from bot.digest.render import render_markdown

    text = render_markdown(digest_document(fixture_digest(prs=prs, previous=[]), "en"))
    assert "re-landed this week" in text and "#101" in text


@pytest.mark.parametrize(
    "reland",
    [
        'Revert "Revert "[Core] Fuse the QKV projection of Foo""',
        "[Core] Fuse the QKV projection of Foo",  # landed again under its own title
        "Reapply [Core] Fuse the QKV projection of Foo",
    ],
)
def test_every_way_of_relanding_is_recognised(reland: str) -> None:
    from bot.analysis.flags import relanded

    prs = [
        _analyzed(101, 'Revert "[Core] Fuse the QKV projection of Foo"', 5).pr,
        _analyzed(102, reland, 30).pr,
    ]
    assert relanded(prs) == {101: 102}


def test_the_original_merged_before_its_revert_is_not_a_reland() -> None:
    from bot.analysis.flags import relanded

    original = _analyzed(100, "[Core] Fuse the QKV projection of Foo", 1).pr
    revert = _analyzed(101, 'Revert "[Core] Fuse the QKV projection of Foo"', 5).pr
    assert relanded([revert, original]) == {}


# ------------------------------------------------------------------ summary order


@pytest.mark.parametrize(
    ("language", "news", "caveat"),
    [
        ("en", "The week's main changes: ", "First-time contributors: unknown (needs GitHub)."),
        ("zh", "本周最重要的变化：", "首次贡献者：未知（需要连接 GitHub 查询）。"),
    ],
)
def test_summary_opens_with_the_news_and_ends_with_caveats(
    language: str, news: str, caveat: str
) -> None:
    digest = fixture_digest(new_contributors=None)
    text = summary_of(digest, language)
    assert text.startswith(news)
    assert text.endswith(caveat)
    # The news names what landed: the first highlights, each with its lead PR's change,
    # and no label-and-count list ("centred on X (4 PRs), Y (4 PRs)").
    lead = text.split("。" if language == "zh" else ". ")[0]
    shown = digest.highlights[:2]
    for highlight in shown:
        assert f"#{highlight.prs[0]}" in lead or any(f"#{n}" in lead for n in highlight.prs)
    assert "centred on" not in text and "主要集中在" not in text
    # Totals are separate facts: the key-PR count never shares a clause with the authors.
    assert not re.search(r"重点 PR，来自|key PRs?\) by", text)


def test_a_large_ci_or_test_effort_follows_the_news_in_the_summary() -> None:
    from bot.digest.prose import theme_name

    digest = fixture_digest(new_contributors=None)
    first, second = digest.highlights[0], digest.highlights[1]
    assert first.theme_id in digest.themes and second.theme_id in digest.themes
    news = "The week's main changes: "
    assert summary_of(digest, "en").startswith(news + theme_name(first, "en") + " (")
    # The heaviest highlight becomes a CI effort: the news leads with the next one.
    first.upkeep = True
    text = summary_of(digest, "en")
    assert text.startswith(news + theme_name(second, "en") + " (")
    assert theme_name(first, "en") in text  # still named, after the news


# ------------------------------------------------------------------ real weeks (../shared)


@pytest.mark.parametrize("dataset", ["titles", "ascend"])
def test_real_week_highlights_say_what_changed_and_claims_keep_metrics(dataset: str) -> None:
    from bot.analysis.analyzer import Analyzer
    from bot.analysis.rules import load_ruleset
    from bot.core.weeks import iso_week
    from tests.digest.test_honest_data import (
        ASCEND_W22,
        TITLES_WEEK,
        _ascend_analyzer,
        _digest,
        _titles_window,
    )

    if dataset == "titles":
        digest, _ = _digest(TITLES_WEEK, Analyzer(load_ruleset("vllm")), _titles_window())
        opening = "In this period: "
    else:
        from datetime import UTC

        digest, _ = _digest(ASCEND_W22, _ascend_analyzer(), iso_week(2026, 22, UTC))
        opening = "This week: "
    assert digest.highlights
    for highlight in digest.highlights:
        text = highlight_text(highlight, "en", digest.span)
        assert text.startswith(opening), text
        first = text.split(". ")[0]
        assert {int(n) for n in re.findall(r"#(\d+)", first)} <= set(highlight.prs)
    # Every figure quoted anywhere names what it measures.
    for key in digest.key_prs:
        for claim in key.claims:
            assert re.search(r"[A-Za-z]{3,}", re.sub(r"\d+(?:\.\d+)?\s*(?:x|%|ms|us)", "", claim))
    # Title-only: the key-PR table says it is scored from titles.
    if dataset == "titles":
        assert digest.key_prs and all(k.scored_from_titles for k in digest.key_prs)


def test_key_pr_without_description_is_summarised_by_what_its_title_does() -> None:
    from bot.digest.document import digest_document
    from bot.digest.render import render_markdown

    prs = [_analyzed(100 + i, f"[Model] Add Foo{i}-7B model support", i) for i in range(3)]
    for language, expected in (
        ("en", "Adds Foo0-7B model support"),
        ("zh", "新增 Foo0-7B 模型支持"),
    ):
        digest = fixture_digest(prs=prs, previous=[], score_floor=0.0)
        assert digest.key_prs and digest.key_prs[0].summary == digest.key_prs[0].title
        text = render_markdown(digest_document(digest, language))
        assert expected in text


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        # The head noun phrase, not where/why/how, in Chinese words; identifiers bare.
        ("Native W4A16 kernel for AMD RDNA3 (gfx1100) — fp16 + bf16", "原生 W4A16 内核"),
        ("the aclgraph error caused by blocktable", "aclgraph 错误"),
        ("SM100 gpt-oss regression due to the new kernel", "SM100 gpt-oss 回归"),
        ("Cohere EAGLE draft model", "Cohere EAGLE 草稿模型"),
        (
            "A5 npu_gather_pa_kv_cache operator adaptation for pcp",
            "A5 npu_gather_pa_kv_cache 算子适配",
        ),
        # Plurals through their lemma; "X of Y" reads "Y 的 X".
        ("unused imports", "未使用的导入"),
        ("metadata of DeepseekV4 layers", "DeepseekV4 层的元数据"),
        # A second change inside the object ("and <verb> …") is not the object.
        ("sliding window attention computation and improve throughput", "滑动窗口注意力计算"),
        # Lists: 与 joins two, a longer list names two and 等.
        ("RoPE and FP8 quantization", "RoPE 与 FP8 量化"),
        (
            "custom all-reduce, DeepSeek V4 fused MLA, MiniMax reduce-RMS, and MXFP8 MoE",
            "自定义全归约、DeepSeek V4 融合 MLA 等",
        ),
        # The version an upgrade moves to is news.
        ("triton-ascend to 3.2.1", "triton-ascend 至 3.2.1"),
        ("Triton-based conv1d update operator", "基于 Triton 的 conv1d 更新算子"),
        ("async scheduling + PP", "异步调度 + PP"),
        # Identifiers stay bare, as written.
        (
            "perf_token_group_quant/_C_stable_libtorch for ROCm",
            "perf_token_group_quant/_C_stable_libtorch",
        ),
        ('tool_choice="none" in Chat Completions streaming', 'tool_choice="none"'),
        # A word with no Chinese in the catalogue: None (the caller quotes the whole title),
        # never half translated; a misspelling or an English word is no name.
        ("attention sink support to AITer flash attention backend", "注意力汇聚支持"),
        # A head of one plain word names nothing: the next cut, here too long to word.
        ("mechanism to configure multimodal fields which should stay on CPU", None),
        ("Use VLLMValidationError consistently", None),
        ("torch dynamo guards", None),
    ],
)
def test_zh_object_is_chinese_words_and_bare_identifiers(obj: str, expected: str | None) -> None:
    assert zh_object(obj) == expected


def test_zh_highlight_has_no_chinese_verb_before_an_english_clause() -> None:
    changes = [
        (1, title_change("[310P] Fix the 310P RC memory verification logic in the worker")),
        (2, title_change("[CI] Fix wheel build and Replace hardcoded paths in the Dockerfile")),
        (3, title_change("[Misc] Take native decode path")),
        (4, title_change("[CI] Skip flaky test_models")),
    ]
    zh = change_sentence(changes, "zh", "week")
    assert zh == (
        "本周合入“Fix the 310P RC memory verification logic in the worker”（#1）、"
        "“Take native decode path”（#3），修复安装包构建（#2），跳过不稳定的 test_models（#4）。"
    )


def test_add_to_names_both_in_chinese() -> None:
    changes = [(5, title_change("Add @BugenZhao to CODEOWNERS"))]
    assert change_sentence(changes, "zh", "week") == "本周将 @BugenZhao 加入 CODEOWNERS（#5）。"
    assert (
        change_sentence(changes, "en", "week") == "This week: adds @BugenZhao to CODEOWNERS (#5)."
    )


def test_zh_key_pr_summary_names_kind_and_identifiers_when_the_object_has_no_chinese() -> None:
    from bot.digest.prose import title_summary

    assert title_summary("[CI] Upgrade CANN to 9.0.0", "ci", "zh") == "升级 CANN 至 9.0.0"
    summary = title_summary("[Pixtral] Make Pixtral work with Eagle3 drafts", "feature", "zh")
    assert summary == "新功能，涉及 Pixtral、Eagle3"


def test_a_lead_whose_title_says_little_gives_way_and_repeats_are_said_once() -> None:
    changes = [
        (1, title_change("[Performance]Reduce sampling")),
        (2, title_change("[Test] Add attention ut")),
        (3, title_change("[Test] Add attention ut")),
        (4, title_change("[Perf] Reduce host overhead in the sampler")),
    ]
    text = change_sentence(changes, "en", "week")
    assert text == "This week: adds attention ut (#2); reduces host overhead in the sampler (#4)."


def test_a_verb_the_catalogue_does_not_word_reads_in_both_languages() -> None:
    changes = [(7, title_change("[Misc] Discard native RmsNormGated ops"))]
    assert change_sentence(changes, "en", "week") == (
        "This week: discards native RmsNormGated ops (#7)."
    )
    assert change_sentence(changes, "zh", "week") == (
        "本周合入“Discard native RmsNormGated ops”（#7）。"
    )


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        # A title that is no verb phrase is quoted as written, never read as one.
        ("Intergrate Tile Kernels", "This week: lands “Intergrate Tile Kernels” (#9)."),
        # A verb after "by" takes its -ing form (lemminflect); "by default" stays.
        (
            "[Bugfix] Fix CI by skip MRV2 DFlash e2e test",
            "This week: fixes CI by skipping MRV2 DFlash e2e test (#9).",
        ),
        ("Enable MTP by default for Qwen3", "This week: enables MTP by default for Qwen3 (#9)."),
        # Irregular verbs are inflected by lemminflect.
        ("[Misc] Take native decode path", "This week: takes native decode path (#9)."),
        # "support for <verb>" takes its -ing form; a second change after "&" agrees.
        (
            "Support configure skip_special_tokens in openai response api",
            "This week: adds support for configuring skip_special_tokens in openai response "
            "api (#9).",
        ),
        (
            "[Model Runner V2] Support FlashInfer backend & Fix CUDA Graph bug",
            "This week: adds support for FlashInfer backend and fixes CUDA Graph bug (#9).",
        ),
    ],
)
def test_english_phrases_are_grammatical_or_the_title_as_written(title: str, expected: str) -> None:
    assert change_sentence([(9, title_change(title))], "en", "week") == expected


def test_zh_count_after_the_opening_does_not_say_this_week_again() -> None:
    digest = fixture_digest()
    assert digest.highlights
    for highlight in digest.highlights:
        text = highlight_text(highlight, "zh", digest.span)
        assert text.startswith("本周")
        assert "。本周" not in text, text


def test_key_pr_notes_say_where_the_summaries_come_from() -> None:
    from bot.core import i18n
    from bot.digest.document import digest_document
    from bot.digest.render import render_markdown

    # No description: no summary is quoted from one, so the table does not say so.
    prs = [_analyzed(100 + i, f"[Model] Add Foo{i}-7B model support", i) for i in range(3)]
    for language in ("en", "zh"):
        digest = fixture_digest(prs=prs, previous=[], score_floor=0.0)
        text = render_markdown(digest_document(digest, language))
        assert i18n.t(language, "keypr.note.language") not in text
        assert i18n.t(language, "keypr.note.from_title") in text


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (
            "sliding window attention computation and improve throughput",
            "sliding window attention computation and improves throughput",
        ),
        ("light test cases and update test coverage", "light test cases and updates test coverage"),
        # A noun after "and" stays as written; so does a verb already agreeing.
        (
            "MXFP4 flatquant and support for row parallelism",
            "MXFP4 flatquant and support for row parallelism",
        ),
        ("RoPE and FP8 quantization", "RoPE and FP8 quantization"),
        ("the parser and fixes the docs", "the parser and fixes the docs"),
    ],
)
def test_en_second_verb_agrees_with_the_sentence(obj: str, expected: str) -> None:
    assert en_object(obj) == expected


def test_a_zh_highlight_quotes_one_english_description() -> None:
    digest = fixture_digest()
    en = [highlight_text(h, "en", digest.span) for h in digest.highlights]
    zh = [highlight_text(h, "zh", digest.span) for h in digest.highlights]
    # The fixture's themes have two lead PRs with English descriptions ...
    assert any(text.count(" says: “") == 2 for text in en)
    # ... a Chinese highlight quotes one of them.
    assert zh and all(text.count("英文原文") <= 1 for text in zh)
    assert any(text.count("英文原文") == 1 for text in zh)


def test_a_fix_of_names_only_says_it_fixes_their_problem_in_chinese() -> None:
    changes = [(3, title_change("[Bugfix] Fix atten_mask"))]
    assert change_sentence(changes, "zh", "week") == "本周修复 atten_mask 相关问题（#3）。"
    assert change_sentence(changes, "en", "week") == "This week: fixes atten_mask (#3)."


@pytest.mark.parametrize(("language", "words"), [("en", "Of them, "), ("zh", "其中 ")])
def test_a_highlight_of_several_kinds_says_what_sort_of_work_it_is(
    language: str, words: str
) -> None:
    digest = fixture_digest()
    mixed = [h for h in digest.highlights if h.head is not None and len(h.head.kinds) > 1]
    assert mixed
    for highlight in mixed:
        assert highlight.head is not None
        text = highlight_text(highlight, language, digest.span)
        kind, count = highlight.head.kinds[0]
        assert words in text
        said = i18n.t(language, f"theme.kind_count.{kind}", count=count)
        assert said in text, text
