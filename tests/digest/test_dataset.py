"""Optional: the real vllm-ascend week in ../shared/datasets (skipped without it)."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.models import AnalyzedPR, FileChange, PullRequest, is_automation
from bot.core.weeks import iso_week
from bot.digest.build import HOUSEKEEPING_KINDS, build_digest, is_bot
from bot.digest.document import digest_document
from bot.digest.render import render_html, render_markdown

DATASET = (
    Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "vllm-ascend-2026-W22.json"
)


def _load() -> tuple[str, list[PullRequest]]:
    if not DATASET.exists():
        pytest.skip(f"{DATASET} not available")
    data = json.loads(DATASET.read_text(encoding="utf-8"))
    prs = [
        PullRequest(
            repo=data["repository"],
            number=p["number"],
            title=p["title"],
            url=p["url"],
            state="merged",
            created_at=datetime.fromisoformat(p["createdAt"]),
            merged_at=datetime.fromisoformat(p["mergedAt"]),
            body=p.get("body") or "",
            author=p.get("author"),
            additions=p["additions"],
            deletions=p["deletions"],
            changed_files=p["changedFiles"],
            labels=p.get("labels", []),
            files=[FileChange(f["path"], f["additions"], f["deletions"]) for f in p["files"]],
            files_known=p.get("filesKnown", True),
        )
        for p in data["pullRequests"]
    ]
    return data["repository"], prs


@pytest.mark.parametrize("language", ["en", "zh"])
def test_real_week_counts(language: str) -> None:
    repo, prs = _load()
    from bot.analysis.analyzer import Analyzer
    from bot.analysis.rules import load_ruleset
    from bot.digest.service import ruleset_settings

    analyzer = Analyzer(load_ruleset("generic"))
    analysed = [AnalyzedPR(pr, analyzer.analyze(pr)) for pr in prs]
    names, auxiliary, key_count, floor = ruleset_settings(analyzer)
    digest = build_digest(
        analysed,
        [],
        repo=repo,
        window=iso_week(2026, 22, UTC),
        timezone="UTC",
        module_names=names,
        key_count=key_count,
        score_floor=floor,
        auxiliary_modules=auxiliary,
    )
    assert digest.totals.merged == 82 == len(prs)
    assert digest.totals.additions == sum(p.additions for p in prs)
    assert digest.totals.contributors == len({p.author for p in prs if not is_bot(p.author)})
    # Risk lists leave out what only pads them: docs/test (and, for "large", CI) changes and
    # automation authors (the week's two dependabot action bumps).
    flags = Counter(
        f.id
        for a in analysed
        for f in a.analysis.flags
        if f.id not in HOUSEKEEPING_KINDS
        or not (is_automation(a.pr.author) or a.analysis.kind in HOUSEKEEPING_KINDS[f.id])
    )
    assert {f.id: f.count for f in digest.flags if f.count} == dict(flags)
    listed = {f.id: set(f.prs) for f in digest.flags}
    assert not {9516, 9517} & listed["dependency"]  # dependabot
    assert 9567 not in listed["large"]  # a docs-only deletion of 137 lines in 63 files
    html = render_html(digest_document(digest, language))
    markdown = render_markdown(digest_document(digest, language))
    assert "82" in markdown and "82" in html
    # No key-PR summary is template text.
    for key in digest.key_prs:
        assert not key.summary.lower().startswith(("what this pr does", "- vllm version"))
