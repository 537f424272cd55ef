"""Merged PRs through GraphQL (needs a token): 100 PRs with their first 100 files per request,
remaining file pages of several PRs batched into one aliased request."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from bot.core.errors import GitHubError, NotFoundError
from bot.core.messages import Text
from bot.core.models import JSON, FileChange, PullRequest, pr_state
from bot.github import queries as q
from bot.github.client import GitHubClient
from bot.github.source import (
    NullProgress,
    SearchPage,
    SyncProgress,
    fingerprint,
    parse_time,
    pr_not_found,
    repo_not_found,
)

_LOGIN_OK = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


def split_repo(repo: str) -> tuple[str, str]:
    owner, _, name = repo.partition("/")
    if not owner or not name:
        raise GitHubError(Text("error.github.repo.bad", {"repo": repr(repo)}))
    return owner, name


def _files(connection: JSON | None) -> tuple[list[FileChange], str | None]:
    """Files of one page, and the cursor of the next page when there is one."""
    if not connection:
        return [], None
    files = [
        FileChange(
            node["path"],
            node.get("additions") or 0,
            node.get("deletions") or 0,
            node.get("changeType"),
        )
        for node in connection.get("nodes") or []
        if node
    ]
    info = connection.get("pageInfo") or {}
    return files, info.get("endCursor") if info.get("hasNextPage") else None


def parse_pr(repo: str, node: JSON) -> tuple[PullRequest, str | None]:
    """A PullRequest from a PRFields node, and the cursor of its next file page if any."""
    files, cursor = _files(node.get("files"))
    pr = PullRequest(
        repo=repo,
        number=int(node["number"]),
        title=node.get("title") or "",
        url=node.get("url") or f"https://github.com/{repo}/pull/{node['number']}",
        state=pr_state(node.get("state"), "open"),
        created_at=parse_time(node.get("createdAt")) or datetime.now(UTC),
        body=node.get("body") or "",
        author=(node.get("author") or {}).get("login"),
        merged_at=parse_time(node.get("mergedAt")),
        closed_at=parse_time(node.get("closedAt")),
        additions=node.get("additions") or 0,
        deletions=node.get("deletions") or 0,
        changed_files=node.get("changedFiles") or 0,
        labels=[label["name"] for label in (node.get("labels") or {}).get("nodes") or [] if label],
        files=files,
        review_count=(node.get("reviews") or {}).get("totalCount") or 0,
        comment_count=(node.get("comments") or {}).get("totalCount") or 0,
        merged_by=(node.get("mergedBy") or {}).get("login"),
        base_ref=node.get("baseRefName"),
        fetched_at=datetime.now(UTC),
    )
    return pr, cursor


def parse_search_page(search: JSON) -> SearchPage:
    """One page of a `search(type: ISSUE)` answer (one repository's or a scope's)."""
    info = search.get("pageInfo") or {}
    # Non-PR results come back as empty objects from the inline fragment; skip them.
    nodes = [node for node in search.get("nodes") or [] if node and "number" in node]
    return SearchPage(
        total=int(search["issueCount"]),
        items=nodes,
        next_cursor=info.get("endCursor") if info.get("hasNextPage") else None,
    )


class GraphQLSource:
    def __init__(self, client: GitHubClient) -> None:
        self.client = client

    async def _query(self, repo: str, document: str, variables: JSON) -> JSON:
        owner, name = split_repo(repo)
        try:
            return await self.client.graphql(document, {"owner": owner, "name": name, **variables})
        except NotFoundError as exc:
            if "repository" in str(exc).lower():
                raise repo_not_found(repo) from None
            raise

    async def search_page(
        self, repo: str, start: datetime, end: datetime, cursor: str | None
    ) -> SearchPage:
        data = await self._query(
            repo,
            q.SEARCH_MERGED,
            {
                "q": q.merged_search(repo, start, end),
                "first": self.client.page_size,
                "after": cursor,
            },
        )
        return parse_search_page(data["search"])

    async def complete(
        self, repo: str, page: SearchPage, progress: SyncProgress
    ) -> list[tuple[PullRequest, str | None]]:
        parsed = [(parse_pr(repo, node), node.get("updatedAt")) for node in page.items]
        prs = {pr.number: pr for (pr, _), _ in parsed}
        pending = {pr.number: cursor for (pr, cursor), _ in parsed if cursor}
        await self._more_files(repo, prs, pending, progress)
        return [(pr, updated) for (pr, _), updated in parsed]

    async def _more_files(
        self,
        repo: str,
        prs: dict[int, PullRequest],
        pending: dict[int, str],
        progress: SyncProgress,
    ) -> None:
        """Follow every file cursor; each round asks one more page of up to 10 PRs at once."""
        while pending:
            batch = list(pending.items())[: q.FILE_PAGES_PER_REQUEST]
            numbers = [number for number, _ in batch]
            data = await self._query(
                repo,
                q.files_pages_query(numbers),
                {f"c{i}": cursor for i, (_, cursor) in enumerate(batch)},
            )
            repository = data.get("repository") or {}
            for i, number in enumerate(numbers):
                node = repository.get(f"p{i}")
                if not node:
                    raise GitHubError(
                        Text("error.github.pr.no_files", {"number": str(number), "repo": repo})
                    )
                files, cursor = _files(node.get("files"))
                prs[number].files.extend(files)
                progress.on_file_page()
                if cursor:
                    pending[number] = cursor
                else:
                    del pending[number]

    async def pull_requests(self, repo: str, numbers: Sequence[int]) -> dict[int, PullRequest]:
        """Full records of `numbers`, 100 per request (aliased `pullRequest(number:)`), file
        lists beyond 100 paged as a search page's are. A number GitHub does not know is
        left out (an issue referenced as `(#N)`)."""
        found: dict[int, PullRequest] = {}
        wanted = list(dict.fromkeys(numbers))
        size = q.PULL_REQUESTS_PER_REQUEST
        for start in range(0, len(wanted), size):
            batch = wanted[start : start + size]
            data = await self._query(repo, q.pull_requests_query(batch), {})
            repository = data.get("repository") or {}
            pending: dict[int, str] = {}
            for i, number in enumerate(batch):
                node = repository.get(f"p{i}")
                if not node:
                    continue
                pr, cursor = parse_pr(repo, node)
                found[number] = pr
                if cursor:
                    pending[number] = cursor
            await self._more_files(repo, found, pending, NullProgress())
        return found

    async def probe(self, repo: str, start: datetime, end: datetime) -> str:
        data = await self._query(
            repo, q.PROBE_WINDOW, {"q": q.merged_search(repo, start, end, newest_update=True)}
        )
        search = data["search"]
        nodes = [node for node in search.get("nodes") or [] if node]
        return fingerprint(int(search["issueCount"]), nodes[0].get("updatedAt") if nodes else None)

    async def pull_request(self, repo: str, number: int) -> PullRequest:
        try:
            data = await self._query(repo, q.PULL_REQUEST, {"number": number})
        except NotFoundError as exc:
            if str(exc).startswith("repository "):  # the repo itself is missing: say so
                raise
            raise pr_not_found(repo, number) from None
        node = (data.get("repository") or {}).get("pullRequest")
        if not node:
            raise pr_not_found(repo, number)
        pr, cursor = parse_pr(repo, node)
        if cursor:
            await self._more_files(repo, {number: pr}, {number: cursor}, NullProgress())
        return pr

    async def merged_before(
        self, repo: str, logins: Sequence[str], before: datetime
    ) -> dict[str, datetime | None]:
        found = await self.merged_before_pairs([(repo, login) for login in logins], before)
        return {login: at for (_, login), at in found.items()}

    async def merged_before_pairs(
        self, pairs: Sequence[tuple[str, str]], before: datetime
    ) -> dict[tuple[str, str], datetime | None]:
        """`merged_before` for (repo, login) pairs of several repositories, 50 per request
        (an organisation digest asks about every repository's newcomers at once)."""
        # A login outside GitHub's alphabet (e.g. "app/x") would break the search syntax.
        pairs = [(repo, login) for repo, login in pairs if login and set(login) <= _LOGIN_OK]
        found: dict[tuple[str, str], datetime | None] = {}
        for i in range(0, len(pairs), q.AUTHORS_PER_REQUEST):
            chunk = pairs[i : i + q.AUTHORS_PER_REQUEST]
            data = await self.client.graphql(
                q.merged_before_query(len(chunk)),
                {
                    f"q{j}": q.merged_before_search(repo, login, before)
                    for j, (repo, login) in enumerate(chunk)
                },
            )
            for j, pair in enumerate(chunk):
                result = data.get(f"u{j}") or {}
                nodes = [node for node in result.get("nodes") or [] if node]
                merged = parse_time(nodes[0].get("mergedAt")) if nodes else None
                if result.get("issueCount", 0) and merged is None:
                    merged = before - timedelta(seconds=1)  # counted, not shown: still earlier
                found[pair] = merged
        return found
