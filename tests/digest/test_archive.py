"""The static archive: every link resolves, the feeds are valid Atom, serve offers the same."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urldefrag, urlsplit

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.core.config import load_config
from bot.digest.archive import ArchiveCache, entry_id, load_repo_archive, site, write_site
from bot.runtime.web import archive_routes
from bot.store import Store
from tests.digest.history_helpers import NOW, REPO, LabelAnalyzer, fill, pr, weeks_ending

ATOM = "{http://www.w3.org/2005/Atom}"
# RFC 3339 date-time (Atom's Date construct, RFC 4287 §3.3).
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts += 1
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)


async def _store_with_weeks(tmp_path: Path, weeks: int, skip: int | None = None) -> Store:
    tmp_path.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 (test set-up)
    windows = weeks_ending("2026-W23", weeks)
    prs = []
    for i, window in enumerate(windows):
        at = window.start_utc + timedelta(days=2)
        prs.append(pr(1000 + 3 * i, at, ("rocm",), "amd-dev"))
        prs.append(pr(1001 + 3 * i, at, ("attention", "tests"), "attn-dev"))
        if i % 3 == 0:
            prs.append(pr(1002 + 3 * i, at, ("docs",), "writer"))
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    await fill(store, prs, [w for i, w in enumerate(windows) if i != skip])
    return store


async def _site(tmp_path: Path, weeks: int = 6, skip: int | None = None) -> dict[str, str]:
    store = await _store_with_weeks(tmp_path, weeks + 2, skip)
    try:
        archive = await load_repo_archive(
            store, LabelAnalyzer(), REPO, weeks=weeks, history_weeks=2, tz=NOW.tzinfo, now=NOW
        )
    finally:
        await store.close()
    assert archive is not None
    return site([archive], ["en", "zh"])


def _crawl(root: Path) -> tuple[set[Path], list[str]]:
    """Every page reachable from index.html; the links that do not resolve."""
    seen: set[Path] = set()
    broken: list[str] = []
    todo = [root / "index.html"]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        if page.suffix != ".html":
            ET.parse(page)  # feeds must at least be XML
            continue
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        assert parser.scripts == 0, page
        for link in parser.links:
            url, _ = urldefrag(link)
            parts = urlsplit(url)
            if parts.scheme in ("http", "https"):
                assert parts.netloc == "github.com", link  # pages link only to GitHub
                continue
            assert not parts.scheme and not url.startswith("/"), f"{page}: {link} is not relative"
            target = (page.parent / url).resolve()
            if not target.is_file():
                broken.append(f"{page.relative_to(root)} → {link}")
            elif target not in seen:
                todo.append(target)
    return seen, broken


async def test_every_link_of_the_archive_resolves(tmp_path: Path) -> None:
    pages = await _site(tmp_path, weeks=6, skip=4)
    out = tmp_path / "site"
    write_site(pages, out)
    reached, broken = _crawl(out.resolve())
    assert broken == []
    # Every page written is reachable from the index (nothing orphaned).
    written = {p.resolve() for p in out.rglob("*") if p.is_file()}
    assert written == reached
    names = {p.relative_to(out.resolve()).as_posix() for p in written}
    assert f"{REPO}/2026-W23.en.html" in names and f"{REPO}/2026-W23.zh.html" in names
    assert f"{REPO}/modules/rocm.en.html" in names and f"{REPO}/modules/docs.zh.html" in names
    assert f"{REPO}/feed.en.xml" in names and f"{REPO}/feed.zh.xml" in names
    # A week that is not fully synced is in the archive, marked as such.
    skipped = weeks_ending("2026-W23", 8)[4].label
    assert "⚠" in pages[f"{REPO}/{skipped}.en.html"]
    # Pages link to GitHub.
    assert f"https://github.com/{REPO}/pull/1021" in pages[f"{REPO}/modules/rocm.en.html"]


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_the_feed_is_valid_atom(tmp_path: Path, language: str) -> None:
    pages = await _site(tmp_path, weeks=6)
    text = pages[f"{REPO}/feed.{language}.xml"]
    root = ET.fromstring(text.encode())
    assert root.tag == f"{ATOM}feed"
    # RFC 4287 §4.1.1: id, title, updated; an author (feed-level here, for every entry).
    for required in ("id", "title", "updated", "author"):
        assert root.find(f"{ATOM}{required}") is not None, required
    assert root.find(f"{ATOM}author/{ATOM}name").text == "vllm-bot"
    assert RFC3339.match(root.find(f"{ATOM}updated").text)
    assert root.find(f"{ATOM}link[@rel='self']") is not None
    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == 6
    ids = [e.find(f"{ATOM}id").text for e in entries]
    assert len(set(ids)) == len(ids) and all(i.startswith("urn:uuid:") for i in ids)
    updated = []
    for entry in entries:
        for required in ("id", "title", "updated", "content", "summary"):
            assert entry.find(f"{ATOM}{required}") is not None, required
        assert RFC3339.match(entry.find(f"{ATOM}updated").text)
        assert entry.find(f"{ATOM}link[@rel='alternate']").get("href").endswith(".html")
        assert entry.find(f"{ATOM}content").get("type") == "text"
        assert entry.find(f"{ATOM}content").text  # the digest summary
        updated.append(datetime.fromisoformat(entry.find(f"{ATOM}updated").text))
    assert updated == sorted(updated, reverse=True)  # newest first
    # The feed's updated is its newest entry's.
    assert datetime.fromisoformat(root.find(f"{ATOM}updated").text) == updated[0]
    # Stable ids: the same week gets the same id in every build.
    assert ids[0] == entry_id(REPO, "2026-W23", language)
    again = await _site(tmp_path / "again", weeks=6)
    assert again[f"{REPO}/feed.{language}.xml"] == text


async def test_serve_offers_the_archive_under_digests(tmp_path: Path) -> None:
    from aiohttp import web

    store = await _store_with_weeks(tmp_path, 4)
    config = load_config(None).model_copy(
        update={"repos": [load_config(None).repos[0].model_copy(update={"name": REPO})]}
    )

    class _Services(SimpleNamespace):
        async def analyzer(self, repo: str, *, offline: bool = False) -> LabelAnalyzer:
            return LabelAnalyzer()

    services = _Services(config=config, store=store)
    cache = ArchiveCache(services)
    app = web.Application()
    for route in archive_routes(cache):
        app.router.add_route(route.method, route.path, route.handler)
    try:
        async with TestClient(TestServer(app)) as client:
            index = await client.get("/digests/")
            assert index.status == 200 and "text/html" in index.headers["Content-Type"]
            assert REPO in await index.text()
            week = await client.get(f"/digests/{REPO}/2026-W22.en.html")
            assert week.status == 200, await week.text()
            feed = await client.get(f"/digests/{REPO}/feed.zh.xml")
            assert feed.headers["Content-Type"].startswith("application/atom+xml")
            ET.fromstring(await feed.read())
            assert (await client.get("/digests/nope.html")).status == 404
            assert (await client.get("/digests/../secret")).status == 404
            assert cache.builds == 1  # cached: three pages, one build
            # A sync changes the store: the next request rebuilds once.
            window = weeks_ending("2026-W23", 1)[0]
            await fill(store, [pr(9999, window.start_utc + timedelta(days=3))], [window])
            page = await client.get(f"/digests/{REPO}/2026-W23.en.html")
            assert "#9999" in await page.text()
            assert cache.builds == 2
    finally:
        await store.close()
