"""Discord rendering of a Document: create-message bodies made of embeds.

Threading is positional, exactly as for Slack, so the bodies are exactly what is sent:

* ``bodies[0]`` is the summary, posted in the channel. Its first embed carries the
  document title, the context line (as the embed author) and the footer; the lead
  sections follow in its description with bold headings.
* every later body is posted, in order, in a thread started from ``bodies[0]``
  (``POST /channels/{channel}/messages/{id}/threads`` with :func:`discord_thread_name`).
  In the thread every section starts a new embed titled with the section title.

Every body carries ``"allowed_mentions": {"parse": []}``. Discord renders no tables:
tables of plain text become aligned code blocks (aligned by display width, so Chinese
lines up); tables with links or styling, or too wide for a code block, become lists.
Escaping happens only in :mod:`formatters.escape`.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from bot.core.document import (
    Block,
    BulletList,
    Document,
    Facts,
    Inline,
    Paragraph,
    Section,
    Span,
    Table,
    Text,
    plain,
)
from bot.core.models import JSON
from formatters import limits as L
from formatters.escape import (
    ZWSP,
    discord_code,
    discord_link,
    discord_markdown,
    discord_plain,
    safe_url,
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

EMBED_COLOR = 0x30A2FF
ALLOWED_MENTIONS: dict[str, list[str]] = {"parse": []}
# A paragraph line longer than this is wrapped; leaves room for a heading line.
_LINE_MAX = L.DISCORD_EMBED_DESCRIPTION_MAX - 96
# Monospace tables wider than this wrap on most screens and stop being tables.
_CODE_TABLE_WIDTH = 100
_CODE_COLUMN_MAX = 40
_FENCE_OPEN = "```\n"
_FENCE_CLOSE = "\n```"


def discord_thread_name(doc: Document) -> str:
    """The name of the thread the details go in (plain text, at most 100 characters)."""
    name = next((" ".join(t.split()) for t in (doc.title, doc.id) if t.strip()), "")
    return shorten_text(name, L.DISCORD_THREAD_NAME_MAX, str) or ELLIPSIS


render_span = span_renderer(
    link=discord_link, code=discord_code, escape=discord_markdown, bold="**"
)


def _md(spans: Inline) -> str:
    return render_inline(spans, render_span)


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospace font: CJK and fullwidth count double."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Cf", "Mn", "Me"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _clip_width(text: str, width: int) -> str:
    if display_width(text) <= width:
        return text
    out, used = [], 0
    for ch in text:
        w = display_width(ch)
        if used + w > width - 1:  # keep a column for the ellipsis
            break
        out.append(ch)
        used += w
    return "".join(out).rstrip() + ELLIPSIS


def _pad(text: str, width: int, align: str) -> str:
    gap = " " * (width - display_width(text))
    return gap + text if align == "r" else text + gap


# --- blocks -> runs --------------------------------------------------------------------


def _join_cells(row: tuple[Inline, ...]) -> Inline:
    out: list[Span] = []
    for i, cell in enumerate(row):
        if i:
            out.append(Text(" · "))
        out.extend(one_line(cell))
    return tuple(out)


def _list_atoms(items: list[Inline], ordered: bool) -> tuple[Atom, ...]:
    atoms = []
    for i, item in enumerate(items, start=1):
        prefix = f"{i}. " if ordered else "• "
        body = fit_inline(one_line(item), L.ITEM_MAX - len(prefix), render_span)
        text = prefix + _md(body)
        atoms.append(Atom(len(text), text))
    return tuple(atoms)


def _table_runs(table: Table) -> list[Run]:
    ncols = max([len(table.header), *(len(r) for r in table.rows)])
    if ncols == 0 or not table.rows:
        return []
    header = [" ".join(h.split()) for h in (*table.header, *[""] * (ncols - len(table.header)))]
    rows = [(*r, *[()] * (ncols - len(r))) for r in table.rows]
    align = [*table.align, *["l"] * (ncols - len(table.align))]
    styled = any(not isinstance(s, Text) for row in rows for cell in row for s in cell)
    if not styled:
        cells = [[discord_code(" ".join(plain(c).split())) for c in row] for row in rows]
        head = [discord_code(h) for h in header]
        widths = [
            min(_CODE_COLUMN_MAX, max(display_width(r[i]) for r in [head, *cells]))
            for i in range(ncols)
        ]
        if sum(widths) + 2 * (ncols - 1) <= _CODE_TABLE_WIDTH:

            def line(values: list[str]) -> str:
                padded = [
                    _pad(_clip_width(v, w), w, a)
                    for v, w, a in zip(values, widths, align, strict=True)
                ]
                return "  ".join(padded).rstrip() or ZWSP

            rule = "  ".join("-" * w for w in widths)
            top = line(head) + "\n" + rule
            atoms = tuple(Atom(len(t), t) for t in (line(r) for r in cells))
            return [Run("code", atoms, header=Atom(len(top), top))]
    head_text = shorten_text(" · ".join(header), L.ITEM_MAX - 4, discord_markdown)
    head_atom = Atom(len(head_text) + 4, f"**{head_text}**") if head_text.strip() else None
    return [Run("text", _list_atoms([_join_cells(r) for r in rows], False), header=head_atom)]


def _block_runs(block: Block) -> list[Run]:
    if isinstance(block, Paragraph):
        atoms = [
            Atom(len(text), text)
            for line in paragraph_lines(block.spans)
            for piece in wrap_inline(line, _LINE_MAX, render_span)
            if (text := _md(piece))
        ]
        return [Run("text", tuple(atoms))]
    if isinstance(block, BulletList):
        return [Run("text", _list_atoms(list(block.items), block.ordered))]
    if isinstance(block, Table):
        return _table_runs(block)
    if isinstance(block, Facts):
        atoms = []
        for label, value in block.items:
            name = shorten_text(" ".join(label.split()), L.DISCORD_FIELD_NAME_MAX, discord_markdown)
            body = ""
            if has_content(value):
                body = _md(fit_inline(one_line(value), L.DISCORD_FIELD_VALUE_MAX, render_span))
            # Both are required and must not be blank; a zero-width space is Discord's
            # own idiom for an intentionally empty field part.
            name, body = name.strip() or ZWSP, body.strip() or ZWSP
            atoms.append(Atom(len(name) + len(body), {"name": name, "value": body}))
        return [Run("fields", tuple(atoms))]
    raise TypeError(f"unknown block {type(block).__name__}")


def _plan(index: int, section: Section) -> Plan:
    runs = [run for block in section.blocks for run in _block_runs(block)]
    return Plan(index, section, tuple(runs))


# --- the message sink ------------------------------------------------------------------


@dataclass
class _Segment:
    """A piece of an embed description: a heading line, text lines or a code block."""

    kind: str  # "heading" | "text" | "code"
    header: Atom | None = None
    section: int = -1
    title: str = ""
    items: list[str] = field(default_factory=list)

    def base_cost(self) -> int:
        if self.kind == "heading":
            return len(self.title) + 4 + MARKER_RESERVE  # **title (i/n)**
        head = self.header.cost + 1 if self.header else 0
        if self.kind == "code":
            return len(_FENCE_OPEN) + head + len(_FENCE_CLOSE)
        return head


@dataclass
class _Embed:
    title: str = ""
    title_section: int = -1  # a section heading used as the title gets its part marker
    url: str | None = None
    author: str = ""
    footer: str = ""
    segments: list[_Segment] = field(default_factory=list)
    fields: list[JSON] = field(default_factory=list)
    description: int = 0  # code points in the description

    def fixed_cost(self) -> int:
        title = len(self.title) + (MARKER_RESERVE if self.title_section >= 0 else 0)
        return title + len(self.author) + len(self.footer)


def _separator(previous: _Segment | None) -> int:
    if previous is None:
        return 0
    return 1 if previous.kind == "heading" else 2  # "\n" after a heading, else a blank line


class _Message:
    """One create-message body being filled; see ``formatters.split.Sink``."""

    def __init__(self, index: int, first: _Embed | None):
        self.index = index
        self.sections: list[int] = []
        self.embeds: list[_Embed] = [first] if first else []
        self.total = first.fixed_cost() if first else 0
        self._plan: Plan | None = None
        self._heading: str | None = None
        self._pending: Run | None = None
        self._force = False
        self._open: _Segment | str | None = None  # a segment, or "fields"

    def begin_section(self, plan: Plan) -> None:
        self._plan = plan
        room = L.DISCORD_EMBED_TITLE_MAX - MARKER_RESERVE
        title = shorten_text(" ".join(plan.section.title.split()), room, discord_markdown)
        self._heading = title or None
        if self._heading is None and self.index > 0:
            self._heading = ZWSP  # a thread section still starts its own embed
        self._pending = None
        self._open = None

    def begin_run(self, run: Run, *, force_new: bool) -> None:
        self._pending = run
        self._force = force_new

    def commit_heading(self) -> bool:
        if not self._plan or not self._plan.section.title.strip():
            return True  # an empty section without a title shows nothing
        return self._try(None)

    def add(self, atom: Atom) -> bool:
        return self._try(atom)

    def _try(self, atom: Atom | None) -> bool:
        """Apply pending heading + container + atom if the result is within limits."""
        assert self._plan is not None
        last = self.embeds[-1] if self.embeds else None
        new_embed = last is None
        title = ""
        heading_segment: _Segment | None = None
        if self._heading is not None:
            if self.index == 0:
                new_embed = new_embed or bool(last and last.fields)
                heading_segment = _Segment("heading", section=self._plan.index, title=self._heading)
            else:
                new_embed, title = True, self._heading
        run = self._pending
        if atom is not None and run is None and self._open is None:
            return False
        # A forced container is a new embed; text cannot follow an embed's fields.
        text_after_fields = run is not None and run.kind != "fields" and bool(last and last.fields)
        if run is not None and atom is not None and (self._force or text_after_fields):
            new_embed = True
        target = _Embed() if new_embed else last
        assert target is not None
        segments = list(target.segments)
        description = target.description
        fields = len(target.fields)
        added = 0 if not new_embed else len(title) + (MARKER_RESERVE if title else 0)
        if heading_segment is not None:
            previous = segments[-1] if segments else None
            cost = _separator(previous) + heading_segment.base_cost()
            segments.append(heading_segment)
            description += cost
            added += cost
        new_segment: _Segment | None = None
        if atom is not None:
            if run is not None and run.kind == "fields":
                fields += 1
                added += atom.cost
            elif run is not None:
                new_segment = _Segment(run.kind, header=run.header)
                previous = segments[-1] if segments else None
                cost = _separator(previous) + new_segment.base_cost() + atom.cost
                description += cost
                added += cost
            elif isinstance(self._open, _Segment):
                description += 1 + atom.cost
                added += 1 + atom.cost
            else:  # the open fields
                fields += 1
                added += atom.cost
        if (
            description > L.DISCORD_EMBED_DESCRIPTION_MAX
            or fields > L.DISCORD_EMBED_FIELDS_MAX
            or len(self.embeds) + new_embed > L.DISCORD_EMBEDS_MAX
            or self.total + added > L.DISCORD_EMBEDS_TOTAL_MAX
        ):
            return False
        # Commit.
        if new_embed:
            if title:
                target.title, target.title_section = title, self._plan.index
            self.embeds.append(target)
        target.segments = segments
        target.description = description
        self.total += added
        self._heading = None
        if self._plan.index not in self.sections:
            self.sections.append(self._plan.index)
        if atom is None:
            return True
        if run is not None and run.kind == "fields":
            target.fields.append(atom.value)
            self._open = "fields"
        elif new_segment is not None:
            new_segment.items.append(atom.value)
            target.segments.append(new_segment)
            self._open = new_segment
        elif isinstance(self._open, _Segment):
            self._open.items.append(atom.value)
        else:
            target.fields.append(atom.value)
        self._pending = None
        self._force = False
        return True


# --- rendering -------------------------------------------------------------------------


def _segment_text(segment: _Segment, parts: dict[int, tuple[int, int]]) -> str:
    if segment.kind == "heading":
        return f"**{segment.title}{part_marker(*parts[segment.section])}**"
    lines = ([segment.header.value] if segment.header else []) + segment.items
    body = "\n".join(lines)
    return f"{_FENCE_OPEN}{body}{_FENCE_CLOSE}" if segment.kind == "code" else body


def _embed_dict(embed: _Embed, parts: dict[int, tuple[int, int]]) -> JSON:
    out: JSON = {}
    if embed.author:
        out["author"] = {"name": embed.author}
    if embed.title:
        marker = part_marker(*parts[embed.title_section]) if embed.title_section >= 0 else ""
        out["title"] = embed.title + marker
    if embed.url:
        out["url"] = embed.url
    if embed.segments:
        pieces: list[str] = []
        previous: _Segment | None = None
        for segment in embed.segments:
            pieces.append("\n" * _separator(previous) + _segment_text(segment, parts))
            previous = segment
        out["description"] = "".join(pieces)
    if embed.fields:
        out["fields"] = [{**f, "inline": True} for f in embed.fields]
    if embed.footer:
        out["footer"] = {"text": embed.footer}
    out["color"] = EMBED_COLOR
    return out


def _summary_embed(doc: Document) -> _Embed:
    title_source = next(
        (" ".join(t.split()) for t in (doc.title, doc.fallback, doc.id) if t.strip()), ""
    )
    title = shorten_text(title_source, L.DISCORD_EMBED_TITLE_MAX, discord_markdown) or ELLIPSIS
    context = " ".join(doc.context.split())
    author = shorten_text(context, L.DISCORD_AUTHOR_NAME_MAX, discord_plain)
    footer = shorten_text(doc.footer.strip(), L.DISCORD_FOOTER_TEXT_MAX, discord_plain)
    url = safe_url(doc.url) if doc.url else None
    return _Embed(title=title, url=url, author=author, footer=footer)


def render_discord(doc: Document) -> list[JSON]:
    """Create-message bodies for ``doc``, in posting order.

    Body 0 is the summary; every later body goes in the thread started from it (see the
    module docstring). The result is plain JSON data and deterministic.
    """

    def new_message(index: int) -> _Message:
        return _Message(index, _summary_embed(doc) if index == 0 else None)

    plans = [_plan(i, s) for i, s in enumerate(doc.sections)]
    messages = pack(plans, doc.lead_sections, new_message)
    bodies = []
    for msg, parts in zip(messages, part_numbers(messages), strict=True):
        embeds = [_embed_dict(e, parts) for e in msg.embeds]
        if not embeds:
            continue  # only empty, untitled sections went here: nothing to post
        bodies.append({"embeds": embeds, "allowed_mentions": {"parse": []}})
    return bodies
