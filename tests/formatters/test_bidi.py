"""Bidirectional control characters never reach Slack or Discord (issue 25)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from formatters import escape

BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
ESCAPES = (
    escape.slack_plain,
    escape.slack_mrkdwn,
    escape.slack_code,
    escape.discord_markdown,
    escape.discord_plain,
    escape.discord_code,
)


@given(st.text(alphabet=st.sampled_from("ab *_<@\n" + BIDI), max_size=40))
def test_no_escape_lets_a_bidi_control_through(text: str) -> None:
    for shown in (*(f(text) for f in ESCAPES), escape.slack_link("https://x.test", text),
                  escape.discord_link("https://x.test", text)):  # fmt: skip
        assert not set(shown) & set(BIDI), (text, shown)


def test_the_rest_of_a_title_is_kept() -> None:
    assert escape.discord_plain("fix \u202egnp.exe\u202c") == "fix gnp.exe"
