"""The archive's releases: one page per release and language, and an Atom feed of releases.

OWNER/NAME/releases/TAG.LANG.html   the release notes (same page as --format html)
OWNER/NAME/releases.LANG.xml        Atom feed (RFC 4287), newest release first
"""

from __future__ import annotations

import uuid
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING

from bot.core.i18n import message
from bot.digest.archive_paths import (
    ATOM,
    release_path,
    releases_feed_path,
    rfc3339,
)
from bot.digest.render import render_html
from bot.releases.document import release_document
from bot.releases.model import ReleaseDigest
from bot.releases.service import load_release, release_digest
from bot.releases.versions import tag_order
from bot.store.store import Store

if TYPE_CHECKING:
    from bot.analysis.analyzer import Analyzer

_ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/vllm-bot/archive/releases")


def _entry_id(repo: str, tag: str, language: str) -> str:
    return f"urn:uuid:{uuid.uuid5(_ID_NAMESPACE, f'{repo}/{tag}/{language}')}"


def releases_feed(
    repo: str, digests: Sequence[ReleaseDigest], language: str, base_url: str | None = None
) -> str:
    """Atom feed of `digests` (any order), newest release first; an entry's `updated` is
    its tag's date (unknown dates sort last and use the feed's date)."""
    path = releases_feed_path(repo, language)
    base = base_url.rstrip("/") + "/" if base_url else None

    def href(target: str) -> str:
        return base + target if base else "../" * path.count("/") + target

    ordered = sorted(
        digests, key=lambda d: d.head_date or datetime.min.replace(tzinfo=UTC), reverse=True
    )
    now = datetime.now(UTC)
    ET.register_namespace("", ATOM)
    root = ET.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": language})
    feed_key = f"{repo}/feed/{language}"
    ET.SubElement(root, f"{{{ATOM}}}id").text = f"urn:uuid:{uuid.uuid5(_ID_NAMESPACE, feed_key)}"
    ET.SubElement(root, f"{{{ATOM}}}title").text = message(
        language, "release.feed.title", repo=repo
    )
    newest = next((d.head_date for d in ordered if d.head_date), now)
    ET.SubElement(root, f"{{{ATOM}}}updated").text = rfc3339(newest)
    author = ET.SubElement(root, f"{{{ATOM}}}author")
    ET.SubElement(author, f"{{{ATOM}}}name").text = "vllm-bot"
    ET.SubElement(
        root, f"{{{ATOM}}}link", {"rel": "self", "href": href(path), "type": "application/atom+xml"}
    )
    for digest in ordered:
        document = release_document(digest, language)
        entry = ET.SubElement(root, f"{{{ATOM}}}entry")
        ET.SubElement(entry, f"{{{ATOM}}}id").text = _entry_id(repo, digest.tag, language)
        ET.SubElement(entry, f"{{{ATOM}}}title").text = document.title
        ET.SubElement(entry, f"{{{ATOM}}}updated").text = rfc3339(digest.head_date or newest)
        ET.SubElement(
            entry,
            f"{{{ATOM}}}link",
            {
                "rel": "alternate",
                "type": "text/html",
                "href": href(release_path(repo, digest.tag, language)),
            },
        )
        themes = ", ".join(h.title(language) for h in digest.highlights)
        summary = document.fallback + (f" — {themes}" if themes else "")
        ET.SubElement(entry, f"{{{ATOM}}}summary").text = summary
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


async def release_pages(
    store: Store,
    analyzer: Analyzer,
    repo: str,
    languages: Sequence[str],
    *,
    tz: tzinfo = UTC,
    history_weeks: int = 8,
    base_url: str | None = None,
) -> dict[str, str]:
    """Every stored release's page and the releases feed of `repo` (store only): each
    release is built once and written in every language."""
    pages: dict[str, str] = {}
    stored = sorted(await store.releases.all(repo), key=lambda r: tag_order(r.tag))
    if not stored:
        return pages
    digests = []
    for release in stored:
        data, _ = await load_release(store, analyzer, release)
        digests.append(
            await release_digest(store, analyzer, data, tz=tz, history_weeks=history_weeks)
        )
    for language in languages:
        nav = [(message(language, "release.feed.nav"), "../index.html")]
        for digest in digests:
            path = release_path(repo, digest.tag, language)
            pages[path] = render_html(release_document(digest, language), nav=nav)
        pages[releases_feed_path(repo, language)] = releases_feed(repo, digests, language, base_url)
    return pages
