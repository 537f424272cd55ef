"""Release tags in version order, and which tag a release is compared with.

The rule for the previous tag: a release candidate (or any pre-release) follows the
highest version below it, whatever that is (`v0.22.1rc1` follows `v0.21.0rc1`); a final
release follows the previous final release, as maintainers write "changes since v0.18.0"
for v0.19.0. Tags that are not versions (`nightly`, `docs-2026`) are never a base.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from packaging.version import InvalidVersion, Version


def parse_tag(tag: str) -> Version | None:
    """The version a tag names (`v0.21.0rc1`, `0.9.1`), or None for any other tag."""
    text = tag.strip()
    if text[:1] in ("v", "V"):
        text = text[1:]
    if not text or not text[0].isdigit():
        return None
    try:
        return Version(text)
    except InvalidVersion:
        return None


_NO_VERSION = Version("0")


def tag_order(tag: str) -> tuple[bool, Version, str]:
    """A sort key for any tag: version tags in version order, then the tags that are no
    version (`nightly`) by name, so one odd tag never breaks a listing."""
    version = parse_tag(tag)
    return (version is None, version or _NO_VERSION, tag)


def _versions(tags: Iterable[str]) -> list[tuple[Version, str]]:
    parsed = [(parse_tag(tag), tag) for tag in tags]
    return sorted((v, tag) for v, tag in parsed if v is not None)


def base_candidates(
    tag: str, tags: Iterable[str], dates: Mapping[str, datetime] | None = None
) -> list[str]:
    """The tags `tag` may be compared with, the preferred first: by the version rule, and
    never one dated after `tag` when both dates are known (a final tagged after the next
    release candidate, v0.23.0 after v0.24.0rc1, is no base of it)."""
    version = parse_tag(tag)
    if version is None:
        return []
    below = [(v, t) for v, t in _versions(tags) if v < version]
    if not version.is_prerelease and not version.is_devrelease:
        below = [(v, t) for v, t in below if not v.is_prerelease and not v.is_devrelease]
    head = (dates or {}).get(tag)
    if head is not None:
        below = [(v, t) for v, t in below if (dates or {}).get(t, head) <= head]
    return [t for _, t in reversed(below)]


def previous_tag(
    tag: str, tags: Iterable[str], dates: Mapping[str, datetime] | None = None
) -> str | None:
    """The tag `tag` is compared with by default, or None when there is none below it."""
    candidates = base_candidates(tag, tags, dates)
    return candidates[0] if candidates else None


def tags_between(base: str, head: str, tags: Iterable[str]) -> list[str]:
    """The version tags strictly between `base` and `head`, oldest first (the releases a
    comparison with an older base spans)."""
    low, high = parse_tag(base), parse_tag(head)
    if low is None or high is None:
        return []
    return [t for v, t in _versions(tags) if low < v < high]


def newest_tag(tags: Iterable[str]) -> str | None:
    """The highest version tag (what `/vllm release` shows without a tag)."""
    ordered = _versions(tags)
    return ordered[-1][1] if ordered else None
