"""Every GraphQL document the bot sends to GitHub, and the search qualifiers it builds.

Fields are the minimum the bot stores. Connection sizes are 100 (GitHub's maximum), so a
250-PR week is 3 search pages. Documents with a variable number of aliases (file pages of
several PRs, contributor checks, repository files) are generated here too, so
`tests/github/test_graphql_schema.py` can validate all of them against GitHub's schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

FILES_PER_PAGE = 100
# Aliased follow-ups per request: small enough that GitHub's 10 s query budget and response
# size stay comfortable (10 x 100 files), large enough to cover several big PRs at once.
FILE_PAGES_PER_REQUEST = 10
# Contributor checks per request; each alias is a tiny search (first: 1).
AUTHORS_PER_REQUEST = 50

RATE_LIMIT_FIELDS = "rateLimit { remaining resetAt cost }"

PR_FIELDS = """
fragment PRFields on PullRequest {
  number
  title
  body
  url
  state
  createdAt
  updatedAt
  mergedAt
  closedAt
  additions
  deletions
  changedFiles
  baseRefName
  author { login }
  mergedBy { login }
  labels(first: 100) { nodes { name } }
  files(first: 100) { ...FilesPage }
  reviews { totalCount }
  comments { totalCount }
}
"""

FILES_PAGE = """
fragment FilesPage on PullRequestChangedFileConnection {
  pageInfo { hasNextPage endCursor }
  nodes { path additions deletions changeType }
}
"""

# The repository field costs nothing extra and turns an unknown repository into a NOT_FOUND
# error instead of a silently empty search.
SEARCH_MERGED = (
    """
