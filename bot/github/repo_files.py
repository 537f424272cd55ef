"""Repository files at HEAD and top-level folder names, for `modules = "auto"`.

With a token, one GraphQL request returns every asked file and the root tree; without one,
REST contents requests (conditional, through the store's http cache when given).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from bot.core.errors import GitHubError, NotFoundError
from bot.github import queries as q
from bot.github.client import GitHubClient
from bot.github.graphql_source import split_repo
from bot.github.rest_source import RestSource
from bot.github.source import repo_not_found
from bot.store.http_cache import RepoSnapshot
from bot.store.store import Store

__all__ = ["AUTO_MODULE_FILES", "Refresh", "RepoSnapshot", "refresh_repo_snapshot", "repo_snapshot"]

AUTO_MODULE_FILES = (".github/labeler.yml", ".github/mergify.yml")


async def repo_snapshot(
    github: GitHubClient,
    repo: str,
    paths: Sequence[str] = AUTO_MODULE_FILES,
    *,
    store: Store | None = None,
) -> RepoSnapshot:
    """Texts of `paths` at HEAD (None for a missing or binary file) and the top-level folders."""
    if github.uses_graphql:
        return await _graphql_snapshot(github, repo, paths)
    return await _rest_snapshot(RestSource(github, store), repo, paths)


async def _graphql_snapshot(github: GitHubClient, repo: str, paths: Sequence[str]) -> RepoSnapshot:
    owner, name = split_repo(repo)
    variables = {"owner": owner, "name": name} | {
        f"e{i}": f"HEAD:{path}" for i, path in enumerate(paths)
    }
    try:
        data = await github.graphql(q.repo_files_query(len(paths)), variables)
    except NotFoundError:
        raise repo_not_found(repo) from None
    repository = data.get("repository") or {}
    snapshot = RepoSnapshot()
    for i, path in enumerate(paths):
        blob = repository.get(f"f{i}") or {}
        snapshot.files[path] = None if blob.get("isBinary") else blob.get("text")
    entries = (repository.get("root") or {}).get("entries") or []
    snapshot.top_level_dirs = sorted(e["name"] for e in entries if e.get("type") == "tree")
    return snapshot


async def _rest_snapshot(source: RestSource, repo: str, paths: Sequence[str]) -> RepoSnapshot:
    snapshot = RepoSnapshot()
    try:
        root, _ = await source.get(f"repos/{repo}/contents/")
    except NotFoundError:
        raise repo_not_found(repo) from None
    snapshot.top_level_dirs = sorted(e["name"] for e in root if e.get("type") == "dir")
    for path in paths:
        try:
            data, _ = await source.get(f"repos/{repo}/contents/{path}")
        except NotFoundError:
            snapshot.files[path] = None
            continue
        if not isinstance(data, dict) or data.get("encoding") != "base64":
            snapshot.files[path] = None  # a folder, or a file too large for the contents API
            continue
        raw = base64.b64decode(data.get("content") or "")
        try:
            snapshot.files[path] = raw.decode("utf-8")
        except UnicodeDecodeError:
            snapshot.files[path] = None
    return snapshot


# The labelling rules change rarely: commands read the stored copy (never GitHub), and
# `sync` and `serve` refresh it in the background once it is a day old. A failed refresh
# is not tried again for an hour, so an offline machine does not pay a timeout per sync.
SNAPSHOT_MAX_AGE = timedelta(hours=24)
RETRY_AFTER_FAILURE = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class Refresh:
    """What `refresh_repo_snapshot` did: kept a `fresh` copy, is `waiting` after a recent
    failure, `refreshed` it (`changed`: the rules differ from the stored ones) or `failed`."""

    repo: str
    state: Literal["fresh", "waiting", "refreshed", "failed"]
    changed: bool = False
    reason: str = ""


async def refresh_repo_snapshot(
    github: Callable[[], GitHubClient],
    repo: str,
    store: Store,
    *,
    now: datetime | None = None,
    max_age: timedelta = SNAPSHOT_MAX_AGE,
    retry_after: timedelta = RETRY_AFTER_FAILURE,
) -> Refresh:
    """Fetch `repo`'s labelling files and top-level folders into the store when the stored
    copy is older than `max_age` and no refresh failed in the last `retry_after`. `github`
    builds the client only when a request is due."""
    now = now or datetime.now(UTC)
    stored = await store.http_cache.snapshot(repo)
    if stored is not None and now - stored[1] < max_age:
        return Refresh(repo, "fresh")
    failure = await store.http_cache.snapshot_failure(repo)
    if failure is not None and now - failure.at < retry_after:
        return Refresh(repo, "waiting", reason=failure.reason)
    try:
        snapshot = await repo_snapshot(github(), repo, store=store)
    except GitHubError as exc:
        await store.http_cache.snapshot_failed(repo, str(exc))
        return Refresh(repo, "failed", reason=str(exc))
    await store.http_cache.put_snapshot(repo, snapshot)
    return Refresh(repo, "refreshed", changed=stored is None or stored[0] != snapshot)
