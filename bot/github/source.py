"""What the GraphQL and REST sources share: the source protocol, progress callbacks,
fingerprints and the window walk that splits searches over GitHub's 1,000-result cap."""

from __future__ import annotations

import itertools
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.core.errors import GitHubError, NotFoundError
from bot.core.messages import Text
from bot.core.models import JSON, PullRequest

# GitHub's search returns at most 1,000 results per query, whatever the page size.
SEARCH_CAP = 1000
# Aim sub-windows below the cap with room for uneven days, so one split level usually does.
SPLIT_TARGET = 800


def repo_not_found(repo: str) -> NotFoundError:
    return NotFoundError(Text("error.github.repo.not_found", {"repo": repo}))


def pr_not_found(repo: str, number: int) -> NotFoundError:
    # The number as a string: "#40123", not a grouped count.
    return NotFoundError(Text("error.github.pr.not_found", {"number": str(number), "repo": repo}))


class SyncProgress(Protocol):
    """What a sync reports while it runs; the CLI renders it as a rich progress bar."""

    def on_total(self, prs: int) -> None:
        """GitHub's count of merged PRs in the window (known after the first page)."""

    def on_page(self) -> None:
        """One search page arrived."""

    def on_prs(self, n: int) -> None:
        """`n` more PRs are complete (every file page arrived) and stored."""

    def on_file_page(self) -> None:
        """One extra page of a big PR's files arrived."""


class NullProgress:
    def on_total(self, prs: int) -> None:
        pass

    def on_page(self) -> None:
        pass

    def on_prs(self, n: int) -> None:
        pass

    def on_file_page(self) -> None:
        pass


@dataclass(slots=True)
class SearchPage:
    total: int  # GitHub's issueCount / total_count for the whole query (not capped)
    items: list[JSON]  # GitHub's nodes, turned into PullRequests by Source.complete
    next_cursor: str | None


class Source(Protocol):
    """One way into GitHub (GraphQL with a token, REST without)."""

    async def search_page(
        self, repo: str, start: datetime, end: datetime, cursor: str | None
    ) -> SearchPage: ...

    async def complete(
        self, repo: str, page: SearchPage, progress: SyncProgress
    ) -> list[tuple[PullRequest, str | None]]:
        """Full PRs of a page (remaining file pages fetched), each with its updatedAt."""
        ...

    async def probe(self, repo: str, start: datetime, end: datetime) -> str:
        """The window's fingerprint in one request."""
        ...

    async def pull_request(self, repo: str, number: int) -> PullRequest: ...

    async def merged_before(
        self, repo: str, logins: Sequence[str], before: datetime
    ) -> dict[str, datetime | None]:
        """Per login: the time of one merged PR before `before`, or None when there is none."""
        ...


def parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)


def fingerprint(count: int, newest_update: str | datetime | None) -> str:
    """`count|newest updatedAt`: equal fingerprints mean the stored window is still exact."""
    moment = parse_time(newest_update) if isinstance(newest_update, str) else newest_update
    stamp = moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if moment else "-"
    return f"{count}|{stamp}"


def split_window(start: datetime, end: datetime, count: int) -> list[tuple[datetime, datetime]]:
    """Sub-windows aligned to days, else hours (then minutes, seconds), sized so that each
    likely holds fewer than SPLIT_TARGET results; the caller recurses where one still does not.

    The coarsest unit that yields enough parts wins: a 10,000-PR week becomes 13 hour-aligned
    parts at once instead of 7 over-full days that would each cost a wasted page.
    """
    span = end - start
    needed = max(2, math.ceil(count / SPLIT_TARGET))
    if span <= timedelta(seconds=1):
        raise GitHubError(
            Text(
                "error.github.search.one_second",
                {"cap": SEARCH_CAP, "start": start.isoformat()},
            )
        )
    for unit in (timedelta(days=1), timedelta(hours=1), timedelta(minutes=1), timedelta(seconds=1)):
        units = math.ceil(span / unit)
        if units >= needed:
            break
    parts = min(units, needed)
    edges = [min(end, start + unit * round(i * units / parts)) for i in range(parts + 1)]
    edges[-1] = end
    return [(a, b) for a, b in itertools.pairwise(edges) if a < b]


@dataclass(slots=True)
class WindowFetch:
    count: int = 0  # unique PRs stored
    newest_update: datetime | None = None
    # (repo, number): a search over several repositories repeats numbers across them.
    numbers: set[tuple[str, int]] = field(default_factory=set)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.count, self.newest_update)


OnPRs = Callable[[list[PullRequest]], Awaitable[None]]


async def fetch_window(
    source: Source,
    repo: str,
    start: datetime,
    end: datetime,
    *,
    on_prs: OnPRs,
    progress: SyncProgress,
) -> WindowFetch:
    """Every merged PR of [start, end), handed to `on_prs` page by page once complete.

    Raises GitHubError when the window cannot be listed exactly; what was handed over until
    then is complete PR by PR, but the window as a whole is not.
    """
    result = WindowFetch()
    first = await source.search_page(repo, start, end, None)
    progress.on_page()
    progress.on_total(first.total)
    await _walk(source, repo, start, end, first, result, on_prs, progress)
    result.count = len(result.numbers)
    return result


async def _walk(
    source: Source,
    repo: str,
    start: datetime,
    end: datetime,
    first: SearchPage,
    result: WindowFetch,
    on_prs: OnPRs,
    progress: SyncProgress,
) -> None:
    if first.total > SEARCH_CAP:
        for sub_start, sub_end in split_window(start, end, first.total):
            page = await source.search_page(repo, sub_start, sub_end, None)
            progress.on_page()
            await _walk(source, repo, sub_start, sub_end, page, result, on_prs, progress)
        return
    # Results can shift between pages while PRs are merged or edited; a leaf whose pages do
    # not add up to its issueCount is listed once more before giving up.
    for attempt in range(2):
        page = first
        seen: set[tuple[str, int]] = set()
        while True:
            completed = await source.complete(repo, page, progress)
            prs = []
            for pr, updated in completed:
                if pr.merged_at is None or not (start <= pr.merged_at < end):
                    continue  # defensive: never store a PR outside the window it claims
                prs.append(pr)
                seen.add((pr.repo, pr.number))
                moment = parse_time(updated)
                if moment and (result.newest_update is None or moment > result.newest_update):
                    result.newest_update = moment
            if prs:
                await on_prs(prs)
                progress.on_prs(len(prs))
            if page.next_cursor is None:
                break
            page = await source.search_page(repo, start, end, page.next_cursor)
            progress.on_page()
        result.numbers |= seen
        if len(seen) == first.total:
            return
        if attempt == 0:
            first = await source.search_page(repo, start, end, None)
            progress.on_page()
    window = {"start": start.isoformat(), "end": end.isoformat()}
    raise GitHubError(
        Text(
            "error.github.search.moved",
            {"listed": len(seen), "total": first.total, **window},
        )
    )
