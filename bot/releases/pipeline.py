"""The release digest end to end: make sure the store holds the release, build, render.

Used by `vllm-bot digest --release`, `/vllm release` and the release poster, so all of
them produce the same notes for the same release.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from packaging.version import Version

from bot.core.document import Document
from bot.core.errors import GitHubError, MessageError
from bot.releases.document import release_card, release_document, release_json
from bot.releases.model import ReleaseDigest, Requests
from bot.releases.service import load_release, release_digest
from bot.releases.versions import newest_tag, parse_tag
from bot.store.releases import StoredRelease

if TYPE_CHECKING:
    from bot.services import Services

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BuiltRelease:
    """A release digest (no language) with its notes written in `language`."""

    digest: ReleaseDigest
    language: str
    document: Document

    @classmethod
    def of(cls, digest: ReleaseDigest, language: str) -> BuiltRelease:
        return cls(digest, language, release_document(digest, language))

    def in_language(self, language: str) -> BuiltRelease:
        """The same release's notes in another language, without building it again."""
        return self if language == self.language else BuiltRelease.of(self.digest, language)

    def card(self, notes_url: str | None = None) -> Document:
        return release_card(self.digest, self.language, notes_url)


async def _stored(
    services: Services, repo: str, tag: str | None, base: str | None
) -> StoredRelease:
    store = services.store
    if tag is None:
        tag = newest_tag(await store.releases.tags(repo))
        if tag is None:
            raise MessageError("release.error.none_stored", repo=repo)
    stored = await store.releases.get(repo, tag, base)
    if base is None:
        stored = offline_base(await store.releases.of_tag(repo, tag)) or stored
    if stored is None:
        if base:
            raise MessageError("release.error.not_stored.against", tag=tag, base=base, repo=repo)
        raise MessageError("release.error.not_stored", tag=tag, repo=repo)
    return stored


def offline_base(options: Sequence[StoredRelease]) -> StoredRelease | None:
    """Of a tag's stored comparisons, the one against the newest base by version that is
    not dated after the head (offline, dates stand in for ancestry: a final tagged after
    the next release candidate is no base of it)."""
    usable = [
        r
        for r in options
        if not (r.base_date and r.head_date and r.base_date > r.head_date)
        and parse_tag(r.base) is not None
    ]
    if not usable:
        return None
    return max(usable, key=lambda r: parse_tag(r.base) or Version("0"))


def _check_order(tag: str | None, base: str | None) -> None:
    """A base must be older than the tag: comparing otherwise lists nothing."""
    if tag is None or base is None:
        return
    low, high = parse_tag(base), parse_tag(tag)
    if base == tag or (low is not None and high is not None and low >= high):
        raise MessageError("release.error.order", base=base, tag=tag)


async def build_release(
    services: Services,
    repo: str | None,
    tag: str | None,
    language: str,
    *,
    base: str | None = None,
    sync: bool = True,
) -> BuiltRelease:
    """The release digest of `tag` (the newest release when None) against `base` (the
    previous tag by the version rule when None), its notes in `language` (others through
    `in_language`). `sync=False` reads the store only."""
    repo_name = services.config.repo(repo).name
    _check_order(tag, base)
    requests: Requests | None = None
    if sync:
        # Lazy: GitHub access (httpx, bot.sync) loads only when a release is fetched.
        from bot.releases.fetch import fetch_release, release_newcomers

        github = services.github()
        stored, requests = await fetch_release(services.store, github, repo_name, tag, base)
    else:
        stored = await _stored(services, repo_name, tag, base)
    analyzer = await services.analyzer(repo_name, offline=not sync)
    data, missing = await load_release(services.store, analyzer, stored, requests=requests)
    if missing:
        log.warning(
            "%s %s: %d PRs of the comparison are not in the store and left out",
            repo_name,
            stored.tag,
            len(missing),
        )
    if sync:
        authors = {rp.apr.pr.author for rp in data.prs if rp.apr.pr.author}
        before = github.requests
        try:
            data.new_contributors = await release_newcomers(services.store, github, stored, authors)
        except GitHubError as exc:
            log.warning("first-time contributors of %s unknown: %s", stored.tag, exc)
        if requests is not None:
            requests.newcomers = github.requests - before
    digest = await release_digest(
        services.store,
        analyzer,
        data,
        tz=services.config.tz,
        history_weeks=services.config.digest.history_weeks,
    )
    return BuiltRelease.of(digest, language)


def render_release(built: BuiltRelease, fmt: str) -> str:
    """`digest --release --format`: the renderers of the weekly digest, over the release's
    Document (JSON is the release digest's own)."""
    if fmt == "json":
        return (
            json.dumps(release_json(built.digest, built.language), ensure_ascii=False, indent=2)
            + "\n"
        )
    if fmt in ("markdown", "html"):
        # Lazy: the renderers (jinja2) load only when a release is rendered.
        from bot.digest.render import render_html, render_markdown

        render = render_markdown if fmt == "markdown" else render_html
        return render(built.document)
    if fmt == "slack":
        # Lazy: formatters.slack loads only for the slack format.
        from formatters.slack import render_slack

        return json.dumps(render_slack(built.document), ensure_ascii=False, indent=2)
    if fmt == "discord":
        # Lazy: formatters.discord loads only for the discord format.
        from formatters.discord import render_discord

        return json.dumps(render_discord(built.document), ensure_ascii=False, indent=2)
    raise ValueError(f"unknown release format {fmt!r}")
