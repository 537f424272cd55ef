"""Honest output on real data: title-only weeks (sizes and file-based flags unknown, key PRs
scored from titles), risk lists without padding, and natural Chinese sentences.

Uses ../shared/datasets (skipped without it)."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC
from pathlib import Path

import pytest

from bot.analysis.analyzer import Analyzer
from bot.analysis.auto_rules import build_auto_ruleset
from bot.analysis.report import analysis_to_json
from bot.analysis.rules import load_ruleset
from bot.cards import pr_text
from bot.core.models import AnalyzedPR, FileChange, PullRequest
from bot.core.weeks import Window, iso_week
from bot.digest.build import build_digest
from bot.digest.document import digest_document
from bot.digest.prose import digest_json
from bot.digest.render import render_markdown
from bot.digest.service import ruleset_settings
from bot.importer import read_export
from tests.conftest import SHARED

DATASETS = SHARED / "datasets"
TITLES_WEEK = DATASETS / "vllm-titles-week-ending-2026-06-05.json"
ASCEND_W22 = DATASETS / "vllm-ascend-2026-W22.json"


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} not available")


def _digest(path: Path, analyzer: Analyzer, window: Window):
    _need(path)
    repo, prs = read_export(path)
    analysed = [AnalyzedPR(p, analyzer.analyze(p)) for p in prs]
    names, auxiliary, key_count, floor = ruleset_settings(analyzer)
    return build_digest(
        analysed,
        [],
        repo=repo,
        window=window,
        timezone="UTC",
        module_names=names,
        key_count=key_count,
        score_floor=floor,
        auxiliary_modules=auxiliary,
    ), prs


def _titles_window() -> Window:
    from datetime import UTC, datetime

    return Window(datetime(2026, 5, 29, tzinfo=UTC), datetime(2026, 6, 5, tzinfo=UTC), "x")


def _ascend_analyzer() -> Analyzer:
    _need(ASCEND_W22)
    repo, prs = read_export(ASCEND_W22)
    paths = {f.path for p in prs for f in p.files}
    subs: dict[str, set[str]] = {}
    for path in paths:
        parts = path.split("/")
        if len(parts) > 2:
            subs.setdefault(parts[0], set()).add(parts[1])
    folders = sorted({path.split("/")[0] for path in paths if "/" in path})
    labels = [label for p in prs for label in p.labels]
    return Analyzer(
        build_auto_ruleset(
            None,
            None,
            folders,
            labels=labels,
            repo=repo,
            subfolders={k: sorted(v) for k, v in subs.items()},
        )
    )


@pytest.mark.parametrize("language", ["en", "zh"])
def test_title_only_week_is_honest(language: str) -> None:
    digest, prs = _digest(TITLES_WEEK, Analyzer(load_ruleset("vllm")), _titles_window())
    assert all(not p.files_known for p in prs)
    data = digest_json(digest, language)
    # Sizes are unknown, never 0.
    assert data["totals"]["additions"] is None and data["totals"]["deletions"] is None
    assert data["totals"]["files_unknown"] == len(prs) == data["totals"]["sizes_unknown"]
    assert all(row["additions"] is None for row in data["prs"])
    # File-based flags are "not known", not 0.
    unknown = {f["id"]: f["unknown"] for f in data["flags"]}
    assert unknown["core-path"] == unknown["missing-tests"] == unknown["large"] == len(prs)
    assert unknown["breaking"] == unknown["revert"] == 0
    # Key PRs do not vanish: the top 10% by relative rank, marked as scored from titles.
    keys = data["key_prs"]
    assert len(keys) == 24 and all(k["scored_from_titles"] for k in keys)
    assert {k["kind"] for k in keys}.isdisjoint({"docs", "ci", "test", "revert"})
    # Most important first, except that a theme's third key PR waits for the others; and
    # every key PR outranks the PRs left out, except the highlights' leads (spread).
    theme_of = {n: h["theme_id"] for h in data["highlights"] for n in h["prs"]}
    leads = {h["prs"][0] for h in data["highlights"]}
    seen: Counter[str] = Counter()
    head = []
    for k in keys:
        theme = theme_of.get(k["number"])
        seen[theme] += 1
        if theme is None or seen[theme] <= 2:
            head.append(k["score"])
    assert head == sorted(head, reverse=True)
    assert min(k["score"] for k in keys if k["number"] not in leads) >= max(
        r["score"]
        for r in data["prs"]
        if r["number"] not in {k["number"] for k in keys}
        and r["kind"] not in {"docs", "ci", "test", "revert"}
    )
    text = render_markdown(digest_document(digest, language))
    assert "+0 / −0" not in text and "0 lines" not in text and "0 行" not in text
    if language == "en":
        assert "not known for 233 PRs without a file list" in text
        # Dependency bumps found from titles are counted, but only those: a lower bound.
        assert "Dependency change: only what the titles show is counted above." in text
        assert "scored from titles" in text
        assert "No PR reached the key-PR score floor" not in text
    else:
        assert "233 个 PR 没有文件列表，无法判断" in text
        assert "其中依赖变更仅按标题统计。" in text
        assert "依据标题评分" in text


def test_title_only_pr_card_and_json() -> None:
    pr = PullRequest(
        repo="vllm-project/vllm",
        number=1,
        title="[Perf] Optimize SM120 CUTLASS blockwise FP8 GEMM",
        url="u",
        state="merged",
        created_at=_titles_window().start,
        files_known=False,
    )
    analysis = Analyzer(load_ruleset("vllm")).analyze(pr)
    data = analysis_to_json(pr, analysis)
    assert data["additions"] is None and data["deletions"] is None
    assert data["changed_files"] is None
    assert {"additions", "deletions", "changed_files"} <= set(data)
    assert "+0 /" not in pr_text(pr, analysis) and "unknown (no file list)" in pr_text(pr, analysis)
    assert "未知（没有文件列表）" in pr_text(pr, analysis, "zh")
    # GitHub gave the totals but refused the file list: the totals are real.
    pr.additions, pr.deletions = 120, 4
    assert analysis_to_json(pr, analysis)["additions"] == 120
    assert "+120 / −4" in pr_text(pr, analysis)


def test_risk_lists_are_not_padded_on_vllm_ascend() -> None:
    analyzer = _ascend_analyzer()
    digest, prs = _digest(ASCEND_W22, analyzer, iso_week(2026, 22, UTC))
    listed = {f.id: f.prs for f in digest.flags}
    by_number = {p.number: p for p in prs}
    for flag in ("large", "dependency"):
        for number in listed[flag]:
            pr = by_number[number]
            assert pr.author not in {"dependabotbot", "vllm-ascend-ci"}
            assert not re.match(r"\[(?:Doc|Docs)\]", pr.title), (flag, pr.title)
    # Recommendations come from evidence, never one sentence over a flag's list (issue 33).
    assert not {"watch-dependencies", "split-large"} & {r.id for r in digest.recommendations}
    # A dependabot bump is still a dependency change on its own card.
    bump = next(p for p in prs if p.author == "dependabotbot")
    assert "dependency" in analyzer.analyze(bump).flag_ids


def test_a_pure_deletion_is_not_missing_tests() -> None:
    analyzer = Analyzer(load_ruleset("vllm"))

    def pr(files: list[tuple[str, int, int]]) -> PullRequest:
        return PullRequest(
            repo="vllm-project/vllm",
            number=2,
            title="[Refactor] Remove the legacy scheduler helpers",
            url="u",
            state="merged",
            created_at=_titles_window().start,
            additions=sum(a for _, a, _ in files),
            deletions=sum(d for _, _, d in files),
            files=[FileChange(p, a, d) for p, a, d in files],
        )

    deletion = pr([("vllm/v1/core/sched/utils.py", 0, 400)])
    assert "missing-tests" not in analyzer.analyze(deletion).flag_ids
    edit = pr([("vllm/v1/core/sched/utils.py", 10, 400)])
    assert "missing-tests" in analyzer.analyze(edit).flag_ids


# Sentences written by the bot (not PR titles or quoted summaries): the summary paragraph,
# highlight paragraphs, risk lines and recommendations.
_METRIC_WORDS = re.compile(
    r"\b(?:higher|lower|faster|throughput|latency|prefill|decode|speedup|speed-up|"
    r"improvement|improved|reduction|fewer|memory)\b",
    re.IGNORECASE,
)


def _bot_sentences(markdown: str) -> list[str]:
    out = []
    section = ""
    for line in markdown.splitlines():
        if line.startswith("## "):
            section = line
            continue
        if line.startswith("|") or not line.strip():
            continue
        if section.startswith(("## 执行摘要", "## 后续建议")) or line.startswith("**"):
            out.append(line)
    return out


@pytest.mark.parametrize("dataset", ["titles", "ascend"])
def test_chinese_digest_sentences_read_naturally(dataset: str) -> None:
    if dataset == "titles":
        digest, _ = _digest(TITLES_WEEK, Analyzer(load_ruleset("vllm")), _titles_window())
    else:
        digest, _ = _digest(ASCEND_W22, _ascend_analyzer(), iso_week(2026, 22, UTC))
    text = render_markdown(digest_document(digest, "zh"))
    assert "其中 0 个" not in text
    assert "等另外" not in text
    # "以缺陷修复（1）为主" — "mostly" over one PR.
    assert not re.search(r"以[^。]*（1）[^。]*为主", text)
    sentences = _bot_sentences(text)
    assert sentences
    for sentence in sentences:
        # Quoted claims (“…”) are the author's words; everything else must be Chinese.
        unquoted = re.sub(r"“[^”]*”", "", re.sub(r"\[[^\]]*\]\([^)]*\)", "", sentence))
        assert not _METRIC_WORDS.search(unquoted), sentence
    # The key-PR table says where its summaries come from: quoted from descriptions (not
    # translated), or, on title-only data, read from the titles.
    if dataset == "titles":
        assert "概要依据其标题" in text and "概要摘自各 PR 的描述" not in text
    else:
        assert "概要摘自各 PR 的描述" in text


def test_claims_in_chinese_keep_figure_and_metric() -> None:
    from bot.analysis.claims import claim_text, extract_claims

    def zh(text: str) -> str:
        return claim_text(extract_claims(text)[0], "zh")

    assert zh("2.15x higher prefill throughput") == "预填充吞吐量提升 2.15x"
    assert zh("30% lower latency") == "延迟降低 30%"
    assert zh("3.17x TPS") == "TPS 提升 3.17x"
    # No translation for the metric: the author's words, quoted.
    assert zh("88% fewer bank group conflicts") == "“88% fewer bank group conflicts”"
    assert claim_text(extract_claims("2.15x throughput")[0], "en") == "2.15x throughput"


def test_summary_without_key_prs_has_no_zero_clause() -> None:
    digest, _ = _digest(ASCEND_W22, _ascend_analyzer(), iso_week(2026, 22, UTC))
    digest.key_prs = []
    digest.totals.key = 0
    from bot.digest.prose import summary_text

    text = summary_text(digest, "zh")
    assert "其中 0 个" not in text and "没有 PR 达到重点 PR 的分数" in text
    json.dumps(digest_json(digest, "zh"))
