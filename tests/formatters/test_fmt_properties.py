"""Property tests: any digest-shaped Document gives payloads within every limit, with
every item exactly once and in order, nothing that pings, and the same output twice."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings

from formatters import render_discord, render_slack
from formatters.validate import validate_discord_message, validate_slack_message
from tests.formatters.fmt_docs import discord_urls, documents, expected_urls, slack_urls

# Modest example counts: a single example can hold 2,000 rows and 10,000-char titles.
SETTINGS = settings(
    max_examples=35,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@SETTINGS
@given(documents())
def test_slack_payloads_meet_every_limit_and_keep_every_item(doc):
    payloads = render_slack(doc, channel="C0123456")
    assert payloads, "there is always a summary message"
    for i, payload in enumerate(payloads):
        assert validate_slack_message(payload) == [], (i, validate_slack_message(payload))
        assert payload["channel"] == "C0123456"
    assert slack_urls(payloads) == expected_urls(doc)
    assert render_slack(doc, channel="C0123456") == payloads
    assert json.loads(json.dumps(payloads)) == payloads


@SETTINGS
@given(documents())
def test_discord_bodies_meet_every_limit_and_keep_every_item(doc):
    bodies = render_discord(doc)
    assert bodies
    for i, body in enumerate(bodies):
        assert validate_discord_message(body) == [], (i, validate_discord_message(body))
    assert discord_urls(bodies) == expected_urls(doc)
    assert render_discord(doc) == bodies
    assert json.loads(json.dumps(bodies)) == bodies


@SETTINGS
@given(documents())
def test_summary_holds_only_lead_sections(doc):
    lead = max(doc.lead_sections, 0)
    detail_urls = expected_urls(doc.__class__(**{**_fields(doc), "sections": doc.sections[lead:]}))
    first_slack = slack_urls(render_slack(doc)[:1])
    first_discord = discord_urls(render_discord(doc)[:1])
    # No link of a detail section may appear in the summary message.
    assert not set(first_slack) & set(detail_urls)
    assert not set(first_discord) & set(detail_urls)


def _fields(doc):
    return {name: getattr(doc, name) for name in doc.__dataclass_fields__}
