"""Release tags, releases and comparisons through GitHub's REST API.

A comparison (`GET /repos/{o}/{r}/compare/{base}...{head}`) lists the commits reachable
from the head tag and not from the base, oldest first, 100 per page (`page=N`, Link
header). Tags and releases are listed 100 per page as well.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import quote

from bot.core.errors import GitHubError, NotFoundError
from bot.core.messages import Text
from bot.core.models import JSONValue
from bot.github.client import GitHubClient
from bot.github.rest_source import next_link
from bot.github.source import parse_time

PER_PAGE = 100


@dataclass(slots=True)
class Commit:
    sha: str
    message: str
    date: datetime | None


@dataclass(slots=True)
class Comparison:
    base: str
    head: str
    total: int  # total_commits as GitHub counts them
    commits: list[Commit]
    base_date: datetime | None
    pages: int
    # GitHub's "ahead" (the base is an ancestor of the head), "identical", "behind" or
    # "diverged" (it is not); None when not said.
    status: str | None = None


@dataclass(slots=True)
class Tags:
    names: list[str]
    release_urls: dict[str, str] = field(default_factory=dict)  # tag -> release page
    pages: int = 0


async def _pages(client: GitHubClient, path: str) -> tuple[list[JSONValue], int]:
    url: str | None = f"{path}?per_page={PER_PAGE}"
    items: list[JSONValue] = []
    pages = 0
    while url:
        response = await client.rest(url)
        pages += 1
        body = response.json()
        if not isinstance(body, list):
            raise GitHubError(Text("error.github.not_a_list", {"path": path}))
        items.extend(body)
        url = next_link(response.headers.get("link"))
    return items, pages


async def list_tags(client: GitHubClient, repo: str, *, releases: bool = True) -> Tags:
    """Every tag of `repo` and, with `releases`, the page of each published release
    (one more listing: the poll needs to know which tags are published)."""
    tags, tag_pages = await _pages(client, f"repos/{repo}/tags")
    published, release_pages = (
        await _pages(client, f"repos/{repo}/releases") if releases else ([], 0)
    )
    names = [str(t["name"]) for t in tags if isinstance(t, dict) and t.get("name")]
    urls = {}
    for release in published:
        if not isinstance(release, dict) or release.get("draft"):
            continue
        name = release.get("tag_name")
        if name:
            urls[str(name)] = str(release.get("html_url") or "")
            if name not in names:
                names.append(str(name))
    return Tags(names, urls, tag_pages + release_pages)


async def compare(client: GitHubClient, repo: str, base: str, head: str) -> Comparison:
    """The commits between two refs, every page followed."""
    path = f"repos/{repo}/compare/{quote(base, safe='')}...{quote(head, safe='')}"
    url: str | None = f"{path}?per_page={PER_PAGE}&page=1"
    commits: list[Commit] = []
    pages = 0
    total = 0
    base_date = None
    status = None
    while url:
        try:
            response = await client.rest(url)
        except NotFoundError:
            raise NotFoundError(
                Text("error.github.compare", {"base": base, "head": head, "repo": repo})
            ) from None
        pages += 1
        body = response.json()
        if pages == 1:
            status = body.get("status")
            total = int(body.get("total_commits") or 0)
            base_commit = (body.get("base_commit") or {}).get("commit") or {}
            base_date = parse_time((base_commit.get("committer") or {}).get("date"))
        for item in body.get("commits") or []:
            inner = item.get("commit") or {}
            commits.append(
                Commit(
                    str(item.get("sha") or ""),
                    str(inner.get("message") or ""),
                    parse_time((inner.get("committer") or {}).get("date")),
                )
            )
        url = next_link(response.headers.get("link"))
    return Comparison(base, head, total, commits, base_date, pages, str(status) if status else None)