query SearchMergedPullRequests(
  $owner: String!, $name: String!, $q: String!, $first: Int = 100, $after: String
) {
  repository(owner: $owner, name: $name) { nameWithOwner }
  search(type: ISSUE, query: $q, first: $first, after: $after) {
    issueCount
    pageInfo { hasNextPage endCursor }
    nodes { ... on PullRequest { ...PRFields } }
  }
  """
    + RATE_LIMIT_FIELDS
    + "\n}\n"
    + PR_FIELDS
    + FILES_PAGE
)

# One request decides whether a stored window is still exact: the count plus the newest
# update (any edit, label or merge bumps updatedAt) make the fingerprint.
PROBE_WINDOW = (
    """
query ProbeWindow($owner: String!, $name: String!, $q: String!) {
  repository(owner: $owner, name: $name) { nameWithOwner }
  search(type: ISSUE, query: $q, first: 1) {
    issueCount
    nodes { ... on PullRequest { number updatedAt } }
  }
  """
    + RATE_LIMIT_FIELDS
    + "\n}\n"
)

PULL_REQUEST = (
    """
query PullRequestByNumber($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) { ...PRFields }
  }
  """
    + RATE_LIMIT_FIELDS
    + "\n}\n"
    + PR_FIELDS
    + FILES_PAGE
)


def files_pages_query(numbers: Sequence[int]) -> str:
    """The next file page of several PRs in one request: alias pN, cursor variable $cN."""
    if not numbers:
        raise ValueError("no pull requests to page")
    variables = ", ".join(f"$c{i}: String!" for i in range(len(numbers)))
    aliases = "\n    ".join(
        f"p{i}: pullRequest(number: {int(n)}) "
        f"{{ number files(first: {FILES_PER_PAGE}, after: $c{i}) {{ ...FilesPage }} }}"
        for i, n in enumerate(numbers)
    )
    return (
        f"query MorePullRequestFiles($owner: String!, $name: String!, {variables}) {{\n"
        f"  repository(owner: $owner, name: $name) {{\n    {aliases}\n  }}\n"
        f"  {RATE_LIMIT_FIELDS}\n}}\n" + FILES_PAGE
    )


def merged_before_query(count: int) -> str:
    """`count` aliased searches uN($qN): did this author have a merged PR before a date?"""
    if count <= 0:
        raise ValueError("no authors to check")
    variables = ", ".join(f"$q{i}: String!" for i in range(count))
    aliases = "\n  ".join(
        f"u{i}: search(type: ISSUE, query: $q{i}, first: 1) "
        "{ issueCount nodes { ... on PullRequest { mergedAt } } }"
        for i in range(count)
    )
    return f"query MergedBefore({variables}) {{\n  {aliases}\n  {RATE_LIMIT_FIELDS}\n}}\n"


def repo_files_query(count: int) -> str:
    """Texts of `count` files at HEAD (aliases fN, expressions $eN) and the top-level tree."""
    variables = "".join(f", $e{i}: String!" for i in range(count))
    aliases = "".join(
        f"\n    f{i}: object(expression: $e{i}) {{ ... on Blob {{ text isBinary }} }}"
        for i in range(count)
    )
    return (
        f"query RepositoryFiles($owner: String!, $name: String!{variables}) {{\n"
        f"  repository(owner: $owner, name: $name) {{{aliases}\n"
        '    root: object(expression: "HEAD:") { ... on Tree { entries { name type } } }\n'
        f"  }}\n  {RATE_LIMIT_FIELDS}\n}}\n"
    )


# Release PRs missing from the store, fetched by number: one request per 100 (aliases pN).
PULL_REQUESTS_PER_REQUEST = 100


def pull_requests_query(numbers: Sequence[int]) -> str:
    """Full PR records of several PRs by number in one request: alias pN."""
    if not numbers:
        raise ValueError("no pull requests to fetch")
    aliases = "\n    ".join(
        f"p{i}: pullRequest(number: {int(n)}) {{ ...PRFields }}" for i, n in enumerate(numbers)
    )
    return (
        "query PullRequestsByNumber($owner: String!, $name: String!) {\n"
        f"  repository(owner: $owner, name: $name) {{\n    {aliases}\n  }}\n"
        f"  {RATE_LIMIT_FIELDS}\n}}\n" + PR_FIELDS + FILES_PAGE
    )


# Several repositories in one search (`org:` or several `repo:` qualifiers): no single
# repository to check, so each node names its own.
SEARCH_MERGED_SCOPE = (
    """
query SearchMergedPullRequestsInScope($q: String!, $first: Int = 100, $after: String) {
  search(type: ISSUE, query: $q, first: $first, after: $after) {
    issueCount
    pageInfo { hasNextPage endCursor }
    nodes { ... on PullRequest { repository { nameWithOwner } ...PRFields } }
  }
  """
    + RATE_LIMIT_FIELDS
    + "\n}\n"
    + PR_FIELDS
    + FILES_PAGE
)


# ---------------------------------------------------------------------- search qualifiers


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def merged_range(start: datetime, end: datetime) -> str:
    """`merged:A..B` for the half-open window [start, end).

    GitHub's ranges are inclusive at both ends and its timestamps have whole seconds, so
    B is one second before `end`; a PR merged exactly at `end` belongs to the next window.
    """
    first = start.astimezone(UTC)
    if first.microsecond:
        first = first.replace(microsecond=0) + timedelta(seconds=1)
    last = end.astimezone(UTC).replace(microsecond=0)
    if last == end.astimezone(UTC):
        last -= timedelta(seconds=1)
    return f"merged:{_stamp(first)}..{_stamp(last)}"


def merged_search(repo: str, start: datetime, end: datetime, *, newest_update: bool = False) -> str:
    query = f"repo:{repo} is:pr is:merged {merged_range(start, end)}"
    return query + " sort:updated-desc" if newest_update else query


def merged_before_search(repo: str, login: str, before: datetime) -> str:
    return f"repo:{repo} is:pr is:merged author:{login} merged:<{_stamp(before)}"


def scope_qualifiers(
    repos: Sequence[str] = (), org: str | None = None, exclude: Sequence[str] = ()
) -> str:
    """The search scope of several repositories: GitHub ORs repeated `repo:` qualifiers;
    `org:` covers an organisation (public repositories only, `-repo:` leaves some out)."""
    if org:
        return " ".join([f"org:{org}", "is:public", *(f"-repo:{name}" for name in exclude)])
    if not repos:
        raise ValueError("a search scope needs repositories or an organisation")
    return " ".join(f"repo:{name}" for name in repos)


def merged_search_scope(scope: str, start: datetime, end: datetime) -> str:
    return f"{scope} is:pr is:merged {merged_range(start, end)}"
