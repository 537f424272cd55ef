"""The two real vllm-ascend releases in ../shared (skipped without them): what the notes
put where, in every format and both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.digest.render import render_html, render_markdown
from bot.importer import read_export_file
from bot.releases.document import detail_text, release_card, release_document, release_json
from bot.releases.export import import_release, read_release_export, release_object
from bot.releases.pipeline import BuiltRelease, render_release
from bot.releases.service import load_release, release_digest
from formatters.discord import render_discord
from formatters.slack import render_slack

DATASETS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
RELEASES = DATASETS / "releases"
REPO = "vllm-project/vllm-ascend"
FILES = {
    "v0.20.2rc1": RELEASES / "vllm-ascend-v0.19.1rc1..v0.20.2rc1.json",
    "v0.21.0rc1": RELEASES / "vllm-ascend-v0.20.2rc1..v0.21.0rc1.json",
}

pytestmark = pytest.mark.skipif(not RELEASES.is_dir(), reason=f"{RELEASES} absent")
ANALYZER = Analyzer(load_ruleset("generic"))


async def _digest(store, tag: str, history: bool = False):
    path = FILES[tag]
    await import_release(store, read_release_export(path, release_object(path)))
    if history:
        for week in sorted((DATASETS / "vllm-ascend").glob("*.json")):
            await store.prs.upsert(read_export_file(week).prs)
    stored = await store.releases.get(REPO, tag)
    data, missing = await load_release(store, ANALYZER, stored)
    assert missing == []
    return await release_digest(store, ANALYZER, data)


def _numbers(digest, section: str) -> set[int]:
    found = digest.section(section)
    return {item.number for item in found.items} if found else set()


async def test_every_pr_of_the_release_is_in_exactly_one_section(store):
    digest = await _digest(store, "v0.21.0rc1")
    raw = json.loads(FILES["v0.21.0rc1"].read_text(encoding="utf-8"))["pullRequests"]
    data = release_json(digest, "en")
    listed = [s for s in data["sections"] if s["id"] != "highlights"] + data["changelog"]
    named = [n for s in listed for n in s["prs"]]
    # A pick is named as its original ("… (#7820)" picked as #9947), each PR once.
    stored = await store.releases.get(REPO, "v0.21.0rc1")
    assert sorted(named) == sorted({reported for reported, _ in stored.entries})
    assert 7820 in named and 9947 not in named
    assert data["totals"]["merged"] == len(raw) == len(data["prs"])
    assert data["sections"][0]["id"] == "highlights"
    # Curated: several PRs on one subject share an item; the rest is in the changelog.
    assert any(len(item["prs"]) > 1 for s in data["sections"] for item in s["items"])
    fixes = next(s for s in data["sections"] if s["id"] == "fixes")
    assert len(fixes["items"]) < 40 and data["changelog"]
    # The revert of #9744 (#9899) cancels it: listed once, under reverted changes.
    reverted = next(s for s in data["sections"] if s["id"] == "reverted")
    assert 9744 in reverted["prs"] and 9899 in reverted["prs"]


async def test_dependencies_carry_the_versions_the_titles_state(store):
    digest = await _digest(store, "v0.20.2rc1")
    changes = {d.name: (d.after, d.numbers) for d in digest.dependencies}
    assert changes["CANN"][0] == "9.0.0" and 9085 in changes["CANN"][1]
    assert changes["torch-npu"] == ("2.10.0", [9128])
    assert {9085, 9128} <= _numbers(digest, "dependencies")
    # A PR changing dependency files without a version says so and stays in its section.
    unstated = {i.number for i in digest.unstated_dependencies}
    assert 9270 in unstated and 9270 in _numbers(digest, "features")


async def test_breaking_changes_come_with_their_evidence(store):
    digest = await _digest(store, "v0.21.0rc1")
    breaking = {
        i.number: detail_text(i.detail, "en") if i.detail else ""
        for i in digest.section("breaking").items
    }
    assert "VLLM_ASCEND_ENABLE_CONTEXT_PARALLEL" in breaking[9668]
    assert all(breaking.values())  # never listed without a reason


async def test_performance_items_quote_their_claim_with_its_metric(store):
    digest = await _digest(store, "v0.21.0rc1")
    details = [
        detail_text(i.detail, "en")
        for s in digest.sections
        for i in s.items
        if s.id in ("performance", "hardware") and i.detail
    ]
    assert any(re.search(r"\d", d) for d in details if d)


async def test_highlights_are_themes_with_lead_prs_of_the_release(store):
    digest = await _digest(store, "v0.21.0rc1", history=True)
    assert digest.history_weeks > 0
    numbers = {n for s in [*digest.sections, *digest.changelog] for i in s.items for n in i.prs}
    numbers |= {n for _, ns in digest.other for n in ns}
    assert digest.highlights
    for highlight in digest.highlights:
        assert highlight.lead and set(highlight.numbers) <= numbers
        assert {i.number for i in highlight.lead} <= set(highlight.numbers)
    assert any("DeepSeek" in h.title("en") for h in digest.highlights)


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_every_format_renders_and_unknowns_stay_unknown(store, language):
    digest = await _digest(store, "v0.20.2rc1")
    document = release_document(digest, language)
    markdown = render_markdown(document)
    unknown = "unknown" if language == "en" else "未知"
    # Offline: first-time contributors and the releases in between are not known.
    assert digest.new_contributors is None
    assert markdown.count(unknown) >= 2
    assert "[#9085](https://github.com/vllm-project/vllm-ascend/pull/9085)" in markdown
    assert "<html" in render_html(document)
    built = BuiltRelease(digest, language, document)
    data = json.loads(render_release(built, "json"))
    assert data["totals"]["new_contributors"] is None
    assert all(item["text"] and item["prs"] for s in data["sections"] for item in s["items"])
    assert render_slack(document) and render_discord(document)
    card = render_markdown(release_card(digest, language, "https://example.org/notes"))
    assert "https://example.org/notes" in card and len(card) < len(markdown) / 4
