"""GitHub's GraphQL schema for the fake and the schema test, built once per process.

Building the 1.2 MB public schema takes seconds, so it is cached. Without ../shared the fake
still runs, executing against MINIMAL_SDL (only the fields the bot uses), but cannot
validate documents against the real schema.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import graphql

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SCHEMA_PATH = SHARED / "github" / "schema.graphql"

MINIMAL_SDL = """
scalar DateTime
scalar URI
enum SearchType { ISSUE REPOSITORY USER DISCUSSION }
enum PullRequestState { OPEN CLOSED MERGED }
enum PatchStatus { ADDED DELETED MODIFIED RENAMED COPIED CHANGED }
type PageInfo { hasNextPage: Boolean! endCursor: String }
interface Actor { login: String! }
type User implements Actor { login: String! }
type Label { name: String! }
type LabelConnection { nodes: [Label] totalCount: Int! }
type PullRequestChangedFile {
  path: String! additions: Int! deletions: Int! changeType: PatchStatus!
}
type PullRequestChangedFileConnection {
  pageInfo: PageInfo! nodes: [PullRequestChangedFile] totalCount: Int!
}
type CountConnection { totalCount: Int! }
type PullRequest {
  number: Int! title: String! body: String! url: URI! state: PullRequestState!
  createdAt: DateTime! updatedAt: DateTime! mergedAt: DateTime closedAt: DateTime
  additions: Int! deletions: Int! changedFiles: Int! baseRefName: String!
  author: Actor mergedBy: Actor repository: Repository!
  labels(first: Int, after: String): LabelConnection
  files(first: Int, after: String): PullRequestChangedFileConnection
  reviews(first: Int): CountConnection
  comments(first: Int): CountConnection!
}
type Issue { number: Int! }
union SearchResultItem = PullRequest | Issue
type SearchResultItemConnection {
  issueCount: Int! pageInfo: PageInfo! nodes: [SearchResultItem]
}
type Blob { text: String isBinary: Boolean }
type TreeEntry { name: String! type: String! }
type Tree { entries: [TreeEntry!] }
union GitObject = Blob | Tree
type Repository {
  nameWithOwner: String!
  pullRequest(number: Int!): PullRequest
  object(expression: String, oid: String): GitObject
}
type RateLimit { cost: Int! limit: Int! remaining: Int! resetAt: DateTime! used: Int! }
type Query {
  repository(owner: String!, name: String!): Repository
  search(type: SearchType!, query: String!, first: Int, after: String, last: Int,
         before: String): SearchResultItemConnection!
  rateLimit(dryRun: Boolean = false): RateLimit
  viewer: User!
}
"""


@cache
def github_schema() -> graphql.GraphQLSchema | None:
    """The public schema from ../shared, or None when it is absent."""
    if not SCHEMA_PATH.is_file():
        return None
    # The published SDL defines two Enterprise fields twice and deprecates some interface
    # fields inconsistently; graphql-core rejects both, nothing the bot uses touches them.
    return graphql.build_schema(
        SCHEMA_PATH.read_text(encoding="utf-8"), assume_valid_sdl=True, assume_valid=True
    )


@cache
def minimal_schema() -> graphql.GraphQLSchema:
    return graphql.build_schema(MINIMAL_SDL)


def validation_errors(document: str) -> list[str]:
    """Messages of every way `document` breaks GitHub's schema (empty when valid)."""
    schema = github_schema()
    if schema is None:
        raise RuntimeError(f"{SCHEMA_PATH} is absent")
    try:
        ast = graphql.parse(document)
    except graphql.GraphQLError as exc:
        return [exc.message]
    return [error.message for error in graphql.validate(schema, ast)]
