"""The shared splitting engine behind the Slack and Discord renderers.

A renderer turns each block of a section into a *run* of *atoms*: already escaped pieces
that must never be split (a paragraph line, a list item, a table row, a fact). Links,
inline code and bold text live inside atoms, so they can never be cut in half. The engine
then streams the atoms, in document order, into a platform *sink* (one message being
built) which knows the platform's containers and limits:

    section boundary -> block (run) boundary -> atom (line / item / row) boundary

An atom is sized before packing so that it always fits an empty message: over-long
paragraph lines are wrapped at word (or, for CJK, character) boundaries and lose nothing;
an over-long list item, row or fact is shortened with an ellipsis and keeps its links.

Part markers: a section whose atoms land in more than one message gets " (i/n)" after
its title in each message. Sinks reserve ``MARKER_RESERVE`` characters for it, so the
marker, which is only known after packing, can never push a message over a limit.

All lengths are code points (``len``), which is how both platforms count. Nothing here
depends on dict order, time or randomness, so output is deterministic.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from bot.core.document import Code, Inline, Link, Section, Span, Strong, Text, plain
from bot.core.errors import BotError
from bot.core.models import JSONValue

ELLIPSIS = "…"
# Room kept in every section heading for the " (i/n)" part marker.
MARKER_RESERVE = len(" (999/999)")

RenderSpan = Callable[[Span], str]

_LINE_BREAK = re.compile(r"\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_WORD = re.compile(r"\S+\s*|\s+")


class LayoutError(BotError, RuntimeError):
    """An atom did not fit an empty message: a sizing bug in a renderer, never input."""


def part_marker(part: int, parts: int) -> str:
    return f" ({part}/{parts})" if parts > 1 else ""


# --- inline text -----------------------------------------------------------------------


def span_renderer(
    *,
    link: Callable[[str, str], str],
    code: Callable[[str], str],
    escape: Callable[[str], str],
    bold: str,
) -> RenderSpan:
    """One span renderer per platform, from its escaping functions and bold marker."""

    def render(span: Span) -> str:
        if isinstance(span, Link):
            return link(span.url, span.text)
        if isinstance(span, Code):
            return f"`{code(span.text)}`" if span.text.strip() else code(span.text)
        if isinstance(span, Strong):
            inner = span.text.strip()
            if not inner:
                return escape(span.text)
            # Both platforms only bold when the markers hug the text: spaces go outside.
            head = span.text[: len(span.text) - len(span.text.lstrip())]
            tail = span.text[len(span.text.rstrip()) :]
            return f"{head}{bold}{escape(inner)}{bold}{tail}"
        return escape(span.text)

    return render


def render_inline(spans: Inline, render: RenderSpan) -> str:
    # Renderers emit exactly this concatenation, so measuring it measures the output.
    return "".join(render(span) for span in spans)


def one_line(spans: Inline) -> Inline:
    """Spans with line breaks turned into spaces (a list item or cell is one line)."""
    return tuple(replace(s, text=_LINE_BREAK.sub(" ", s.text)) for s in spans)


def has_content(spans: Inline) -> bool:
    """Visible text or a link (a link with a blank label still shows its URL)."""
    return bool(plain(spans).strip()) or any(isinstance(s, Link) for s in spans)


def paragraph_lines(spans: Inline) -> list[Inline]:
    """A paragraph's lines; breaks inside Text spans separate lines, blank lines go."""
    lines: list[list[Span]] = [[]]
    for span in spans:
        if isinstance(span, Text):
            pieces = _LINE_BREAK.split(span.text)
            for i, piece in enumerate(pieces):
                if i:
                    lines.append([])
                if piece:
                    lines[-1].append(Text(piece))
        else:
            lines[-1].extend(one_line((span,)))
    return [tuple(line) for line in lines if has_content(tuple(line))]


def _breakable(text: str, k: int) -> bool:
    """False where cutting would separate a character from its combining marks, a
    variation selector or a zero-width joiner (emoji sequences, accents)."""
    if k <= 0 or k >= len(text):
        return True
    nxt, prev = text[k], text[k - 1]
    if prev == "\u200d" or nxt == "\u200d":
        return False
    if unicodedata.combining(nxt) or "\ufe00" <= nxt <= "\ufe0f":
        return False
    return not ("\U0001f3fb" <= nxt <= "\U0001f3ff")  # skin-tone modifiers


