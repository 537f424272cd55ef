"""Merged PRs of several repositories through one GraphQL search (`org:` or several `repo:`
qualifiers): the cost is one request per 100 PRs over all of them, plus the extra file pages,
instead of one sync per repository. Implements `Source`'s window walk for `fetch_window`,
where the `repo` argument is the search scope (see `queries.scope_qualifiers`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from bot.core.errors import GitHubError
from bot.core.messages import Text
from bot.core.models import PullRequest
from bot.github import queries as q
from bot.github.client import GitHubClient
from bot.github.graphql_source import GraphQLSource, parse_pr, parse_search_page
from bot.github.source import SearchPage, SyncProgress, parse_time


class ScopeSource:
    def __init__(self, client: GitHubClient) -> None:
        self.client = client
        self.single = GraphQLSource(client)
        # Per repository: the newest updatedAt seen, for each repository's window fingerprint.
        self.newest: dict[str, datetime] = {}

    async def search_page(
        self, scope: str, start: datetime, end: datetime, cursor: str | None
    ) -> SearchPage:
        data = await self.client.graphql(
            q.SEARCH_MERGED_SCOPE,
            {
                "q": q.merged_search_scope(scope, start, end),
                "first": self.client.page_size,
                "after": cursor,
            },
        )
        return parse_search_page(data["search"])

    async def complete(
        self, scope: str, page: SearchPage, progress: SyncProgress
    ) -> list[tuple[PullRequest, str | None]]:
        done: list[tuple[PullRequest, str | None]] = []
        by_repo: dict[str, dict[int, PullRequest]] = defaultdict(dict)
        pending: dict[str, dict[int, str]] = defaultdict(dict)
        for node in page.items:
            repository = node.get("repository") or {}
            repo = repository.get("nameWithOwner")
            if not repo:
                raise GitHubError(Text("error.github.search.no_repo"))
            pr, cursor = parse_pr(repo, node)
            by_repo[repo][pr.number] = pr
            if cursor:
                pending[repo][pr.number] = cursor
            updated = node.get("updatedAt")
            moment = parse_time(updated)
            if moment and (repo not in self.newest or moment > self.newest[repo]):
                self.newest[repo] = moment
            done.append((pr, updated))
        for repo, cursors in pending.items():
            # File pages are per repository (`repository(...) { pullRequest(...) }` aliases).
            await self.single._more_files(repo, by_repo[repo], cursors, progress)
        return done

    async def probe(self, scope: str, start: datetime, end: datetime) -> str:
        raise GitHubError(Text("error.github.search.scope_probe"))

    async def pull_request(self, repo: str, number: int) -> PullRequest:
        return await self.single.pull_request(repo, number)

    async def merged_before(
        self, repo: str, logins: Sequence[str], before: datetime
    ) -> dict[str, datetime | None]:
        return await self.single.merged_before(repo, logins, before)
