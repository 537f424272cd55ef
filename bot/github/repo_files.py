"""Repository files at HEAD and top-level folder names, for `modules = "auto"`.

With a token, one GraphQL request returns every asked file and the root tree; without one,
REST contents requests (conditional, through the store's http cache when given).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.core.errors import GitHubError, NotFoundError
from bot.github import queries as q
from bot.github.client import GitHubClient
from bot.github.graphql_source import split_repo
from bot.github.rest_source import RestSource
from bot.github.source import repo_not_found
from bot.store.store import Store

AUTO_MODULE_FILES = (".github/labeler.yml", ".github/mergify.yml")


@dataclass(slots=True)
class RepoSnapshot:
    files: dict[str, str | None] = field(default_factory=dict)  # path -> text, None: absent
    top_level_dirs: list[str] = field(default_factory=list)


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


# The labelling rules change rarely; re-reading them once a day keeps every `explain` and
# `pr` on an "auto" repository free of GitHub requests (and working offline).
SNAPSHOT_MAX_AGE = timedelta(hours=24)


async def cached_repo_snapshot(
    github: Callable[[], GitHubClient],
    repo: str,
    store: Store,
    *,
    offline: bool = False,
    max_age: timedelta = SNAPSHOT_MAX_AGE,
) -> RepoSnapshot | None:
    """`repo_snapshot` through the store: a fresh copy costs no request; a stale one is
    used when GitHub fails; None when offline (or failing) with no copy at all. `github`
    builds the client only when a request is due: a fresh copy, or an offline command, opens
    no HTTP client (its TLS context alone is ~30 ms of a digest's start)."""
    key = f"snapshot:{repo}"
    row = await store.http_cache.get(key)
    if row is not None and (offline or datetime.now(UTC) - row.fetched_at < max_age):
        return _decode(row.body)
    if offline:
        return None
    try:
        snapshot = await repo_snapshot(github(), repo, store=store)
    except GitHubError:
        if row is None:
            raise
        return _decode(row.body)
    body = json.dumps({"files": snapshot.files, "dirs": snapshot.top_level_dirs})
    await store.http_cache.put(key, "", body, None)
    return snapshot


def _decode(body: str) -> RepoSnapshot:
    data = json.loads(body)
    return RepoSnapshot(files=data["files"], top_level_dirs=data["dirs"])
