"""A small neutral rich-text model.

The digest, PR cards and alerts are built as Documents; every output (markdown, HTML,
Slack Block Kit, Discord embeds) renders the same Document. User-controlled text only
ever lives inside spans, so each renderer escapes it for its own platform in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Text:
    text: str


@dataclass(frozen=True, slots=True)
class Strong:
    text: str


@dataclass(frozen=True, slots=True)
class Code:
    text: str


@dataclass(frozen=True, slots=True)
class Link:
    url: str
    text: str  # the label; must survive splitting together with its url


Span = Text | Strong | Code | Link
Inline = tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class Paragraph:
    spans: Inline


@dataclass(frozen=True, slots=True)
class BulletList:
    items: tuple[Inline, ...]
    ordered: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[Inline, ...], ...]
    # Column alignment hints for monospace renderers: "l" or "r" per column.
    align: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Facts:
    """Short label/value pairs (Slack section fields, Discord embed fields)."""

    items: tuple[tuple[str, Inline], ...]


Block = Paragraph | BulletList | Table | Facts


@dataclass(frozen=True, slots=True)
class Section:
    id: str  # stable id, e.g. "summary", "highlights", "risks"
    title: str
    blocks: tuple[Block, ...]
    # Reference material read on demand (a release's full changelog): folded in HTML,
    # its own message on chat.
    collapsed: bool = False


@dataclass(frozen=True, slots=True)
class Document:
    id: str  # stable id used for delivery ledgers, e.g. "digest:vllm-project/vllm:2026-W23:en"
    title: str
    context: str  # one line under the title (dates, timezone, repo)
    sections: tuple[Section, ...]
    # Notification / screen-reader fallback text (Slack `text`).
    fallback: str
    # How many leading sections form the compact first message; the rest go in its thread.
    lead_sections: int = 1
    footer: str = ""
    url: str | None = None
    meta: dict[str, str] = field(default_factory=dict)


def plain(spans: Inline) -> str:
    """The visible text of spans, for length estimates and fallbacks."""
    return "".join(s.text for s in spans)
