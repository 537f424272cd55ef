"""Check a payload against the documented limits before it is posted.

The posting code calls these before every request and refuses to send a payload with
violations (a rejected digest half-way through a thread is worse than none); the local
fake Slack/Discord servers use the same functions to answer like the real platforms.
Each function returns human-readable violations; an empty list means the payload is
fine. Lengths are code points, as the platforms count them.
"""

from __future__ import annotations

import re

from bot.core.models import JSON
from formatters import limits as L

# In Slack mrkdwn every "<" must start a web link we made; anything else (<!channel>,
# <@U123>, <#C1>, <!subteam^…>) is special syntax that pings or renders as an entity.
_SLACK_BAD_ANGLE = re.compile(r"<(?!https?://)")
_BROADCAST_WORD = re.compile(r"@(?:everyone|here|channel)\b", re.IGNORECASE)
# Discord: <@id> user, <@&id> role, <#id> channel, <@!id> legacy user mention.
_DISCORD_MENTION = re.compile(r"<(?:@[!&]?|#)\d*")

_SLACK_BLOCK_TYPES = frozenset({"header", "section", "context", "divider", "table"})


def _len(value: object) -> int:
    return len(value) if isinstance(value, str) else 0


def _slack_text_object(obj: object, where: str, limit: int, problems: list[str]) -> int:
    if not isinstance(obj, dict) or obj.get("type") not in ("mrkdwn", "plain_text"):
        problems.append(f"{where}: not a text object")
        return 0
    text = obj.get("text")
    if not isinstance(text, str) or not text.strip():
        problems.append(f"{where}: empty text")
        return 0
    if len(text) > limit:
        problems.append(f"{where}: {len(text)} chars > {limit}")
    problems.extend(f"{where}: {p}" for p in slack_unsafe(text))
    return len(text)


def slack_unsafe(text: str) -> list[str]:
    """Mentions or special syntax that would ping or render as an entity in Slack."""
    problems = []
    if bad := _SLACK_BAD_ANGLE.search(text):
        problems.append(f"unescaped '<' at {bad.start()}: {text[bad.start() : bad.start() + 12]!r}")
    if word := _BROADCAST_WORD.search(text):
        problems.append(f"broadcast mention {word.group()!r}")
    return problems


def _slack_cell_chars(cell: object) -> int:
    if not isinstance(cell, dict):
        return 0
    if cell.get("type") == "raw_text":
        return _len(cell.get("text"))
    total = 0
    for section in cell.get("elements", []):
        for element in section.get("elements", []):
            total += _len(element.get("text")) + _len(element.get("url"))
    return total


def slack_message_chars(payload: JSON) -> int:
    """All text of a message as budgeted by ``SLACK_MESSAGE_TEXT_BUDGET``."""
    total = _len(payload.get("text"))
    for block in payload.get("blocks", []):
        if isinstance(block.get("text"), dict):
            total += _len(block["text"].get("text"))
        total += sum(_len(f.get("text")) for f in block.get("fields", []))
        total += sum(_len(e.get("text")) for e in block.get("elements", []))
        total += sum(_slack_cell_chars(c) for row in block.get("rows", []) for c in row)
    return total


def validate_slack_message(payload: JSON) -> list[str]:
    """Violations of Slack's chat.postMessage and Block Kit limits, plus our budgets."""
    problems: list[str] = []
    text = payload.get("text")
    if not isinstance(text, str) or not text.strip():
        problems.append("text: the notification fallback is missing")
    else:
        if len(text) > L.SLACK_TEXT_MAX:
            problems.append(f"text: {len(text)} chars > {L.SLACK_TEXT_MAX}")
        problems.extend(f"text: {p}" for p in slack_unsafe(text))
    blocks = payload.get("blocks", [])
    if not isinstance(blocks, list):
        return [*problems, "blocks: not a list"]
    if len(blocks) > L.SLACK_MAX_BLOCKS:
        problems.append(f"blocks: {len(blocks)} > {L.SLACK_MAX_BLOCKS}")
    seen: set[str] = set()
    tables = 0
    for i, block in enumerate(blocks):
        where = f"blocks[{i}]"
        kind = block.get("type")
        if kind not in _SLACK_BLOCK_TYPES:
            problems.append(f"{where}: unexpected block type {kind!r}")
        block_id = block.get("block_id")
        if block_id is not None:
            if not isinstance(block_id, str) or not 0 < len(block_id) <= L.SLACK_BLOCK_ID_MAX:
                problems.append(f"{where}: block_id must be 1..{L.SLACK_BLOCK_ID_MAX} chars")
            elif block_id in seen:
                problems.append(f"{where}: duplicate block_id {block_id!r}")
            seen.add(block_id)
        if kind == "header":
            text_obj = block.get("text")
            if not isinstance(text_obj, dict) or text_obj.get("type") != "plain_text":
                problems.append(f"{where}: header text must be plain_text")
            _slack_text_object(text_obj, where, L.SLACK_HEADER_TEXT_MAX, problems)
        elif kind == "section":
            fields = block.get("fields")
            if "text" not in block and not fields:
                problems.append(f"{where}: section needs text or fields")
            if "text" in block:
                _slack_text_object(block["text"], where, L.SLACK_SECTION_TEXT_MAX, problems)
            if fields is not None:
                if len(fields) > L.SLACK_SECTION_FIELDS_MAX:
                    problems.append(f"{where}: {len(fields)} fields > 10")
                for j, f in enumerate(fields):
                    limit = L.SLACK_SECTION_FIELD_TEXT_MAX
                    _slack_text_object(f, f"{where}.fields[{j}]", limit, problems)
        elif kind == "context":
            elements = block.get("elements", [])
            if not 0 < len(elements) <= L.SLACK_CONTEXT_ELEMENTS_MAX:
                problems.append(f"{where}: context needs 1..10 elements")
            for j, e in enumerate(elements):
                limit = L.SLACK_CONTEXT_TEXT_MAX
                _slack_text_object(e, f"{where}.elements[{j}]", limit, problems)
        elif kind == "table":
            tables += 1
            rows = block.get("rows", [])
            if not 0 < len(rows) <= L.SLACK_TABLE_ROWS_MAX:
                problems.append(f"{where}: table needs 1..{L.SLACK_TABLE_ROWS_MAX} rows")
            widths = {len(r) for r in rows}
            if len(widths) > 1 or max(widths, default=0) > L.SLACK_TABLE_COLUMNS_MAX:
                problems.append(f"{where}: rows must have the same 1..20 cells")
            if len(block.get("column_settings", [])) > L.SLACK_TABLE_COLUMNS_MAX:
                problems.append(f"{where}: more than 20 column_settings")
            if i != len(blocks) - 1:
                problems.append(f"{where}: a table must be the last block")
    if tables > L.SLACK_TABLES_PER_MESSAGE:
        problems.append(f"blocks: {tables} tables > {L.SLACK_TABLES_PER_MESSAGE}")
    total = slack_message_chars(payload)
    if total > L.SLACK_MESSAGE_TEXT_BUDGET:
        problems.append(f"message: {total} chars of text > {L.SLACK_MESSAGE_TEXT_BUDGET}")
    return problems


