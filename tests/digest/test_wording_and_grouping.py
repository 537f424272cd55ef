"""What the digest may claim (unknown newcomers, no baseline, running weeks, custom windows),
how risks are listed and ordered, and how key PRs are grouped into themes."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.core import i18n
from bot.core.weeks import Window
from bot.digest.build import HIGHLIGHT_PRS, MAX_HIGHLIGHT_GROUPS, build_digest
from bot.digest.document import digest_document
from bot.digest.history import module_name
from bot.digest.prose import digest_json, highlight_text, recommendation_text, summary_of
from bot.digest.render import render_markdown
from tests.digest.fixtures import MODULE_NAMES, REPO, WINDOW, _pr, this_week
from tests.digest.helpers import fixture_digest

CUSTOM = Window(
    datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 4, tzinfo=UTC), "2026-06-01..2026-06-04"
)


def _markdown(digest, language: str = "en") -> str:
    return render_markdown(digest_document(digest, language))


def _section(markdown: str, title: str) -> str:
    return markdown.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


# ------------------------------------------------------------------ 1. unknown newcomers


@pytest.mark.parametrize(
    ("language", "summary", "fact"),
    [
        ("en", "First-time contributors: unknown (needs GitHub).", "unknown (needs GitHub)"),
        ("zh", "首次贡献者：未知（需要连接 GitHub 查询）。", "未知（需要连接 GitHub 查询）"),
    ],
)
def test_unknown_first_time_contributors_are_said_to_be_unknown(
    language: str, summary: str, fact: str
) -> None:
    digest = fixture_digest(new_contributors=None)
    assert summary in summary_of(digest, language)
    facts = _section(_markdown(digest, language), i18n.t(language, "section.summary"))
    label = i18n.t(language, "fact.new_contributors")
    assert re.search(rf"\*\*{label}[:：]\*\* {re.escape(fact)}", facts)


def test_no_first_time_contributors_is_stated_as_none() -> None:
    digest = fixture_digest(new_contributors=set())
    assert digest.totals.new_contributors == 0
    assert "- **First-time contributors:** none" in _markdown(digest)
    assert "unknown" not in summary_of(digest, "en")


# ------------------------------------------------------------------ 2. no baseline


@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_incomplete_previous_week_is_never_compared_with(language: str) -> None:
    digest = fixture_digest(previous_complete=False)
    data = digest_json(digest, language)
    assert all(m["previous"] is None and m["delta"] is None for m in data["modules"])
    assert all(k["previous"] is None for k in data["kinds"])
    assert data["quiet_modules"] == []
    # No growth claims anywhere in the prose.
    words = ("last week", "from last", "▲", "▼", "(new") if language == "en" else ("上周", "增长")
    prose = [summary_of(digest, language)]
    prose += [highlight_text(h, language, digest.span) for h in digest.highlights]
    prose += [recommendation_text(r, language, digest.span) for r in digest.recommendations]
    assert not [w for w in words for text in prose if w in text]

    trends = _section(_markdown(digest, language), i18n.t(language, "section.trends"))
    assert trends.lstrip().startswith("**⚠ ")
    assert "2026-W22" in trends
    assert f"| {i18n.t(language, 'trends.col.previous')} |" not in trends
    assert "▲" not in trends and "▼" not in trends


def test_a_complete_previous_week_is_compared_with() -> None:
    digest = fixture_digest()
    rocm = next(m for m in digest.modules if m.id == "rocm")
    assert (rocm.previous, rocm.delta) == (2, 150.0)
    # Themes compare with the week before: "continuing (last week N → this week M)" etc.
    assert digest.history_weeks == 1
    assert all(h.trend != "unknown" for h in digest.highlights)


# ------------------------------------------------------------------ 3. running week


@pytest.mark.parametrize(
    ("language", "running", "unsynced"),
    [
        ("en", "The week is not over yet (figures so far).", "not fully synced"),
        ("zh", "本周尚未结束（以下为截至目前的数据）。", "尚未完全同步"),
    ],
)
def test_a_running_week_is_not_called_unsynced(language: str, running: str, unsynced: str) -> None:
    digest = fixture_digest(complete=False, in_progress=True)
    doc = digest_document(digest, language)
    assert doc.context.startswith("⚠ " + i18n.t(language, "incomplete.short.running"))
    assert summary_of(digest, language).endswith(running)  # a caveat: last (issue 21)
    assert unsynced not in render_markdown(doc)

    failed = fixture_digest(complete=False)
    assert unsynced in summary_of(failed, language) and running not in summary_of(failed, language)


# ------------------------------------------------------------------ 4. plurals


_PLURAL_NOUNS = r"(PRs|contributors|lines|modules|files|changes|reverts|gains|themes)"


@pytest.mark.parametrize("msg_id", sorted(i18n.MESSAGES))
def test_english_counts_of_one_are_singular(msg_id: str) -> None:
    # Every placeholder set to 1 (strings read "1" too): no "1 key PRs", "1 lines".
    fields = {
        n for _, n, _, _ in __import__("string").Formatter().parse(i18n.MESSAGES[msg_id]["en"]) if n
    }
    text = i18n.t("en", msg_id, **dict.fromkeys(fields, 1))
    assert not re.search(rf"\b1 (\w+ )?{_PLURAL_NOUNS}\b", text), text


def test_summary_totals_are_singular_for_one() -> None:
    text = i18n.t(
        "en",
        "summary.counts",
        repo="o/r",
        merged=1,
        contributors=1,
        additions=1,
        deletions=0,
    )
    assert text == (
        "1 PR was merged into o/r, written by 1 contributor, adding 1 line and removing 0."
    )
    assert i18n.t("en", "summary.key", key=1) == "1 of them is a key PR (see the table below)."


# ------------------------------------------------------------------ 5. custom windows, Chinese


def test_a_custom_window_is_not_called_a_week() -> None:
    prs = [a for a in this_week() if a.pr.merged_at < CUSTOM.end]
    digest = fixture_digest(window=CUSTOM, prs=prs)
    zh = _markdown(digest, "zh")
    en = _markdown(digest, "en")
    assert "本期" in zh and "本周" not in zh and "上周" not in zh
    assert "This period" in en
    assert not re.search(r"\b(this|last) week\b", en, re.IGNORECASE)


def test_chinese_names_join_without_stray_spaces() -> None:
    names = dict(MODULE_NAMES, rocm=("ROCm / AMD", "ROCm / AMD 平台"))
    digest = fixture_digest(module_names=names)
    table = _section(_markdown(digest, "zh"), i18n.t("zh", "section.key_prs"))
    assert "、" in table and not re.search(r"\| [^|]*[\u4e00-\u9fff\w], [\u4e00-\u9fff]", table)


# ------------------------------------------------------------------ 6, 7. risks


def _untested_week(count: int):
    return [
        _pr(
            1000 + n,
            f"Change {n}",
            f"dev{n}",
            ["scheduler"],
            "refactor",
            float(n % 10),
            files=[("vllm/v1/core/sched/scheduler.py", 10, 1)],
            flags=("missing-tests", "large") if n % 2 else ("missing-tests",),
        )
        for n in range(count)
    ]


def test_every_flagged_pr_is_listed_most_important_first() -> None:
    prs = _untested_week(30)
    digest = fixture_digest(prs=prs, previous=[])
    risks = _section(_markdown(digest), "Risks")
    line = next(x for x in risks.splitlines() if x.startswith("- **Missing tests**"))
    listed = [int(n) for n in re.findall(r"\[#(\d+)\]", line)]
    expected = [a.pr.number for a in sorted(prs, key=lambda a: (-a.analysis.score, a.pr.number))]
    assert listed == expected
    assert "more" not in risks
    details = risks.split("**Large PRs**", 1)[1]
    assert len(re.findall(r"^- \[#", details, re.M)) == 15


def test_every_active_module_has_a_trend_row() -> None:
    digest = fixture_digest()
    trends = _section(_markdown(digest), "Trends")
    for module in digest.modules:
        if module.count:
            assert f"| {module_name(module.names, 'en')} | " in trends


def test_core_path_changes_without_tests_lead_the_risks() -> None:
    digest = fixture_digest()
    risks = [x for x in _section(_markdown(digest), "Risks").splitlines() if x.startswith("- ")]
    assert risks[0].startswith("- **5 PRs changed core paths without tests**")
    order = [re.match(r"- \*\*([^*]+)\*\*", x)[1] for x in risks[1:6]]
    assert order == [
        "Breaking change",
        "Revert",
        "Core-path change",
        "Missing tests",
        "Dependency change",
    ]
    assert "Risks: 5 PRs changed core paths without tests, 2 PRs are breaking" in summary_of(
        digest, "en"
    )


# ------------------------------------------------------------------ 8. highlight groups


def _themes_week():
    """24 key PRs: 20 mainly in the model runner (10 of them also in the scheduler), and
    every PR touches "distributed" in passing."""
    prs = []
    for n in range(24):
        modules = ["model-runner"] if n < 20 else [["rocm"], ["xpu"], ["lora"], ["metrics"]][n - 20]
        if n < 10:
            modules = [*modules, "scheduler"]
        prs.append(
            _pr(
                2000 + n,
                f"Key change {n}",
                f"dev{n}",
                [*modules, "distributed"],
                "feature",
                9.0 - n / 10,
                files=[("vllm/x.py", 5, 5)],
            )
        )
    return prs


def test_a_theme_lists_at_most_a_few_prs_and_names_the_rest() -> None:
    digest = fixture_digest(prs=_themes_week(), previous=[])
    big = max(digest.highlights, key=lambda h: len(h.prs))
    assert len(big.prs) > HIGHLIGHT_PRS
    highlights = _section(_markdown(digest), "Highlights")
    rest = len(big.prs) - HIGHLIGHT_PRS
    assert f"And {rest} more PRs in this theme:" in highlights
    assert len(digest.highlights) <= MAX_HIGHLIGHT_GROUPS


# ------------------------------------------------------------------ 9. themes never empty


def _only(modules: list[str], count: int = 6):
    return [
        _pr(3000 + n, f"Chore {n}", f"dev{n}", modules, "ci", 6.0, files=[("x", 1, 1)])
        for n in range(count)
    ]


@pytest.mark.parametrize("modules", [["tests", "ci-build"], ["other"], ["docs", "other"]])
def test_auxiliary_only_weeks_say_no_theme_stood_out(modules: list[str]) -> None:
    digest = fixture_digest(prs=_only(modules), previous=[])
    # Tests, CI, docs and the catch-all are no subject: no theme, and the summary names
    # the kinds of change instead.
    assert not digest.themes and not digest.highlights
    assert "This week's work centred on" in summary_of(digest, "en")
    assert "No theme stood out" in _markdown(digest)


def test_prs_without_modules_fall_back_to_kinds_as_themes() -> None:
    prs = [replace(a, analysis=replace(a.analysis, modules=[])) for a in _only(["tests"])]
    digest = build_digest(prs, [], repo=REPO, window=WINDOW, timezone="UTC", module_names={})
    assert digest.themes == []
    assert "This week's work centred on CI/build (6 PRs)." in summary_of(digest, "en")
