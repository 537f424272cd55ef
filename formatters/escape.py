"""Per-platform escaping of untrusted text: the one place it happens.

Everything a Document carries (titles, logins, PR bodies, even section titles) is treated
as untrusted. Renderers call these functions on every string they emit and never build
markup from raw text themselves.

Slack (mrkdwn): only ``&``, ``<`` and ``>`` have entity escapes, and escaping ``<`` is what
stops ``<!channel>``/``<@U123>`` from pinging. mrkdwn has no backslash escape, so a
formatting character that could open a style (``*bold*``, ``_it_``, ``~strike~``, a backtick)
gets an invisible zero-width space in front of it, which Slack does not accept as the
word boundary a style needs.

Discord (markdown): backslash escapes work for every markdown character; mentions are
broken with a zero-width space (``allowed_mentions`` already stops pings, this also stops
the mention from *rendering* as one).

Both: bidirectional control characters (U+202E and kin) are dropped.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import quote, urlsplit

ZWSP = "\u200b"
# Backticks cannot be escaped inside inline code on either platform; U+02CB looks alike.
_BACKTICK_LOOKALIKE = "\u02cb"

# The empty position before a style marker not preceded by a letter or digit, or before
# any backtick. Matching a position lets re.sub insert a literal (its fast path).
_SLACK_STYLE_MARKER = re.compile(r"(?<![^\W_])(?=[*_~])|(?=`)")
# Words Slack (with link_names) and Discord treat as broadcast mentions.
_BROADCAST = re.compile(r"@(?=(?:everyone|here|channel)\b)", re.IGNORECASE)

# Bidirectional controls (embeddings, overrides, isolates, marks): a title holding U+202E
# shows the rest of the line reversed, so "fix" can read as something else ("Trojan
# Source"). Titles never need them; they are dropped.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

_SAFE_URL_SCHEMES = frozenset({"http", "https"})
# Characters kept verbatim in URLs; everything else is percent-encoded. Notably absent:
# space, quotes, ``<>``, ``|`` (Slack's link separator), ``()[]`` (Discord's link syntax).
_URL_SAFE = ":/?#@!$&'*+,;=%~-._"


def _entities(text: str) -> str:
    # str.replace is several times faster than translate or a regex for this.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _no_broadcast(text: str) -> str:
    # Every escape ends here, so the bidi controls are dropped here too.
    text = _BIDI.sub("", text)
    return _BROADCAST.sub("@" + ZWSP, text) if "@" in text else text


@functools.lru_cache(maxsize=4096)  # renderers measure the same link several times
def safe_url(url: str) -> str | None:
    """The URL percent-encoded so it cannot end a link early, or None if not http(s)."""
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in _SAFE_URL_SCHEMES or not parts.netloc:
        return None
    return quote(url, safe=_URL_SAFE)


# --- Slack -----------------------------------------------------------------------------


def slack_plain(text: str) -> str:
    """Text for a ``plain_text`` object or a header.

    Slack stores message text entity-escaped and decodes these three entities on display
    in every text object, so escaping here is both safe and faithful. Broadcast words
    are broken too: plain text is not parsed for them today, but costs nothing to guard.
    """
    return _no_broadcast(_entities(text))


def slack_mrkdwn(text: str) -> str:
    """Untrusted text for a ``mrkdwn`` text object: no pings, no accidental styling."""
    # Mid-word ``snake_case`` never styles in Slack; only a marker at a word boundary can
    # open a style, and the zero-width space in front of it removes that boundary.
    guarded = _SLACK_STYLE_MARKER.sub(ZWSP, text)
    return _no_broadcast(_entities(guarded))


def slack_code(text: str) -> str:
    """Text inside inline code: styling is off there, but entities are still parsed."""
    return _no_broadcast(_entities(text.replace("`", _BACKTICK_LOOKALIKE)))


def slack_link(url: str, label: str) -> str:
    """``<url|label>``, or just the escaped label when the URL is not a safe web link."""
    target = safe_url(url)
    shown = slack_mrkdwn(label).replace("|", "\u2223")  # a bare | would end the label
    if target is None:
        return shown
    target = _entities(target)
    return f"<{target}|{shown}>" if shown.strip() else f"<{target}>"


# --- Discord ---------------------------------------------------------------------------

_DISCORD_ALWAYS = "*_~`|[]()"
# Only meaningful at the start of a line (after optional blanks): quote, heading, list
# markers, ordered-list numbers.
_DISCORD_LINE_START = r"[^\S\n]*)([>#+-]|\d+\.(?=\s))"
_DISCORD_AT_LINE_START = re.compile(r"(?m)(^" + _DISCORD_LINE_START)
_DISCORD_AFTER_NEWLINE = re.compile(r"((?<=\n)" + _DISCORD_LINE_START)


def _escape_line_start(match: re.Match[str]) -> str:
    blank, marker = match.groups()
    # "1. x" becomes "1\. x": the backslash goes before the dot, not the digits.
    return f"{blank}{marker[:-1]}\\." if marker[0].isdigit() else f"{blank}\\{marker}"


def discord_markdown(text: str, *, line_start: bool = True) -> str:
    """Untrusted text for a Discord markdown field (description, field value, content).

    Line-start markers are escaped at the start of the string too unless ``line_start``
    is False, because the renderer may well place this text at the start of a line.
    """
    out = text.replace("\\", "\\\\")  # first, so the escapes below stay single
    for ch in _DISCORD_ALWAYS:
        if ch in out:
            out = out.replace(ch, "\\" + ch)
    pattern = _DISCORD_AT_LINE_START if line_start else _DISCORD_AFTER_NEWLINE
    out = pattern.sub(_escape_line_start, out)
    return _no_broadcast(out.replace("<", "<" + ZWSP))


def discord_plain(text: str) -> str:
    """Untrusted text for fields Discord shows without markdown (author, footer).

    No markdown there, so no backslashes (they would show); mentions are still broken.
    """
    return _no_broadcast(text.replace("<", "<" + ZWSP))


def discord_code(text: str) -> str:
    """Text inside inline code or a code block: no markdown, so only backticks and
    mentions need care."""
    return discord_plain(text.replace("`", _BACKTICK_LOOKALIKE))


def discord_link(url: str, label: str) -> str:
    """``[label](url)``; the label is escaped so it cannot forge a second link."""
    target = safe_url(url)
    if target is None:
        return discord_markdown(label)
    shown = discord_markdown(label, line_start=False)  # inside [], never a line start
    return f"[{shown if shown.strip() else target}]({target})"