def discord_unsafe(text: str) -> list[str]:
    """Mentions that would ping (if allowed) or render as a mention in Discord."""
    problems = []
    if word := _BROADCAST_WORD.search(text):
        problems.append(f"broadcast mention {word.group()!r}")
    if mention := _DISCORD_MENTION.search(text):
        problems.append(f"mention syntax {mention.group()!r}")
    return problems


def discord_embed_chars(embed: JSON) -> int:
    """The characters Discord counts towards the 6,000 per message."""
    return (
        _len(embed.get("title"))
        + _len(embed.get("description"))
        + sum(_len(f.get("name")) + _len(f.get("value")) for f in embed.get("fields", []))
        + _len((embed.get("footer") or {}).get("text"))
        + _len((embed.get("author") or {}).get("name"))
    )


def _check(problems: list[str], where: str, value: object, limit: int, required: bool) -> None:
    if value is None and not required:
        return
    if not isinstance(value, str) or (required and not value.strip()):
        problems.append(f"{where}: missing or empty")
        return
    if len(value) > limit:
        problems.append(f"{where}: {len(value)} chars > {limit}")
    problems.extend(f"{where}: {p}" for p in discord_unsafe(value))


def validate_discord_message(body: JSON) -> list[str]:
    """Violations of Discord's create-message and embed limits."""
    problems: list[str] = []
    allowed = body.get("allowed_mentions")
    if allowed != {"parse": []}:
        problems.append(f"allowed_mentions must be {{'parse': []}}, got {allowed!r}")
    content = body.get("content")
    embeds = body.get("embeds") or []
    _check(problems, "content", content, L.DISCORD_CONTENT_MAX, required=False)
    if not content and not embeds:
        problems.append("message: neither content nor embeds")
    if len(embeds) > L.DISCORD_EMBEDS_MAX:
        problems.append(f"embeds: {len(embeds)} > {L.DISCORD_EMBEDS_MAX}")
    total = 0
    for i, embed in enumerate(embeds):
        where = f"embeds[{i}]"
        total += discord_embed_chars(embed)
        if not any(embed.get(k) for k in ("title", "description", "fields")):
            problems.append(f"{where}: empty embed")
        _check(problems, f"{where}.title", embed.get("title"), L.DISCORD_EMBED_TITLE_MAX, False)
        description = embed.get("description")
        limit = L.DISCORD_EMBED_DESCRIPTION_MAX
        _check(problems, f"{where}.description", description, limit, False)
        fields = embed.get("fields", [])
        if len(fields) > L.DISCORD_EMBED_FIELDS_MAX:
            problems.append(f"{where}: {len(fields)} fields > {L.DISCORD_EMBED_FIELDS_MAX}")
        for j, f in enumerate(fields):
            name_max, value_max = L.DISCORD_FIELD_NAME_MAX, L.DISCORD_FIELD_VALUE_MAX
            _check(problems, f"{where}.fields[{j}].name", f.get("name"), name_max, True)
            _check(problems, f"{where}.fields[{j}].value", f.get("value"), value_max, True)
        if "footer" in embed:
            text = embed["footer"].get("text")
            _check(problems, f"{where}.footer", text, L.DISCORD_FOOTER_TEXT_MAX, True)
        if "author" in embed:
            name = embed["author"].get("name")
            _check(problems, f"{where}.author", name, L.DISCORD_AUTHOR_NAME_MAX, True)
    if total > L.DISCORD_EMBEDS_TOTAL_MAX:
        problems.append(f"embeds: {total} chars in total > {L.DISCORD_EMBEDS_TOTAL_MAX}")
    return problems