def _longest_prefix(text: str, budget: int, measure: Callable[[str], int]) -> int:
    """Largest k with measure(text[:k]) <= budget (measure grows with k), at a safe cut."""
    # Escaping only ever adds characters, so no prefix longer than the budget can fit;
    # bounding the search keeps shortening a 10,000-character title cheap.
    lo, hi = 0, min(len(text), max(budget, 0) + 1)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(text[:mid]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    k = lo
    while k > 0 and not _breakable(text, k):
        k -= 1
    return k if k > 0 or lo == 0 else lo  # an unbreakable run longer than budget: cut it


def shorten_text(text: str, max_len: int, render: Callable[[str], str]) -> str:
    """``render(text)``, shortened with an ellipsis to at most max_len code points."""
    out = render(text)
    if len(out) <= max_len:
        return out
    k = _longest_prefix(text, max_len, lambda p: len(render(p.rstrip() + ELLIPSIS)))
    out = render(text[:k].rstrip() + ELLIPSIS)
    return out if len(out) <= max_len else ELLIPSIS[:max_len]


def fit_inline(spans: Inline, max_len: int, render: RenderSpan) -> Inline:
    """Spans whose rendering is at most max_len, shortened with an ellipsis if needed.

    Links are kept whole: the plain text around them is shortened first, then (only if
    the links alone are too long) the link labels. The result is never empty.
    """
    spans = tuple(spans)
    costs = [len(render(span)) for span in spans]
    if sum(costs) <= max_len:
        return spans
    fitted = _shorten_around_links(spans, costs, max_len, render)
    if fitted is None:
        fitted = _shorten_link_labels(spans, max_len, render)
    if fitted is None:
        # Only reachable with absurd URLs: keep the words, lose the link target.
        text = _LINE_BREAK.sub(" ", plain(spans))
        k = _longest_prefix(text, max_len, lambda p: len(render(Text(p + ELLIPSIS))))
        fitted = (Text(text[:k] + ELLIPSIS),)
    return fitted


def _shorten_around_links(
    spans: Inline, costs: list[int], max_len: int, render: RenderSpan
) -> Inline | None:
    ell = len(render(Text(ELLIPSIS)))
    budget = max_len - sum(c for s, c in zip(spans, costs, strict=True) if isinstance(s, Link))
    if budget < ell:
        return None
    out: list[Span] = []
    used = 0
    cut = False
    for span, cost in zip(spans, costs, strict=True):
        if isinstance(span, Link):
            out.append(span)
            continue
        if cut:
            continue
        if used + cost + ell <= budget:
            out.append(span)
            used += cost
            continue
        room = budget - used

        def measure(prefix: str, s: Span = span) -> int:
            return len(render(replace(s, text=prefix.rstrip() + ELLIPSIS)))

        k = _longest_prefix(span.text, room, measure)
        head = span.text[:k].rstrip()
        out.append(replace(span, text=head + ELLIPSIS) if head else Text(ELLIPSIS))
        cut = True
    result = tuple(out)
    return result if len(render_inline(result, render)) <= max_len else None


def _shorten_link_labels(spans: Inline, max_len: int, render: RenderSpan) -> Inline | None:
    links = [s for s in spans if isinstance(s, Link)]

    def capped(m: int) -> Inline:
        out: list[Span] = [Text(ELLIPSIS + " ")]
        for link in links:
            label = link.text if len(link.text) <= m else link.text[:m].rstrip() + ELLIPSIS
            out.append(Link(link.url, label))
        return tuple(out)

    lo, hi = 0, max((len(link.text) for link in links), default=0)
    if not links or len(render_inline(capped(0), render)) > max_len:
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if len(render_inline(capped(mid), render)) <= max_len:
            lo = mid
        else:
            hi = mid - 1
    return capped(lo)


def wrap_inline(spans: Inline, max_len: int, render: RenderSpan) -> list[Inline]:
    """One paragraph line as pieces of at most max_len each, losing nothing.

    Breaks fall between words of plain text; a word longer than max_len (CJK text has no
    spaces) is cut between characters. Links, bold and code are never cut; one that is
    longer than max_len on its own is shortened with ``fit_inline``.
    """
    tokens: list[Span] = []
    for span in spans:
        if isinstance(span, Text):
            tokens.extend(Text(w) for w in _WORD.findall(span.text))
        else:
            tokens.extend(fit_inline((span,), max_len, render))
    pieces: list[Inline] = []
    current: list[Span] = []
    used = 0
    for token in tokens:
        cost = len(render(token))
        if used + cost <= max_len:
            current.append(token)
            used += cost
            continue
        if current:
            pieces.append(tuple(current))
            current, used = [], 0
        if cost <= max_len:
            current, used = [token], cost
            continue
        rest = token.text  # only Text can still be too long here
        while len(render(Text(rest))) > max_len:
            k = max(1, _longest_prefix(rest, max_len, lambda p: len(render(Text(p)))))
            pieces.append((Text(rest[:k]),))
            rest = rest[k:]
        current, used = [Text(rest)], len(render(Text(rest)))
    if current:
        pieces.append(tuple(current))
    # A run of spaces cut out of a long line is no content: Slack rejects a blank text.
    return [piece for piece in pieces if has_content(piece)]


# --- packing ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Atom:
    """An unsplittable, already rendered piece and its cost in code points."""

    cost: int
    value: JSONValue  # a piece of the platform's payload: a line, a table row, a field


@dataclass(frozen=True, slots=True)
class Run:
    """The atoms of one block. ``header`` is repeated at the top of every container the
    run spills into (table headers). ``kind`` and ``meta`` are for the platform sink."""

    kind: str
    atoms: tuple[Atom, ...]
    header: Atom | None = None
    meta: object = None


@dataclass(frozen=True, slots=True)
class Plan:
    index: int
    section: Section
    runs: tuple[Run, ...]


class Sink(Protocol):
    """One message being built. ``add`` either takes the atom (together with whatever
    heading or container opening is pending) or changes nothing and returns False, so
    a message never ends with an orphaned heading or an empty container."""

    sections: list[int]  # indexes of sections with content in this message, in order

    def begin_section(self, plan: Plan) -> None: ...

    def begin_run(self, run: Run, *, force_new: bool) -> None: ...

    def add(self, atom: Atom) -> bool: ...

    def commit_heading(self) -> bool: ...


S = TypeVar("S", bound=Sink)


def pack(plans: Sequence[Plan], lead_sections: int, new_sink: Callable[[int], S]) -> list[S]:
    """Stream every atom into as few messages as the sinks allow, in document order.

    Message 0 holds the lead sections; the first non-lead section always opens a new
    message, so the details start in the thread.
    """
    sinks = [new_sink(0)]

    def fresh(plan: Plan) -> S:
        sinks.append(new_sink(len(sinks)))
        sinks[-1].begin_section(plan)
        return sinks[-1]

    for plan in plans:
        sink = sinks[-1]
        if plan.index == max(lead_sections, 0) or (plan.section.collapsed and plan.index):
            sink = fresh(plan)
        else:
            sink.begin_section(plan)
        placed = False
        for run in plan.runs:
            if not run.atoms:
                continue
            sink.begin_run(run, force_new=False)
            for atom in run.atoms:
                placed = True
                if sink.add(atom):
                    continue
                sink.begin_run(run, force_new=True)
                if sink.add(atom):
                    continue
                sink = fresh(plan)
                sink.begin_run(run, force_new=True)
                if not sink.add(atom):
                    raise LayoutError(f"atom of {atom.cost} chars does not fit a message")
        if not placed and not sink.commit_heading():
            sink = fresh(plan)
            if not sink.commit_heading():
                raise LayoutError("a section heading does not fit a message")
    return sinks


def part_numbers(sinks: Sequence[Sink]) -> list[dict[int, tuple[int, int]]]:
    """For each message, section index -> (part, parts) of that section."""
    where: dict[int, list[int]] = {}
    for m, sink in enumerate(sinks):
        for section in sink.sections:
            where.setdefault(section, []).append(m)
    result: list[dict[int, tuple[int, int]]] = [{} for _ in sinks]
    for section, messages in where.items():
        for part, m in enumerate(messages, start=1):
            result[m][section] = (part, len(messages))
    return result
