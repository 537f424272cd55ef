"""Every count in the digest JSON equals a count over the PRs it was built from."""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import UTC, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.models import (
    FLAG_IDS,
    KIND_IDS,
    Analysis,
    AnalyzedPR,
    Claim,
    Flag,
    ModuleMatch,
    PullRequest,
    is_automation,
)
from bot.core.weeks import iso_week
from bot.digest.build import HOUSEKEEPING_KINDS, build_digest, is_bot
from bot.digest.prose import digest_json

WINDOW = iso_week(2026, 23, UTC)
MODULES = ["rocm", "xpu", "cpu", "attention", "moe", "tests", "docs", "frontend", "other"]
AUTHORS = ["alice", "bob", "carol", "dave", "app/dependabot", "erin[bot]", None]


@st.composite
def analysed_pr(draw, number: int) -> AnalyzedPR:
    modules = draw(st.lists(st.sampled_from(MODULES), max_size=4, unique=True))
    flags = draw(st.lists(st.sampled_from(FLAG_IDS), max_size=4, unique=True))
    pr = PullRequest(
        repo="o/r",
        number=number,
        title=f"PR {number}",
        url=f"https://github.com/o/r/pull/{number}",
        state="merged",
        created_at=WINDOW.start,
        merged_at=WINDOW.start + timedelta(hours=number % 160),
        author=draw(st.sampled_from(AUTHORS)),
        additions=draw(st.integers(0, 5000)),
        deletions=draw(st.integers(0, 5000)),
        files_known=draw(st.booleans()),
    )
    if not pr.files_known and draw(st.booleans()):
        pr.additions = pr.deletions = 0  # a title-only import: the size is unknown
    analysis = Analysis(
        modules=[ModuleMatch(m, "rule") for m in modules],
        kind=draw(st.sampled_from(KIND_IDS)),
        kind_reason="",
        flags=[Flag(f, "reason") for f in flags],
        score=draw(st.integers(0, 100)) / 10,
        contributions=[],
        claims=[Claim("2x throughput", 2.0)] if draw(st.booleans()) else [],
    )
    return AnalyzedPR(pr, analysis)


TITLE_ONLY = {"docs", "ci", "test", "revert"}  # kinds never key PRs on title-only data


