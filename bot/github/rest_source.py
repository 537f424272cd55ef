"""Merged PRs through the REST API, for users without a token (GraphQL needs one).

Costs one search request per 100 PRs plus, per PR, `pulls/{n}` and one `pulls/{n}/files`
request per 100 files. Every request is conditional (ETag / If-None-Match, bodies kept in the
store's http cache): a 304 costs GitHub nothing to serve and, with a token, nothing against
the rate limit; GitHub does count anonymous 304s, so the 60/hour limit still bites.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import httpx

from bot.core.errors import GitHubError, NotFoundError
from bot.core.messages import Text
from bot.core.models import FileChange, JSONValue, PullRequest
from bot.github import queries as q
from bot.github.client import GitHubClient, Query
from bot.github.source import (
    NullProgress,
    SearchPage,
    SyncProgress,
    fingerprint,
    parse_time,
    pr_not_found,
    repo_not_found,
)
from bot.store.store import Store

_NEXT = re.compile(r'<([^>]+)>;\s*rel="next"')
# REST file statuses, spelled as GraphQL's PatchStatus so both paths store the same values.
_CHANGE_TYPES = {
    "added": "ADDED",
    "removed": "DELETED",
    "modified": "MODIFIED",
    "renamed": "RENAMED",
    "copied": "COPIED",
    "changed": "CHANGED",
}
_LOGIN_OK = re.compile(r"^[A-Za-z0-9-]+$")


def next_link(link: str | None) -> str | None:
    match = _NEXT.search(link or "")
    return match[1] if match else None


class RestSource:
    def __init__(self, client: GitHubClient, store: Store | None) -> None:
        self.client = client
        self.store = store
        self.not_modified = 0  # 304 answers served from the store's cache
        self.reused = 0  # PRs of search results already stored at their current version
        self.reuse = True  # False (sync --force): ask for every PR again

    async def get(
        self, path_or_url: str, params: Query | None = None
    ) -> tuple[JSONValue, str | None]:
        """JSON body and Link header of a GET, sent conditionally when a cached copy exists."""
        url = path_or_url if "://" in path_or_url else f"{self.client.api_url}/{path_or_url}"
        key = str(httpx.URL(url, params=params) if params else httpx.URL(url))
        cached = await self.store.http_cache.get(key) if self.store else None
        headers = {"If-None-Match": cached.etag} if cached else None
        response = await self.client.rest(key, headers=headers)
        if response.status_code == 304:
            if cached is None:
                raise GitHubError(Text("error.github.not_modified", {"key": key}))
            self.not_modified += 1
            return json.loads(cached.body), cached.link
        link = response.headers.get("link")
        etag = response.headers.get("etag")
        if etag and self.store:
            await self.store.http_cache.put(key, etag, response.text, link)
        return response.json(), link

    async def search_page(
        self, repo: str, start: datetime, end: datetime, cursor: str | None
    ) -> SearchPage:
        if cursor:
            data, link = await self._search(repo, cursor, None)
        else:
            params: Query = {
                "q": q.merged_search(repo, start, end),
                "per_page": self.client.page_size,
            }
            data, link = await self._search(repo, "search/issues", params)
        return SearchPage(
            total=int(data.get("total_count", 0)), items=data["items"], next_cursor=next_link(link)
        )

    async def _search(
        self, repo: str, url: str, params: Query | None
    ) -> tuple[JSONValue, str | None]:
        try:
            return await self.get(url, params)
        except GitHubError as exc:
            # 422 "cannot be searched ... do not exist": the search API's way to say 404.
            if "cannot be searched" in str(exc) or "do not exist" in str(exc):
                raise repo_not_found(repo) from None
            raise

    async def _files(self, repo: str, number: int, progress: SyncProgress) -> list[FileChange]:
        files: list[FileChange] = []
        url: str | None = f"repos/{repo}/pulls/{number}/files"
        params: Query | None = {"per_page": 100}
        first = True
        while url:
            data, link = await self.get(url, params)
            files.extend(
                FileChange(
                    item["filename"],
                    item.get("additions") or 0,
                    item.get("deletions") or 0,
                    _CHANGE_TYPES.get(item.get("status", "")),
                )
                for item in data
            )
            if not first:
                progress.on_file_page()
            first = False
            url, params = next_link(link), None
        return files

    async def _pull(self, repo: str, number: int, progress: SyncProgress) -> PullRequest:
        try:
            data, _ = await self.get(f"repos/{repo}/pulls/{number}")
        except NotFoundError:
            raise pr_not_found(repo, number) from None
        merged_at = parse_time(data.get("merged_at"))
        return PullRequest(
            repo=repo,
            number=int(data["number"]),
            title=data.get("title") or "",
            url=data.get("html_url") or f"https://github.com/{repo}/pull/{number}",
            state="merged" if merged_at else ("open" if data.get("state") == "open" else "closed"),
            created_at=parse_time(data.get("created_at")) or datetime.now(UTC),
            body=data.get("body") or "",
            author=(data.get("user") or {}).get("login"),
            merged_at=merged_at,
            closed_at=parse_time(data.get("closed_at")),
            additions=data.get("additions") or 0,
            deletions=data.get("deletions") or 0,
            changed_files=data.get("changed_files") or 0,
            labels=[label["name"] for label in data.get("labels") or []],
            files=await self._files(repo, number, progress),
            # REST has no review count without one more request per PR; 60/hour is too
            # precious for it, so the REST path leaves it at 0.
            review_count=0,
            comment_count=data.get("comments") or 0,
            merged_by=(data.get("merged_by") or {}).get("login"),
            base_ref=(data.get("base") or {}).get("ref"),
            fetched_at=datetime.now(UTC),
        )

    async def _stored_current(
        self, repo: str, number: int, updated: str | None
    ) -> PullRequest | None:
        """The stored PR when it was fetched after its last update (nothing to ask)."""
        if self.store is None or not updated or not self.reuse:
            return None
        stored = await self.store.prs.get(repo, number)
        moment = parse_time(updated)
        if stored is None or stored.fetched_at is None or moment is None:
            return None
        return stored if stored.fetched_at >= moment and stored.merged_at else None

    async def complete(
        self, repo: str, page: SearchPage, progress: SyncProgress
    ) -> list[tuple[PullRequest, str | None]]:
        # Sequential on purpose: GitHub asks integrations not to send concurrent requests,
        # and anonymous clients are the first to meet secondary limits. Each PR is stored
        # the moment it is complete: at 60 requests an hour a page of 100 PRs (2 requests
        # each) spans several hours, and a rate limit must not lose what was fetched. A
        # re-run then asks only for the PRs not stored at their current version.
        done = []
        for item in page.items:
            number, updated = int(item["number"]), item.get("updated_at")
            pr = await self._stored_current(repo, number, updated)
            if pr is None:
                pr = await self._pull(repo, number, progress)
                if self.store is not None:
                    await self.store.prs.upsert([pr])
            else:
                self.reused += 1
            done.append((pr, updated))
        return done

    async def probe(self, repo: str, start: datetime, end: datetime) -> str:
        params: Query = {
            "q": q.merged_search(repo, start, end),
            "sort": "updated",
            "order": "desc",
            "per_page": 1,
        }
        data, _ = await self._search(repo, "search/issues", params)
        items = data.get("items") or []
        return fingerprint(
            int(data.get("total_count", 0)), items[0].get("updated_at") if items else None
        )

    async def pull_request(self, repo: str, number: int) -> PullRequest:
        return await self._pull(repo, number, NullProgress())

    async def merged_before(
        self, repo: str, logins: Sequence[str], before: datetime
    ) -> dict[str, datetime | None]:
        found: dict[str, datetime | None] = {}
        for login in logins:
            if not _LOGIN_OK.match(login or ""):
                continue
            params: Query = {"q": q.merged_before_search(repo, login, before), "per_page": 1}
            data, _ = await self._search(repo, "search/issues", params)
            items = data.get("items") or []
            merged = parse_time(
                ((items[0] if items else {}).get("pull_request") or {}).get("merged_at")
            )
            if data.get("total_count") and merged is None:
                merged = before - timedelta(seconds=1)
            found[login] = merged if data.get("total_count") else None
        return found
