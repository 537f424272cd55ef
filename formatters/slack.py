"""Slack Block Kit rendering of a Document: ``chat.postMessage`` argument dicts.

Threading is positional, so the payloads are exactly what is sent:

* ``payloads[0]`` is the summary: a header, a context line and the lead sections.
* every later payload is a reply in the thread of ``payloads[0]``: the poster posts
  ``payloads[0]``, then posts each following payload, in order, with ``thread_ts`` set to
  the ``ts`` Slack returned for ``payloads[0]``. No payload carries a private key.

Layout: one section block per paragraph or list chunk, ``fields`` for Facts, the Block
Kit ``table`` block for tables of up to 20 columns (wider ones become lists, which keep
their links). A table is always the last block of its message, because Slack allows one
table per message and shows it after the other blocks.

Escaping happens only in :mod:`formatters.escape`. Table cells are structured
``raw_text``/``rich_text`` elements, which Slack shows literally and never parses for
mentions, so they carry the raw text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.core.document import (
    Block,
    BulletList,
    Code,
    Document,
    Facts,
    Inline,
    Link,
    Paragraph,
    Section,
    Span,
    Strong,
    Table,
    Text,
    plain,
)
from bot.core.models import JSON, JSONValue
from formatters import limits as L
from formatters.escape import (
    safe_url,
    slack_code,
    slack_link,
    slack_mrkdwn,
    slack_plain,
)
from formatters.split import (
    ELLIPSIS,
    MARKER_RESERVE,
    Atom,
    Plan,
    Run,
    fit_inline,
    has_content,
    one_line,
    pack,
    paragraph_lines,
    part_marker,
    part_numbers,
    render_inline,
    shorten_text,
    span_renderer,
    wrap_inline,
)

# Reply fallback: "<doc title> · <section title> (i/n)".
_REPLY_TITLE_MAX = 140
_REPLY_FALLBACK_MAX = 2 * _REPLY_TITLE_MAX + 3 + MARKER_RESERVE
_CONTEXT_PIECE_MAX = 1000
_FACT_LABEL_MAX = 200
_EMPTY_CELL = "-"


render_span = span_renderer(link=slack_link, code=slack_code, escape=slack_mrkdwn, bold="*")


def _mrkdwn(spans: Inline) -> str:
    return render_inline(spans, render_span)


# --- blocks -> runs --------------------------------------------------------------------


def _cell_cost(span: Span) -> str:
    # What a cell span contributes to the message's text: its label plus any URL.
    return span.text + span.url if isinstance(span, Link) else span.text


def _cell(spans: Inline, cap: int) -> tuple[JSON, int]:
    spans = fit_inline(one_line(spans), cap, _cell_cost) if has_content(spans) else ()
    if not spans:
        return {"type": "raw_text", "text": _EMPTY_CELL}, len(_EMPTY_CELL)
    cost = len(render_inline(spans, _cell_cost))
    if all(isinstance(s, Text) for s in spans):
        return {"type": "raw_text", "text": plain(spans)}, cost
    elements: list[JSON] = []
    for s in spans:
        if isinstance(s, Link) and (url := safe_url(s.url)):
            elements.append({"type": "link", "url": url, "text": s.text})
        elif isinstance(s, Strong | Code):
            style = {"bold": True} if isinstance(s, Strong) else {"code": True}
            elements.append({"type": "text", "text": s.text, "style": style})
        else:
            elements.append({"type": "text", "text": s.text})
    section = {"type": "rich_text_section", "elements": elements}
    return {"type": "rich_text", "elements": [section]}, cost


def _table_runs(table: Table) -> list[Run]:
    ncols = max([len(table.header), *(len(r) for r in table.rows)])
    if ncols == 0 or not table.rows:
        return []
    header = [*table.header, *[""] * (ncols - len(table.header))]
    rows = [(*r, *[()] * (ncols - len(r))) for r in table.rows]
    if ncols > L.SLACK_TABLE_COLUMNS_MAX:
        head = shorten_text(" · ".join(header), L.ITEM_MAX, slack_mrkdwn)
        head_atom = Atom(len(head) + 2, f"*{head}*")
        atoms = []
        for row in rows:
            spans = _join_cells(row)
            text = "• " + _mrkdwn(fit_inline(spans, L.ITEM_MAX, render_span))
            atoms.append(Atom(len(text), text))
        return [Run("text", tuple(atoms), header=head_atom)]
    cap = max(8, L.SLACK_TABLE_ROW_BUDGET // ncols)
    head_cells = [_cell((Text(h),), cap) for h in header]
    head_atom = Atom(sum(c for _, c in head_cells), [cell for cell, _ in head_cells])
    atoms = []
    for row in rows:
        cells = [_cell(c, cap) for c in row]
        atoms.append(Atom(sum(c for _, c in cells), [cell for cell, _ in cells]))
    align = [*table.align, *["l"] * (ncols - len(table.align))]
    settings = [{"align": "right"} if a == "r" else {"is_wrapped": True} for a in align]
    return [Run("table", tuple(atoms), header=head_atom, meta=settings)]


def _join_cells(row: tuple[Inline, ...]) -> Inline:
    out: list[Span] = []
    for i, cell in enumerate(row):
        if i:
            out.append(Text(" · "))
        out.extend(one_line(cell))
    return tuple(out)


def _block_runs(block: Block) -> list[Run]:
    if isinstance(block, Paragraph):
        atoms = [
            Atom(len(text), text)
            for line in paragraph_lines(block.spans)
            for piece in wrap_inline(line, L.SLACK_SECTION_TEXT_MAX, render_span)
            if (text := _mrkdwn(piece))
        ]
        return [Run("text", tuple(atoms))]
    if isinstance(block, BulletList):
        atoms = []
        for i, item in enumerate(block.items, start=1):
            prefix = f"{i}. " if block.ordered else "• "
            body = fit_inline(one_line(item), L.ITEM_MAX - len(prefix), render_span)
            text = prefix + _mrkdwn(body)
            atoms.append(Atom(len(text), text))
        return [Run("text", tuple(atoms))]
    if isinstance(block, Table):
        return _table_runs(block)
    if isinstance(block, Facts):
        atoms = []
        for label, value in block.items:
            name = shorten_text(" ".join(label.split()), _FACT_LABEL_MAX, slack_mrkdwn)
            head = f"*{name}*\n" if name else ""
            room = L.SLACK_SECTION_FIELD_TEXT_MAX - len(head)
            fitted = fit_inline(one_line(value), room, render_span)
            shown = _mrkdwn(fitted) if has_content(value) else ""
            text = (head + shown).strip() or _EMPTY_CELL
            atoms.append(Atom(len(text), text))
        return [Run("fields", tuple(atoms))]
    raise TypeError(f"unknown block {type(block).__name__}")


def _plan(index: int, section: Section) -> Plan:
    runs = [run for block in section.blocks for run in _block_runs(block)]
    return Plan(index, section, tuple(runs))


# --- the message sink ------------------------------------------------------------------


@dataclass
class _Container:
    kind: str
    header: Atom | None
    meta: object  # the run's meta (table column settings), passed on as is
    items: list[JSONValue] = field(default_factory=list)
    fill: int = 0  # code points in this block's text so far


@dataclass
class _Heading:
    section: int
    title: str  # escaped, shortened so that the part marker still fits


class _Message:
    """One chat.postMessage being filled; see ``formatters.split.Sink``."""

    def __init__(self, index: int, reserved_chars: int, prefix: list[JSON]):
        self.index = index
        self.sections: list[int] = []
        self.entries: list[JSON | _Heading | _Container] = list(prefix)
        self.blocks = len(prefix)
        self.chars = reserved_chars
        self.has_table = False
        self._heading: _Heading | None = None
        self._pending: _Container | None = None
        self._open: _Container | None = None
        self._section = -1

    # Headings are bold lines in the summary and header blocks in the thread.
    def _heading_cost(self, title: str) -> int:
        return len(title) + MARKER_RESERVE + (2 if self.index == 0 else 0)

    def begin_section(self, plan: Plan) -> None:
        room = L.SLACK_HEADER_TEXT_MAX - MARKER_RESERVE
        title = shorten_text(" ".join(plan.section.title.split()), room, slack_plain)
        self._heading = _Heading(plan.index, title) if title else None
        self._open = None
        self._pending = None
        self._section = plan.index

    def begin_run(self, run: Run, *, force_new: bool) -> None:
        self._pending = _Container(run.kind, run.header, run.meta)

    def _heading_delta(self) -> tuple[int, int]:
        if self._heading is None:
            return 0, 0
        divider = 1 if self.blocks else 0
        return 1 + divider, self._heading_cost(self._heading.title)

    def commit_heading(self) -> bool:
        blocks, chars = self._heading_delta()
        if self.has_table or not self._fits(blocks, chars):
            return False
        self._commit_heading()
        return True

    def _fits(self, blocks: int, chars: int) -> bool:
        return (
            self.blocks + blocks <= L.SLACK_MAX_BLOCKS
            and self.chars + chars <= L.SLACK_MESSAGE_TEXT_BUDGET
        )

    def _commit_heading(self) -> None:
        if self._heading is not None:
            if self.blocks:
                self.entries.append({"type": "divider"})
            self.entries.append(self._heading)
            blocks, chars = self._heading_delta()
            self.blocks += blocks
            self.chars += chars
            self._heading = None
        if self._section not in self.sections:
            self.sections.append(self._section)

    def add(self, atom: Atom) -> bool:
        blocks, chars = self._heading_delta()
        container = self._pending or self._open
        if container is None:
            return False
        new = self._pending is not None
        if new:
            blocks += 1
            if container.header is not None:
                chars += container.header.cost + (1 if container.kind == "text" else 0)
        # Nothing may follow a table, and a message holds only one.
        if self.has_table and (new or self._heading is not None or container.kind != "table"):
            return False
        joint = 1 if container.kind == "text" and container.items else 0
        if container.kind == "text":
            base = container.fill if not new else chars_of_header(container)
            if base + joint + atom.cost > L.SLACK_SECTION_TEXT_MAX:
                return False
        elif container.kind == "fields":
            if len(container.items) >= L.SLACK_SECTION_FIELDS_MAX:
                return False
        elif len(container.items) + 1 >= L.SLACK_TABLE_ROWS_MAX:  # +1: the header row
            return False
        if not self._fits(blocks, chars + joint + atom.cost):
            return False
        self._commit_heading()
        if new:
            self.entries.append(container)
            self.blocks += 1
            container.fill = chars_of_header(container)
            self.chars += container.fill
            if container.kind == "table":
                self.has_table = True
            self._open, self._pending = container, None
        container.items.append(atom.value)
        container.fill += joint + atom.cost
        self.chars += joint + atom.cost
        return True


def chars_of_header(container: _Container) -> int:
    if container.header is None:
        return 0
    return container.header.cost + (1 if container.kind == "text" else 0)


# --- rendering -------------------------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:64] or "s"


def _blocks(msg: _Message, doc: Document, parts: dict[int, tuple[int, int]]) -> list[JSON]:
    blocks: list[JSON] = []
    section_id = "doc"
    for entry in msg.entries:
        block_id = f"{section_id}.{len(blocks)}"
        if isinstance(entry, _Heading):
            section_id = _slug(doc.sections[entry.section].id)
            block_id = f"{section_id}.{len(blocks)}"
            title = entry.title + part_marker(*parts[entry.section])
            if msg.index == 0:
                text: dict[str, str | bool] = {"type": "mrkdwn", "text": f"*{title}*"}
                blocks.append({"type": "section", "block_id": block_id, "text": text})
            else:
                text = {"type": "plain_text", "text": title, "emoji": True}
                blocks.append({"type": "header", "block_id": block_id, "text": text})
        elif isinstance(entry, _Container):
            blocks.append(_container_block(entry, block_id))
        else:
            blocks.append({**entry, "block_id": block_id})
    return blocks


def _container_block(c: _Container, block_id: str) -> JSON:
    if c.kind == "text":
        lines = ([c.header.value] if c.header else []) + c.items
        text = {"type": "mrkdwn", "text": "\n".join(lines)}
        return {"type": "section", "block_id": block_id, "text": text}
    if c.kind == "fields":
        fields = [{"type": "mrkdwn", "text": t} for t in c.items]
        return {"type": "section", "block_id": block_id, "fields": fields}
    rows = [c.header.value, *c.items] if c.header else list(c.items)
    return {"type": "table", "block_id": block_id, "column_settings": c.meta, "rows": rows}


def _summary_prefix(doc: Document) -> list[JSON]:
    prefix: list[JSON] = []
    title = shorten_text(" ".join(doc.title.split()), L.SLACK_HEADER_TEXT_MAX, slack_plain)
    if title:
        prefix.append({"type": "header", "text": {"type": "plain_text", "text": title}})
    elements = []
    for piece in (doc.context, doc.footer):
        text = shorten_text(" ".join(piece.split()), _CONTEXT_PIECE_MAX, slack_mrkdwn)
        if text:
            elements.append({"type": "mrkdwn", "text": text})
    if doc.url and (url := safe_url(doc.url)):
        link = slack_link(url, shorten_text(url, 200, str))
        elements.insert(min(1, len(elements)), {"type": "mrkdwn", "text": link})
    if elements:
        prefix.append({"type": "context", "elements": elements})
    return prefix


def _prefix_chars(prefix: list[JSON]) -> int:
    total = 0
    for block in prefix:
        if "text" in block:
            total += len(block["text"]["text"])
        total += sum(len(e["text"]) for e in block.get("elements", []))
    return total


def _fallback(doc: Document, msg: _Message, parts: dict[int, tuple[int, int]]) -> str:
    if msg.index == 0:
        source = next((t for t in (doc.fallback, doc.title, doc.id) if t.strip()), "")
        return shorten_text(source.strip(), L.SLACK_FALLBACK_BUDGET, slack_mrkdwn) or ELLIPSIS
    pieces = [shorten_text(" ".join(doc.title.split()), _REPLY_TITLE_MAX, slack_mrkdwn)]
    if msg.sections:
        first = msg.sections[0]
        name = " ".join(doc.sections[first].title.split())
        title = shorten_text(name, _REPLY_TITLE_MAX, slack_mrkdwn)
        pieces.append(title + part_marker(*parts[first]))
    return " · ".join(p for p in pieces if p.strip()) or ELLIPSIS


def render_slack(doc: Document, channel: str | None = None) -> list[JSON]:
    """The chat.postMessage argument dicts for ``doc``, in posting order.

    Payload 0 is the summary; every later payload is a reply in its thread (see the
    module docstring). ``channel`` is included in every payload when given. The result
    is plain JSON data and deterministic.
    """
    first_text = _fallback(doc, _Message(0, 0, []), {})
    prefix = _summary_prefix(doc)

    def new_message(index: int) -> _Message:
        if index == 0:
            return _Message(0, len(first_text) + _prefix_chars(prefix), prefix)
        return _Message(index, _REPLY_FALLBACK_MAX, [])

    plans = [_plan(i, s) for i, s in enumerate(doc.sections)]
    messages = pack(plans, doc.lead_sections, new_message)
    numbering = part_numbers(messages)
    payloads = []
    for msg, parts in zip(messages, numbering, strict=True):
        payload: JSON = {}
        if channel is not None:
            payload["channel"] = channel
        payload["text"] = first_text if msg.index == 0 else _fallback(doc, msg, parts)
        blocks = _blocks(msg, doc, parts)
        if not blocks and msg.index > 0:
            continue  # only empty, untitled sections went here: nothing to post
        if blocks:
            payload["blocks"] = blocks
        # Digest links point at GitHub; previews of dozens of PRs would bury the text.
        payload["unfurl_links"] = False
        payload["unfurl_media"] = False
        payloads.append(payload)
    return payloads
