"""Where the archive puts each page and feed, and their public URLs: the one home of the
archive's file names, shared by the week/module pages (bot.digest.archive) and the release
pages (bot.releases.archive), and cheap to import (a digest links to its week's page
without loading the archive builder)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

ATOM = "http://www.w3.org/2005/Atom"


def file_slug(text: str, fallback: str) -> str:
    """`text` as a file name every web server and file system takes (module ids come from
    rule sets, tags may hold "/"); `fallback` when nothing is left."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or fallback


def public_url(base: str | None, path: str) -> str | None:
    """`path` under the archive's public URL ([web] base_url), None without one."""
    if not base:
        return None
    return base.rstrip("/") + "/" + path


def rfc3339(value: datetime) -> str:
    """An Atom timestamp (RFC 3339, UTC, whole seconds)."""
    return value.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def week_path(repo: str, week: str, language: str) -> str:
    return f"{repo}/{week}.{language}.html"


def module_path(repo: str, module: str, language: str) -> str:
    return f"{repo}/modules/{file_slug(module, 'module')}.{language}.html"


def feed_path(repo: str, language: str) -> str:
    return f"{repo}/feed.{language}.xml"


def week_url(base: str | None, repo: str, week: str, language: str) -> str | None:
    """The week's page under the archive's public URL, None without one."""
    return public_url(base, week_path(repo, week, language))


def release_path(repo: str, tag: str, language: str) -> str:
    return f"{repo}/releases/{file_slug(tag, 'release')}.{language}.html"


def releases_feed_path(repo: str, language: str) -> str:
    return f"{repo}/releases.{language}.xml"


def release_url(base: str | None, repo: str, tag: str, language: str) -> str | None:
    """The release's page under the archive's public URL, None without one."""
    return public_url(base, release_path(repo, tag, language))
