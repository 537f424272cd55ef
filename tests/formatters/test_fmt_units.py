"""Focused tests: escaping, the splitting engine, validators and message structure."""

from __future__ import annotations

import pytest

from bot.core.document import (
    BulletList,
    Code,
    Document,
    Link,
    Paragraph,
    Section,
    Strong,
    Table,
    Text,
)
from formatters import discord_thread_name, render_discord, render_slack
from formatters import limits as L
from formatters.discord import display_width
from formatters.escape import (
    ZWSP,
    discord_link,
    discord_markdown,
    safe_url,
    slack_link,
    slack_mrkdwn,
)
from formatters.split import ELLIPSIS, fit_inline, plain, render_inline, wrap_inline
from formatters.validate import validate_discord_message, validate_slack_message
from tests.formatters.fmt_docs import PR, discord_urls, pr_link, slack_urls


def _doc(*sections: Section, lead: int = 1, title: str = "Digest") -> Document:
    return Document(
        id="t", title=title, context="ctx", sections=sections, fallback="fb", lead_sections=lead
    )


# --- escaping --------------------------------------------------------------------------


def test_slack_escaping_stops_pings_and_entities_round_trip():
    assert slack_mrkdwn("<!channel> <@U123> &lt;") == "&lt;!channel&gt; &lt;@U123&gt; &amp;lt;"
    assert slack_mrkdwn("ping @here") == f"ping @{ZWSP}here"


def test_slack_styles_are_neutralised_only_at_word_boundaries():
    assert slack_mrkdwn("snake_case x*y") == "snake_case x*y"
    assert slack_mrkdwn("*bold* _it_ ~s~") == f"{ZWSP}*bold* {ZWSP}_it_ {ZWSP}~s~"
    assert slack_mrkdwn("`code`") == f"{ZWSP}`code{ZWSP}`"


def test_discord_escaping_breaks_markdown_links_and_mentions():
    assert discord_markdown("[x](https://evil)") == r"\[x\]\(https://evil\)"
    assert discord_markdown("@everyone <@123>") == f"@{ZWSP}everyone <{ZWSP}@123>"
    assert discord_markdown("# h\n> q\n- l\n1. n") == "\\# h\n\\> q\n\\- l\n1\\. n"
    assert discord_markdown("a - b # c") == "a - b # c"  # only at line starts


def test_links_only_for_web_urls_and_cannot_be_broken_out_of():
    assert safe_url("javascript:alert(1)") is None
    assert slack_link("javascript:alert(1)", "x") == "x"
    assert slack_link("https://a.example/?q=1|2&r=>", "a|b") == (
        "<https://a.example/?q=1%7C2&amp;r=%3E|a\u2223b>"
    )
    assert discord_link("https://a.example/(x)", "](y)") == r"[\]\(y\)](https://a.example/%28x%29)"


# --- splitting engine ------------------------------------------------------------------


def test_fit_inline_shortens_text_but_keeps_the_link():
    spans = (Text("t" * 500), Link(PR.format(1), "#1"))
    fitted = fit_inline(spans, 100, slack_mrkdwn_span)
    rendered = render_inline(fitted, slack_mrkdwn_span)
    assert len(rendered) <= 100
    assert ELLIPSIS in rendered
    assert fitted[-1] == Link(PR.format(1), "#1")


def slack_mrkdwn_span(span):
    from formatters.slack import render_span

    return render_span(span)


@pytest.mark.parametrize("text", ["word " * 3000, "长" * 9000, "👨‍👩‍👧" * 2000])
def test_wrap_inline_loses_nothing_and_keeps_clusters(text):
    pieces = wrap_inline((Text(text),), 1000, lambda s: s.text)
    assert all(len(plain(p)) <= 1000 for p in pieces)
    assert "".join(plain(p) for p in pieces) == text
    if "👨" in text:  # never cut inside a family emoji (ZWJ sequence)
        assert all(plain(p).startswith("👨") for p in pieces)


def test_display_width_counts_cjk_double():
    assert display_width("模块ab") == 6
    assert display_width("e\u0301") == 1


# --- structure -------------------------------------------------------------------------


def _many_items(n: int) -> BulletList:
    return BulletList(tuple((Text(f"item {i} 中文 🎉 "), pr_link(i)) for i in range(n)))


