"""The archive's release pages and Atom feed of releases, from the store alone."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.core.models import FileChange, PullRequest
from bot.digest.archive_paths import release_path, releases_feed_path
from bot.releases.archive import release_pages
from bot.store.releases import StoredRelease

REPO = "acme/widgets"
ATOM = "{http://www.w3.org/2005/Atom}"
T0 = datetime(2026, 6, 1, tzinfo=UTC)


def _pr(number: int, title: str) -> PullRequest:
    when = T0 + timedelta(hours=number)
    return PullRequest(
        repo=REPO,
        number=number,
        title=title,
        url=f"https://github.com/{REPO}/pull/{number}",
        state="merged",
        created_at=when,
        merged_at=when,
        author=f"dev{number % 3}",
        additions=5,
        deletions=1,
        changed_files=1,
        files=[FileChange("widgets/core.py", 5, 1)],
    )


async def test_each_release_gets_a_page_and_the_feed_lists_the_newest_first(store):
    await store.prs.upsert([_pr(n, f"[Feature] Widget {n}") for n in range(1, 7)])
    for tag, base, numbers, day in (
        ("v1.0.0rc1", "v0.9.0", [1, 2, 3], 3),
        ("v1.0.0rc2", "v1.0.0rc1", [4, 5, 6], 6),
    ):
        await store.releases.put(
            StoredRelease(
                REPO, tag, base, T0, T0 + timedelta(days=day), [(n, None) for n in numbers], 3
            )
        )
    pages = await release_pages(store, Analyzer(load_ruleset("generic")), REPO, ["en", "zh"])
    for tag in ("v1.0.0rc1", "v1.0.0rc2"):
        for lang in ("en", "zh"):
            assert f"{tag}" in pages[release_path(REPO, tag, lang)]
    feed = ET.fromstring(pages[releases_feed_path(REPO, "en")])
    titles = [e.findtext(f"{ATOM}title") for e in feed.iter(f"{ATOM}entry")]
    assert titles == ["widgets v1.0.0rc2 release notes", "widgets v1.0.0rc1 release notes"]
    links = [e.find(f"{ATOM}link").get("href") for e in feed.iter(f"{ATOM}entry")]
    assert links[0].endswith("releases/v1.0.0rc2.en.html") and not links[0].startswith("http")


async def test_a_release_whose_tag_is_no_version_gets_its_page_beside_the_others(store):
    """A `nightly` compared with `--base` is stored under a tag that is no version: the
    archive sorted tags as `Version or 0` and failed for every page (issue 36)."""
    await store.prs.upsert([_pr(n, f"[Feature] Widget {n}") for n in range(1, 10)])
    for tag, base, numbers, day in (
        ("v1.0.0rc1", "v0.9.0", [1, 2, 3], 3),
        ("nightly", "v1.0.0rc1", [4, 5, 6], 6),
        ("v1.0.0", "v1.0.0rc1", [7, 8, 9], 5),
    ):
        await store.releases.put(
            StoredRelease(
                REPO, tag, base, T0, T0 + timedelta(days=day), [(n, None) for n in numbers], 3
            )
        )
    pages = await release_pages(store, Analyzer(load_ruleset("generic")), REPO, ["en"])
    for tag in ("v1.0.0rc1", "nightly", "v1.0.0"):
        assert tag in pages[release_path(REPO, tag, "en")]
    feed = ET.fromstring(pages[releases_feed_path(REPO, "en")])
    titles = [e.findtext(f"{ATOM}title") for e in feed.iter(f"{ATOM}entry")]
    assert titles == [
        "widgets nightly release notes",
        "widgets v1.0.0 release notes",
        "widgets v1.0.0rc1 release notes",
    ]


def test_tags_sort_in_version_order_and_odd_tags_after_them() -> None:
    from bot.releases.versions import tag_order

    tags = ["nightly", "v0.10.0", "v0.9.1", "docs-2026", "v0.10.0rc1"]
    assert sorted(tags, key=tag_order) == [
        "v0.9.1",
        "v0.10.0rc1",
        "v0.10.0",
        "docs-2026",
        "nightly",
    ]