@st.composite
def week(draw, max_size: int = 40) -> list[AnalyzedPR]:
    numbers = draw(st.lists(st.integers(1, 100_000), max_size=max_size, unique=True))
    return [draw(analysed_pr(n)) for n in numbers]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    prs=week(),
    previous=week(20),
    key_count=st.integers(0, 30),
    floor=st.integers(0, 10),
    language=st.sampled_from(["en", "zh"]),
    previous_complete=st.booleans(),
)
def test_every_count_is_a_count_over_the_prs(
    prs, previous, key_count, floor, language, previous_complete
) -> None:
    digest = build_digest(
        prs,
        previous,
        repo="o/r",
        window=WINDOW,
        timezone="UTC",
        module_names={},
        new_contributors={"alice", "zed"},
        key_count=key_count,
        score_floor=float(floor),
        previous_complete=previous_complete,
    )
    data = digest_json(digest, language)

    authors = {a.pr.author for a in prs if not is_bot(a.pr.author)}
    totals = data["totals"]
    assert totals["merged"] == len(prs)
    # Sizes: sums over the PRs whose size is known; null (never 0) when none is known.
    sized = [a for a in prs if a.pr.size_known]
    assert totals["additions"] == (sum(a.pr.additions for a in sized) if sized else None)
    assert totals["deletions"] == (sum(a.pr.deletions for a in sized) if sized else None)
    assert totals["sizes_unknown"] == len(prs) - len(sized)
    assert totals["files_unknown"] == sum(1 for a in prs if not a.pr.files_known)
    for row in data["prs"]:
        pr = next(a.pr for a in prs if a.pr.number == row["number"])
        assert (row["additions"] is None) == (not pr.size_known)
    assert totals["contributors"] == len(authors)
    assert totals["new_contributors"] == len({"alice"} & authors)

    eligible = sorted(
        (a for a in prs if a.analysis.score >= floor),
        key=lambda a: (-a.analysis.score, a.pr.number),
    )
    # Key PRs: the top PRs by score and each highlight's lead (its most important member,
    # when it scores half the floor), at most key_count of them.
    by_number = {a.pr.number: a for a in prs}
    leads = {
        n
        for h in data["highlights"]
        if (n := h["prs"][0]) in by_number
        and by_number[n].analysis.score >= floor / 2
        and (by_number[n].pr.files_known or by_number[n].analysis.kind not in TITLE_ONLY)
    }
    keys = [k["number"] for k in data["key_prs"]]
    relative = [k for k in data["key_prs"] if k["scored_from_titles"] and k["number"] not in leads]
    top = [a.pr.number for a in eligible[:key_count]]
    absolute = [n for n in keys if n not in leads and n not in {k["number"] for k in relative}]
    assert absolute == [n for n in top if n in absolute]
    assert set(absolute) | leads >= set(top[: max(key_count - len(leads), 0)])
    if len(leads) <= key_count:
        assert leads <= set(keys)
    assert len(set(keys)) == len(keys)
    assert totals["key"] == len(data["key_prs"]) <= max(key_count, 0)
    # Title-only PRs fill up by relative rank: the top 10% of them, never docs/CI/tests.
    title_only = [a for a in prs if not a.pr.files_known]
    assert len(relative) <= math.ceil(0.1 * len(title_only))
    for k in relative:
        a = next(a for a in title_only if a.pr.number == k["number"])
        assert a.analysis.score > 2.0 and a.analysis.kind not in TITLE_ONLY

    # A partly synced previous week is no baseline: its counts are null (unknown), never
    # the partial count, and nothing is compared with it.
    baseline = previous if previous_complete else []
    module_now = Counter(m for a in prs for m in {x.id for x in a.analysis.modules})
    module_before = Counter(m for a in baseline for m in {x.id for x in a.analysis.modules})
    assert {m["id"]: m["count"] for m in data["modules"]} == {
        m: module_now[m] for m in module_now | module_before
    }
    assert {m["id"]: m["previous"] for m in data["modules"]} == {
        m: module_before[m] if previous_complete else None for m in module_now | module_before
    }
    for m in data["modules"]:
        if m["previous"]:
            expected = round((m["count"] - m["previous"]) * 100 / m["previous"], 1)
            assert m["delta"] == expected
        else:
            assert m["delta"] is None

    kinds_now = Counter(a.analysis.kind for a in prs)
    kinds_before = Counter(a.analysis.kind for a in baseline)
    assert {k["id"]: (k["count"], k["previous"]) for k in data["kinds"]} == {
        k: (kinds_now[k], kinds_before[k] if previous_complete else None)
        for k in kinds_now | kinds_before
    }

    by_number = {a.pr.number: a for a in prs}
    for flag in data["flags"]:
        having = [
            a
            for a in prs
            if flag["id"] in a.analysis.flag_ids
            and not (
                flag["id"] in HOUSEKEEPING_KINDS
                and (
                    is_automation(a.pr.author) or a.analysis.kind in HOUSEKEEPING_KINDS[flag["id"]]
                )
            )
        ]
        assert flag["count"] == len(having) == len(flag["prs"])
        assert set(flag["prs"]) == {a.pr.number for a in having}
        scores = [by_number[n].analysis.score for n in flag["prs"]]
        assert scores == sorted(scores, reverse=True)  # most important first

    assert [p["number"] for p in data["prs"]] == sorted(by_number)
    for row in data["prs"]:
        analysis = by_number[row["number"]].analysis
        assert row["flags"] == analysis.flag_ids and row["kind"] == analysis.kind

    # Highlights are theme groups: no PR in two, every member merged in the window, the
    # count in each theme sentence is the member count, at most 8 groups.
    grouped = [n for h in data["highlights"] for n in h["prs"]]
    assert len(grouped) == len(set(grouped)) and set(grouped) <= set(by_number)
    for h in data["highlights"]:
        count = len(h["prs"])
        # The count sentence follows the opening sentence on what changed.
        assert re.search(rf"(?:^|[.。] ?)(?:{count} PR|(?:本周|共) {count} 个 PR)", h["text"]), h[
            "text"
        ]
        assert count >= 2 or set(h["prs"]) <= {k["number"] for k in data["key_prs"]}
    assert len(data["highlights"]) <= 8
    for rec in data["recommendations"]:
        assert rec["prs"] and set(rec["prs"]) <= set(by_number)
    quiet = {m["id"] for m in data["modules"] if m["count"] == 0 and (m["previous"] or 0) > 0}
    assert set(data["quiet_modules"]) == quiet

    # Risks most important first: core-path without tests is its own list.
    assert data["core_untested"] == [
        n for n in data["flags"][0]["prs"] if "missing-tests" in by_number[n].analysis.flag_ids
    ]
    # Dominant themes are the first highlight themes, in weight order.
    assert data["themes"] == [h["theme_id"] for h in data["highlights"][:5]]