def test_summary_then_thread_with_part_markers():
    doc = _doc(
        Section("s", "Summary", (Paragraph((Text("hi"),)),)),
        Section("all", "All PRs", (_many_items(2000),)),
    )
    for payloads, validate in (
        (render_slack(doc), validate_slack_message),
        (render_discord(doc), validate_discord_message),
    ):
        assert len(payloads) > 3
        assert all(validate(p) == [] for p in payloads)
    slack = render_slack(doc)
    assert slack[0]["blocks"][-1]["text"]["text"] == "hi"
    n = len(slack) - 1
    headers = [p["blocks"][0]["text"]["text"] for p in slack[1:]]
    assert headers == [f"All PRs ({i}/{n})" for i in range(1, n + 1)]
    assert slack_urls(slack) == [PR.format(i) for i in range(2000)]
    discord = render_discord(doc)
    m = len(discord) - 1
    titles = [p["embeds"][0]["title"] for p in discord[1:]]
    assert titles == [f"All PRs ({i}/{m})" for i in range(1, m + 1)]
    assert discord_urls(discord) == [PR.format(i) for i in range(2000)]


def test_long_tables_repeat_their_header_in_every_part():
    rows = tuple(((Text(f"模块{i}"),), (Text(str(i)),)) for i in range(1000))
    doc = _doc(Section("t", "Modules", (Table(("Module", "PRs"), rows, ("l", "r")),)), lead=0)
    slack = render_slack(doc)[1:]
    assert len(slack) >= 10
    tables = [b for p in slack for b in p["blocks"] if b["type"] == "table"]
    assert all(t["rows"][0][0]["text"] == "Module" for t in tables)
    assert sum(len(t["rows"]) - 1 for t in tables) == 1000
    assert all(p["blocks"][-1]["type"] == "table" for p in slack)
    discord = render_discord(doc)[1:]
    blocks = [e["description"] for p in discord for e in p["embeds"]]
    assert all(d.startswith("```\nModule   PRs\n") and d.endswith("\n```") for d in blocks)
    lines = [line for d in blocks for line in d.split("\n")[3:-1]]
    assert [line.split()[0] for line in lines] == [f"模块{i}" for i in range(1000)]
    assert {display_width(line) for line in lines} == {display_width("模块999  999")}


def test_huge_title_and_styled_spans_stay_within_limits():
    title = "<!channel> 长" * 2000
    doc = _doc(
        Section("s", title, (Paragraph((Strong(title), Code(title), Link(PR.format(7), title))),)),
        title=title,
    )
    slack = render_slack(doc)
    assert all(validate_slack_message(p) == [] for p in slack)
    assert slack[0]["blocks"][0]["text"]["text"].endswith(ELLIPSIS)
    assert slack_urls(slack) == [PR.format(7)]
    discord = render_discord(doc)
    assert all(validate_discord_message(p) == [] for p in discord)
    assert discord_urls(discord) == [PR.format(7)]
    assert len(discord_thread_name(doc)) <= L.DISCORD_THREAD_NAME_MAX


def test_empty_document_still_posts_a_summary():
    doc = Document(id="x", title="", context="", sections=(), fallback="")
    assert [validate_slack_message(p) for p in render_slack(doc)] == [[]]
    assert [validate_discord_message(p) for p in render_discord(doc)] == [[]]


# --- validators catch what they claim to -----------------------------------------------


def test_slack_validator_reports_violations():
    header = {"type": "header", "text": {"type": "plain_text", "text": "x" * 151}}
    ping = {"type": "section", "text": {"type": "mrkdwn", "text": "<!channel> @here"}}
    too_many = [{"type": "divider", "block_id": "d"} for _ in range(51)]
    problems = validate_slack_message({"blocks": [header, ping, *too_many]})
    joined = "\n".join(problems)
    for expected in (
        "fallback is missing",
        "151 chars > 150",
        "unescaped '<'",
        "'@here'",
        "blocks: 53 > 50",
        "duplicate block_id",
    ):
        assert expected in joined
    big = [{"type": "section", "text": {"type": "mrkdwn", "text": "a" * 3000}}] * 4
    assert any("chars of text" in p for p in validate_slack_message({"text": "t", "blocks": big}))


def test_discord_validator_reports_violations():
    embed = {
        "title": "t" * 257,
        "description": "d" * 4000,
        "fields": [{"name": "", "value": "@everyone"}],
    }
    problems = "\n".join(validate_discord_message({"embeds": [embed, {"description": "x" * 2000}]}))
    for expected in (
        "allowed_mentions",
        "257 chars > 256",
        "missing or empty",
        "'@everyone'",
        "in total > 6000",
    ):
        assert expected in problems
