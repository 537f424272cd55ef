"""Markdown, HTML and JSON renderings of a Document / Digest.

Both text renderers use jinja2 templates in bot/digest/templates/ that contain structure
only; every word comes from the Document (built from the bot.core.i18n catalogue), so the
English and Chinese outputs share one template. Escaping happens here, in one place per
output: markdown-special characters are backslash-escaped in user text, and the HTML
environment autoescapes everything.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from urllib.parse import urlsplit

import jinja2

from bot.core.document import (
    BulletList,
    Code,
    Document,
    Facts,
    Inline,
    Link,
    Paragraph,
    Span,
    Strong,
    Table,
    Text,
)
from bot.digest.model import Digest
from bot.digest.prose import digest_json

# Characters that start inline markdown constructs (CommonMark + GFM tables/strikethrough).
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")
_MD_ENTITY = re.compile(r"&(?=#?\w+;)")
# At the start of a line these would turn text into a heading, list, quote or rule.
_MD_LINE_START = re.compile(r"^(\s*)(#{1,6}(?=\s|$)|>|[+\-*](?=\s|$)|\d+[.)](?=\s|$)|=+\s*$|-{3,})")
_SAFE_SCHEMES = ("http", "https", "mailto")


def safe_url(url: str) -> str:
    """The URL when its scheme is safe to link to, else "" (no javascript: links)."""
    try:
        scheme = urlsplit(url.strip()).scheme.lower()
    except ValueError:
        return ""
    return url.strip() if scheme in _SAFE_SCHEMES else ""


def page_url(url: str) -> str:
    """For HTML pages: a safe absolute URL, or a relative one (the archive links its pages
    to each other relatively so the folder can be published anywhere). A relative URL has
    no scheme, so it can never be a javascript: link."""
    absolute = safe_url(url)
    if absolute:
        return absolute
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return ""
    relative = not parts.scheme and not parts.netloc and ":" not in url.split("/", 1)[0]
    return url.strip() if relative and url.strip() else ""


def _escape_inline(text: str) -> str:
    # Newlines become spaces: cells and list items are single-line.
    text = " ".join(text.split("\n")).replace("\r", "")
    return _MD_ENTITY.sub(r"\\&", _MD_SPECIAL.sub(r"\\\1", text))


def md_text(text: str) -> str:
    """Escape user text for markdown, including what would act at the start of a line."""
    return _MD_LINE_START.sub(r"\1\\\2", _escape_inline(text))


def _md_code(text: str) -> str:
    text = " ".join(text.splitlines())
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _md_url(url: str) -> str:
    return url.replace(" ", "%20").replace("(", "%28").replace(")", "%29")


def _md_span(span: Span, first: bool) -> str:
    if isinstance(span, Strong):
        body = _escape_inline(span.text)
        return f"**{body.strip()}**" if body.strip() else ""
    if isinstance(span, Code):
        return _md_code(span.text)
    if isinstance(span, Link):
        url = safe_url(span.url)
        label = _escape_inline(span.text)
        return f"[{label}]({_md_url(url)})" if url else label
    # Only the first span can start a line; later "#123" text must stay readable.
    return md_text(span.text) if first else _escape_inline(span.text)


def md_inline(spans: Inline) -> str:
    return "".join(_md_span(span, i == 0) for i, span in enumerate(spans))


def md_cell(spans: Inline) -> str:
    # A table cell never starts a block, so only inline escaping applies.
    return "".join(_md_span(span, False) for span in spans) or " "


def md_rules(table: Table) -> list[str]:
    return [
        "---:" if (table.align[i] if i < len(table.align) else "l") == "r" else "---"
        for i in range(len(table.header))
    ]


def footer_spans(footer: str) -> Inline:
    """Catalogue footers mark commands with backticks; turn them into Code spans."""
    parts = footer.split("`")
    return tuple((Code(part) if i % 2 else Text(part)) for i, part in enumerate(parts) if part)


_SPARK_CELL = re.compile(r"^[▁▂▃▄▅▆▇█·]+$")


def _is_spark(cell: Inline) -> bool:
    """A sparkline cell (drawn in a monospace font so its columns line up)."""
    return len(cell) == 1 and isinstance(cell[0], Text) and bool(_SPARK_CELL.match(cell[0].text))


@lru_cache(maxsize=2)
def _environment(kind: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("bot.digest", "templates"),
        autoescape=kind == "html",
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined if kind == "markdown" else jinja2.Undefined,
    )
    env.tests.update(
        paragraph=lambda b: isinstance(b, Paragraph),
        bullets=lambda b: isinstance(b, BulletList),
        facts=lambda b: isinstance(b, Facts),
        table=lambda b: isinstance(b, Table),
        strong_span=lambda s: isinstance(s, Strong),
        code_span=lambda s: isinstance(s, Code),
        link_span=lambda s: isinstance(s, Link),
        spark_cell=_is_spark,
    )
    env.filters.update(
        md_text=md_text,
        md_inline=md_inline,
        md_cell=md_cell,
        md_cell_text=lambda text: _escape_inline(text) or " ",
        md_rules=md_rules,
        md_footer=lambda footer: md_inline(footer_spans(footer)),
        safe_url=safe_url if kind == "markdown" else page_url,
    )
    return env


def render_markdown(doc: Document) -> str:
    colon = "：" if doc.meta.get("language") == "zh" else ":"
    text = _environment("markdown").get_template("markdown.j2").render(doc=doc, colon=colon)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def _lang_tag(doc: Document) -> str:
    return {"zh": "zh-Hans", "en": "en"}.get(doc.meta.get("language", "en"), "en")


def render_html(
    doc: Document,
    charts: Mapping[str, Sequence[str]] | None = None,
    nav: Sequence[tuple[str, str]] = (),
) -> str:
    """One self-contained page. `charts`: inline SVG (trusted markup from formatters.svg)
    per "SECTION_ID:top" / "SECTION_ID:end", placed under that section's heading or at
    its end. `nav`: (label, url) links above the title (the archive's pages)."""
    template = _environment("html").get_template("html.j2")
    html = template.render(
        doc=doc,
        lang_tag=_lang_tag(doc),
        footer_spans=footer_spans(doc.footer),
        charts=charts or {},
        nav=[(label, page_url(url)) for label, url in nav],
    )
    return re.sub(r"\n\s*\n", "\n", html).strip() + "\n"


def render_json(digest: Digest, language: str) -> str:
    """The digest JSON, its localised fields in `language`."""
    # An organisation digest adds its repositories' parts (OrgDigest.to_json); a weekly
    # digest is written by the prose module.
    writer = getattr(digest, "to_json", None)
    data = writer(language) if writer is not None else digest_json(digest, language)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
