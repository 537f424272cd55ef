"""Document structure, edge cases (empty, incomplete, huge weeks) and escaping."""

from __future__ import annotations

import json
from dataclasses import replace
from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from bot.core.document import Document, Link, Paragraph, Section, Text
from bot.digest.document import digest_document
from bot.digest.prose import digest_json
from bot.digest.render import render_html, render_json, render_markdown
from tests.digest.fixtures import REPO, this_week
from tests.digest.helpers import fixture_digest
from tests.digest.test_properties import WINDOW

ORDER = ["summary", "highlights", "trends", "risks", "key_prs", "recommendations"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_sections_follow_the_issue_order(language: str) -> None:
    doc = digest_document(fixture_digest(), language)
    assert [s.id for s in doc.sections] == ORDER
    assert doc.id == f"digest:{REPO}:2026-W23:{language}"
    assert doc.lead_sections == 1
    assert "/vllm pr " in doc.footer and "/vllm subscribe " in doc.footer


def test_empty_week_says_so_briefly() -> None:
    for language, phrase in (("en", "No pull requests were merged"), ("zh", "没有合并任何 PR")):
        digest = fixture_digest(prs=[])
        doc = digest_document(digest, language)
        assert [s.id for s in doc.sections] == ["summary"]
        assert phrase in render_markdown(doc)
        assert digest_json(digest, language)["totals"]["merged"] == 0


@pytest.mark.parametrize("language", ["en", "zh"])
def test_incomplete_window_is_marked_in_header_and_summary(language: str) -> None:
    digest = fixture_digest(complete=False)
    doc = digest_document(digest, language)
    marker = "incomplete" if language == "en" else "数据不完整"
    assert marker in doc.context.lower()
    summary = render_markdown(doc).split("##")[1]
    assert ("not fully synced" if language == "en" else "尚未完全同步") in summary
    assert digest_json(digest, language)["complete"] is False
    assert marker not in digest_document(fixture_digest(), language).context.lower()


def test_unknown_new_contributors_are_null_not_zero() -> None:
    data = digest_json(fixture_digest(new_contributors=None), "en")
    assert data["totals"]["new_contributors"] is None
    assert digest_json(fixture_digest(), "en")["totals"]["new_contributors"] == 2


def test_json_has_the_contract_keys() -> None:
    data = json.loads(render_json(fixture_digest(), "zh"))
    top = {"repo", "week", "start", "end", "timezone", "language", "totals", "modules"}
    top |= {"kinds", "flags", "key_prs", "highlights", "recommendations", "prs"}
    assert top <= set(data)
    assert set(data["totals"]) == {
        "merged",
        "key",
        "contributors",
        "new_contributors",
        "additions",
        "deletions",
        # Extensions: PRs without a file list / without a size (title-only data).
        "files_unknown",
        "sizes_unknown",
    }
    assert {"id", "name", "count", "previous", "delta"} <= set(data["modules"][0])
    assert {"id", "count", "previous"} <= set(data["kinds"][0])
    assert {"id", "count", "prs"} <= set(data["flags"][0])
    key = {"number", "title", "author", "score", "modules", "summary", "claims", "url"}
    assert key <= set(data["key_prs"][0])
    assert {"theme", "prs", "text"} <= set(data["highlights"][0])
    assert {"text", "prs"} <= set(data["recommendations"][0])
    assert {"number", "modules", "kind", "flags", "score"} <= set(data["prs"][0])


def _hostile_week():
    prs = this_week()
    first = prs[0]
    first.pr.title = "<script>alert(1)</script> **bold** [x](javascript:alert(1)) | pipe `tick`"
    first.pr.author = "evil_user*"
    first.pr.url = "javascript:alert(1)"
    return prs


def test_markdown_escapes_user_text() -> None:
    doc = digest_document(fixture_digest(prs=_hostile_week()), "en")
    markdown = render_markdown(doc)
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    assert "<script>" not in html
    assert 'href="javascript' not in html
    assert "<strong>bold</strong>" not in html
    assert "evil_user*" in html  # shown literally, not as emphasis


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append(tag)
        self.hrefs += [v or "" for k, v in attrs if k == "href"]


def test_html_is_self_contained_escaped_and_printable() -> None:
    html = render_html(digest_document(fixture_digest(prs=_hostile_week()), "zh"))
    parser = _Collector()
    parser.feed(html)
    assert "script" not in parser.tags
    assert not any(h.startswith("javascript") for h in parser.hrefs)
    assert "&lt;script&gt;" in html
    assert "@media print" in html and '<html lang="zh-Hans">' in html
    assert "<link" not in html and "src=" not in html  # nothing external to load


def test_markdown_special_characters_round_trip_as_text() -> None:
    spans = (Text("a_b*c [d](e) <f> #1 | g & h"),)
    doc = Document("x", "T", "C", (Section("s", "S", (Paragraph(spans),)),), "f")
    rendered = MarkdownIt("commonmark").render(render_markdown(doc))
    assert "a_b*c [d](e) &lt;f&gt; #1 | g &amp; h" in rendered


def test_links_with_unsafe_schemes_become_text() -> None:
    doc = Document(
        "x", "T", "C", (Section("s", "S", (Paragraph((Link("javascript:x()", "#1"),)),)),), "f"
    )
    assert "javascript" not in render_markdown(doc)
    assert "javascript" not in render_html(doc)


def test_a_week_of_1500_prs_builds_and_renders() -> None:
    # How fast: bench/bench_digest.py measures 250- and 10,000-PR weeks (no timing here).
    base = this_week()
    prs = []
    for i in range(1500):
        source = base[i % len(base)]
        pr = replace(source.pr, number=100_000 + i, author=f"user{i % 300}")
        prs.append(replace(source, pr=pr))
    digest = fixture_digest(prs=prs)
    markdown = render_markdown(digest_document(digest, "zh"))
    assert digest.totals.merged == 1500 and digest.totals.contributors == 300
    assert len(digest.key_prs) == 24 and len(digest.highlights) <= 8
    assert "1,500" in markdown
    assert WINDOW.label == digest.week
