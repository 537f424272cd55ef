"""A release from GitHub: the previous tag, the comparison, the PRs the store lacks.

Costs one request per compare page (100 commits), the tag and release listings when the
base must be found, and one GraphQL request per 100 PRs missing from the store (REST
`pulls/{n}` each without a token).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from urllib.parse import quote

from bot.core.errors import GitHubError, MessageError, NotFoundError
from bot.core.messages import Text
from bot.github.client import GitHubClient
from bot.github.graphql_source import GraphQLSource
from bot.github.queries import PULL_REQUESTS_PER_REQUEST
from bot.github.releases import PER_PAGE, Comparison, Tags, compare, list_tags
from bot.releases.commits import commit_ref
from bot.releases.model import Requests
from bot.releases.versions import (
    base_candidates,
    newest_tag,
    parse_tag,
    previous_tag,
    tag_order,
    tags_between,
)
from bot.store.releases import StoredRelease
from bot.store.store import Store
from bot.sync import first_time_contributors, source_for

log = logging.getLogger(__name__)
MAX_BASE_TRIES = 5  # candidates compared before giving up on finding an ancestor


def _known(tags: Iterable[str], limit: int = 5) -> str | Text:
    versions = sorted((t for t in tags if parse_tag(t)), key=tag_order)
    return ", ".join(versions[-limit:][::-1]) or Text("release.none")


def _no_tag(repo: str, tag: str, tags: Tags) -> MessageError:
    return MessageError("release.error.no_tag", repo=repo, tag=repr(tag), known=_known(tags.names))


def pick_base(tag: str, tags: Tags) -> str:
    """The base of `tag` by the version rule, or a usage error naming the tags known."""
    if parse_tag(tag) is None:
        raise MessageError("release.error.not_version", tag=repr(tag))
    base = previous_tag(tag, tags.names)
    if base is None:
        raise MessageError("release.error.no_earlier", tag=tag)
    return base


async def _fetch_prs(github: GitHubClient, store: Store, repo: str, numbers: list[int]) -> None:
    source = source_for(github, store)
    if isinstance(source, GraphQLSource):
        found = await source.pull_requests(repo, numbers)
    else:
        found = {n: await source.pull_request(repo, n) for n in numbers}
    await store.prs.upsert(list(found.values()))


def _not_ancestor(comparison: Comparison) -> bool:
    """The base is not in the head's history (GitHub says "diverged" or "behind"), or its
    commit is dated after the head's newest: comparing with it lists the wrong PRs."""
    if comparison.status in ("diverged", "behind"):
        return True
    head = next((c.date for c in reversed(comparison.commits) if c.date), None)
    return bool(comparison.base_date and head and comparison.base_date > head)


async def _ancestor_base(
    github: GitHubClient, repo: str, tag: str, tags: Tags
) -> tuple[str, Comparison]:
    """The most recent release tag (by the version rule) that is an ancestor of `tag`,
    with the comparison. The usual case costs the one comparison it needs; a candidate
    that is no ancestor costs its comparison and the next is tried."""
    candidates = base_candidates(tag, tags.names)
    if not candidates:
        pick_base(tag, tags)  # raises the usage error naming the tag
    for candidate in candidates[:MAX_BASE_TRIES]:
        comparison = await compare(github, repo, candidate, tag)
        if not _not_ancestor(comparison):
            return candidate, comparison
        log.info("%s: %s is not an ancestor of %s; trying an older tag", repo, candidate, tag)
    raise MessageError("release.error.no_earlier", tag=tag)


async def fetch_release(
    store: Store, github: GitHubClient, repo: str, tag: str | None, base: str | None = None
) -> tuple[StoredRelease, Requests]:
    """Compare `base`...`tag` (base by the version rule when None, newest tag when `tag` is
    None), fetch the PRs the store lacks, store the release. Returns it with the requests
    it cost and their lower bound."""
    before = github.requests
    # Tags alone tell the base: the releases listing (which are published) is the poll's.
    tags = await list_tags(github, repo, releases=False)
    if tag is None:
        tag = newest_tag(tags.names)
        if tag is None:
            raise MessageError("release.error.no_versions", repo=repo)
    if tag not in tags.names:
        raise _no_tag(repo, tag, tags)
    if base is not None:
        if base not in tags.names:
            raise _no_tag(repo, base, tags)
        comparison = await compare(github, repo, base, tag)
    else:
        base, comparison = await _ancestor_base(github, repo, tag, tags)
    refs = [commit_ref(c.sha, c.message) for c in comparison.commits]
    entries: list[tuple[int, int | None]] = []
    unmapped: list[str] = []
    for ref in refs:
        if ref.number is None:
            unmapped.append(ref.sha)
            continue
        picked = ref.number if ref.original is not None else None
        entries.append((ref.reported or ref.number, picked))
    records = [pick if pick is not None else reported for reported, pick in entries]
    stored = await store.prs.many(repo, records)
    missing = [n for n in dict.fromkeys(records) if n not in stored]
    if missing:
        await _fetch_prs(github, store, repo, missing)
    # Picks' originals too, when they can be fetched: the notes analyse a pick as the PR
    # it copies, and read the pick itself when the original is gone.
    originals = [reported for reported, pick in entries if pick is not None]
    known = await store.prs.many(repo, originals)
    lacking = [n for n in dict.fromkeys(originals) if n not in known]
    if lacking:
        try:
            await _fetch_prs(github, store, repo, lacking)
        except (GitHubError, NotFoundError) as exc:
            log.warning("%s: originals of cherry-picks not fetched: %s", repo, exc)
    head_date = next((c.date for c in reversed(comparison.commits) if c.date), None)
    earlier = await store.releases.get(repo, tag, base)
    release = StoredRelease(
        repo=repo,
        tag=tag,
        base=base,
        base_date=comparison.base_date,
        head_date=head_date,
        entries=entries,
        commits=len(comparison.commits),
        unmapped=unmapped,
        between=tags_between(base, tag, tags.names),
        # GitHub's release page of a tag (it shows the tag when no release was published).
        url=f"https://github.com/{repo}/releases/tag/{quote(tag, safe='')}",
        announced=earlier is not None and earlier.announced,
    )
    await store.releases.put(release)
    lower = (
        max(1, math.ceil(comparison.total / PER_PAGE))
        + 1  # the tag listing
        + math.ceil(len(missing) / PULL_REQUESTS_PER_REQUEST)
    )
    return release, Requests(github.requests - before, lower)


async def release_newcomers(
    store: Store, github: GitHubClient, release: StoredRelease, authors: Iterable[str]
) -> set[str] | None:
    """Authors with no PR merged before the base tag's date; None without that date."""
    if release.base_date is None:
        return None
    return await first_time_contributors(store, github, release.repo, authors, release.base_date)
