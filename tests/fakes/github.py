"""A fake GitHub on 127.0.0.1: GraphQL and the REST endpoints the bot uses, over real HTTP.

It follows GitHub's documented behaviour where the bot depends on it: 100-per-page cursors,
search's 1,000-result cap (issueCount stays true), inclusive `merged:A..B` ranges, files
pagination, rate-limit headers and budgets, secondary limits (403 + Retry-After, 429), 401 for
a bad token, GraphQL `errors`, ETags with 304 for conditional REST requests. Faults are
injected with `inject()`. Incoming GraphQL documents are validated against GitHub's public
schema when ../shared has it, then executed with graphql-core over in-memory `FakePR`s.

Usage (inside a test's event loop):

    async with FakeGitHub({"vllm-project/vllm": prs}) as fake:
        client = GitHubClient(token=fake.token, api_url=fake.api_url, ...)
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

import graphql
from aiohttp import web

from tests.fakes.gates import Gate
from tests.fakes.prdata import FakePR
from tests.fakes.schema import github_schema, minimal_schema

SEARCH_CAP = 1000
TOKEN = "ghp_fake_token_for_tests"


@dataclass
class FakeCommit:
    sha: str
    message: str  # a squash merge's first line ends with "(#N)"
    date: datetime


@dataclass
class FakeTag:
    """A tag and the history it points at (oldest commit first): a comparison lists the
    head's commits the base's history does not hold, as GitHub's compare does."""

    name: str
    commits: list[FakeCommit]
    release: bool = True  # published as a GitHub release (listed by /releases)
    draft: bool = False
    prerelease: bool = False


def release_event(repo: str, tag: str, action: str = "published") -> dict[str, Any]:
    """The body of GitHub's `release` webhook for `tag` (X-GitHub-Event: release)."""
    return {
        "action": action,
        "release": {
            "tag_name": tag,
            "html_url": f"https://github.com/{repo}/releases/tag/{tag}",
            "draft": False,
            "prerelease": "rc" in tag,
            "published_at": "2026-06-12T12:57:08Z",
        },
        "repository": {"full_name": repo},
    }


def stamp(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if moment else None


@dataclass
class Fault:
    """One injected misbehaviour. It skips `after` matching requests, then fires `times` times."""

    status: int = 502
    retry_after: float | None = None
    remaining: int | None = None  # rate-limit header override, e.g. 0 for a primary limit
    reset_in: float | None = None  # seconds until X-RateLimit-Reset, with `remaining`
    delay: float = 0.0  # answer this late (client timeouts); then behave normally
    graphql_errors: list[dict[str, Any]] | None = None  # 200 with these errors
    message: str = "Server Error"
    times: float = 1
    after: int = 0
    match: str | None = None  # substring of the path or GraphQL operation name


@dataclass
class Logged:
    method: str
    path: str
    operation: str | None  # GraphQL operation name, or the REST path
    status: int = 0
    conditional: bool = False
    variables: dict[str, Any] | None = None  # a GraphQL request's variables


@dataclass
class Budget:
    limit: int
    remaining: int
    reset: int

    @property
    def used(self) -> int:
        return self.limit - self.remaining


class SearchError(Exception):
    pass


class GitHubGraphQLError(Exception):
    """Raised by resolvers; `kind` becomes the error's top-level "type", as GitHub sends it."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


# ------------------------------------------------------------------ search query language

_RANGE = re.compile(r"^(?P<op>>=|<=|>|<)?(?P<a>[^.]+?)(?:\.\.(?P<b>.+))?$")


def _bound(text: str, *, upper: bool) -> datetime | None:
    """A qualifier bound: a date covers its whole day; a datetime is exact."""
    if text == "*":
        return None
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if "T" not in text:
        moment = moment.replace(tzinfo=UTC)
        return moment + timedelta(days=1) - timedelta(microseconds=1) if upper else moment
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment


def _date_filter(spec: str) -> Callable[[datetime | None], bool]:
    match = _RANGE.match(spec)
    if not match:
        raise SearchError(f"cannot parse date qualifier {spec!r}")
    op, a, b = match["op"], match["a"], match["b"]
    if b is not None:
        low, high = _bound(a, upper=False), _bound(b, upper=True)
    elif op in (">", ">="):
        low, high = _bound(a, upper=op == ">"), None
        if op == ">":
            low = low + timedelta(microseconds=1) if low else None
    elif op in ("<", "<="):
        low, high = None, _bound(a, upper=op == "<=")
        if op == "<" and high:
            high -= timedelta(microseconds=1)
    else:
        low, high = _bound(a, upper=False), _bound(a, upper=True)

    def keep(value: datetime | None) -> bool:
        if value is None:
            return False
        return (low is None or value >= low) and (high is None or value <= high)

    return keep


_UNSEARCHABLE = (
    "The listed users and repositories cannot be searched either because the "
    "resources do not exist or you do not have permission to view them."
)


def search_scope(
    repos: dict[str, list[FakePR]], query: str, sort: str | None = None
) -> list[tuple[str, FakePR]]:
    """Every (repo, PR) matching `query` (uncapped), in GitHub's order.

    Scope qualifiers as GitHub documents them: repeated `repo:` qualifiers are ORed,
    `org:` (and `user:`) covers an owner's repositories, `-repo:` excludes one, `is:public`
    keeps public repositories (every fake repository is public). A scope naming nothing
    that exists is GitHub's 422 "cannot be searched"."""
    wanted: list[str] = []
    owners: list[str] = []
    excluded: set[str] = set()
    filters: list[Callable[[FakePR], bool]] = []
    for token in query.split():
        key, _, value = token.partition(":")
        if key == "repo":
            wanted.append(value)
        elif key in ("org", "user"):
            owners.append(value.lower())
        elif key == "-repo":
            excluded.add(value.lower())
        elif token in ("is:pr", "is:public"):
            pass
        elif token == "is:merged":
            filters.append(lambda pr: pr.merged_at is not None)
        elif token == "is:open":
            filters.append(lambda pr: pr.state == "OPEN")
        elif key == "author":
            filters.append(lambda pr, login=value: (pr.author or "").lower() == login.lower())
        elif key in ("merged", "created", "updated", "closed"):
            attr = {"merged": "merged_at", "created": "created_at"}.get(key, f"{key}_at")
            keep = _date_filter(value)
            filters.append(lambda pr, keep=keep, attr=attr: keep(getattr(pr, attr)))
        elif key == "sort":
            sort = value
        else:
            # GitHub would treat it as free text; the bot never sends any, so flag it loudly.
            raise SearchError(f"fake GitHub does not understand {token!r}")
    scope = [name for name in wanted if name in repos]
    if wanted and not scope:
        raise SearchError(_UNSEARCHABLE)
    owned = [name for name in repos if name.split("/")[0].lower() in owners]
    if owners and not any(name.split("/")[0].lower() in owners for name in repos):
        raise SearchError(_UNSEARCHABLE)
    if not wanted and not owners:
        raise SearchError(_UNSEARCHABLE)
    names = [n for n in dict.fromkeys([*scope, *owned]) if n.lower() not in excluded]
    found = [(name, pr) for name in names for pr in repos[name] if all(f(pr) for f in filters)]
    field_name, _, order = (sort or "created-desc").partition("-")
    attr = {"updated": "updated_at", "created": "created_at"}.get(field_name)
    if attr is None:
        raise SearchError(f"fake GitHub cannot sort by {sort!r}")
    found.sort(key=lambda hit: (getattr(hit[1], attr), hit[1].number), reverse=order != "asc")
    return found


def search(
    repos: dict[str, list[FakePR]], query: str, sort: str | None = None
) -> tuple[str, list[FakePR]]:
    """The repo and every PR matching a single-repository `query` (uncapped)."""
    hits = search_scope(repos, query, sort)
    repo = next((t.partition(":")[2] for t in query.split() if t.startswith("repo:")), "")
    return repo, [pr for _, pr in hits]


def _cursor(index: int) -> str:
    return base64.b64encode(f"cursor:{index}".encode()).decode()


def _offset(after: str | None) -> int:
    if not after:
        return 0
    try:
        return int(base64.b64decode(after).decode().split(":")[1]) + 1
    except (ValueError, IndexError):
        raise GitHubGraphQLError(
            f"`{after}` does not appear to be a valid cursor.", "INVALID_CURSOR_ARGUMENTS"
        ) from None


def _page(items: list, first: int | None, after: str | None) -> tuple[list, int, bool]:
    if first is None or not 0 <= first <= 100:
        raise GitHubGraphQLError(
            "Requesting more than 100 records or none at all is not allowed", "ARGUMENT_LIMIT"
        )
    start = _offset(after)
    chunk = items[start : start + first]
    return chunk, start, start + first < len(items)


def _connection(items: list, first: int | None, after: str | None, node: Callable) -> dict:
    chunk, start, more = _page(items, first, after)
    return {
        "totalCount": len(items),
        "pageInfo": {
            "hasNextPage": more,
            "endCursor": _cursor(start + len(chunk) - 1) if chunk else None,
        },
        "nodes": [node(item) for item in chunk],
    }


# ------------------------------------------------------------------ a small executor


class _Execution:
    """Executes a validated document over plain dicts (callables take the field arguments).

    graphql-core's executor spends ~30 us per field; a 100-PR page has thousands, which made
    the suite slow. Validation still uses graphql-core and GitHub's schema, so this only has
    to follow selections: fields, aliases, arguments, variables (with defaults), inline
    fragments and fragment spreads. Resolver errors null the field and add a GitHub-style
    error entry, as GitHub does.
    """

    def __init__(self, ast: graphql.DocumentNode, variables: dict[str, Any]) -> None:
        self.fragments = {
            d.name.value: d
            for d in ast.definitions
            if isinstance(d, graphql.FragmentDefinitionNode)
        }
        self.operation = next(
            d for d in ast.definitions if isinstance(d, graphql.OperationDefinitionNode)
        )
        self.variables = dict(variables)
        for definition in self.operation.variable_definitions or ():
            name = definition.variable.name.value
            if name not in self.variables and definition.default_value is not None:
                self.variables[name] = graphql.value_from_ast_untyped(definition.default_value)
        self.errors: list[dict[str, Any]] = []

    def run(self, root: dict[str, Any]) -> dict[str, Any]:
        data = self._select(root, self.operation.selection_set, [])
        body: dict[str, Any] = {"data": data}
        if self.errors:
            body["errors"] = self.errors
        return body

    def _matches(self, value: dict[str, Any], condition: graphql.NamedTypeNode | None) -> bool:
        typename = value.get("__typename")
        return condition is None or typename is None or typename == condition.name.value

    def _select(self, value: Any, selection_set: Any, path: list) -> Any:
        if value is None or selection_set is None:
            return value
        if isinstance(value, list):
            return [self._select(item, selection_set, [*path, i]) for i, item in enumerate(value)]
        out: dict[str, Any] = {}
        for selection in selection_set.selections:
            if isinstance(selection, graphql.FieldNode):
                name = selection.name.value
                key = selection.alias.value if selection.alias else name
                if name == "__typename":
                    out[key] = value.get("__typename")
                    continue
                raw = value.get(name)
                if callable(raw):
                    args = {
                        a.name.value: graphql.value_from_ast_untyped(a.value, self.variables)
                        for a in selection.arguments or ()
                    }
                    try:
                        raw = raw(None, **args)
                    except GitHubGraphQLError as exc:
                        self.errors.append(
                            {"type": exc.kind, "path": [*path, key], "message": str(exc)}
                        )
                        out[key] = None
                        continue
                out[key] = self._select(raw, selection.selection_set, [*path, key])
            elif isinstance(selection, graphql.InlineFragmentNode):
                if self._matches(value, selection.type_condition):
                    out.update(self._select(value, selection.selection_set, path))
            elif isinstance(selection, graphql.FragmentSpreadNode):
                fragment = self.fragments[selection.name.value]
                if self._matches(value, fragment.type_condition):
                    out.update(self._select(value, fragment.selection_set, path))
        return out


# ------------------------------------------------------------------ the server


class FakeGitHub:
    def __init__(
        self,
        repos: dict[str, list[FakePR]] | None = None,
        *,
        token: str = TOKEN,
        limit: int = 5000,
        anonymous_limit: int = 60,
        files: dict[str, dict[str, str]] | None = None,
        tags: dict[str, list[FakeTag]] | None = None,
    ) -> None:
        self.repos: dict[str, list[FakePR]] = {k: list(v) for k, v in (repos or {}).items()}
        self.tags: dict[str, list[FakeTag]] = {k: list(v) for k, v in (tags or {}).items()}
        self.token = token
        self.viewer_login = "vllm-bot"  # GraphQL `viewer { login }` for the token
        self.repo_files: dict[str, dict[str, str]] = files or {}
        self.faults: list[Fault] = []
        self.holds: list[tuple[str | None, Gate]] = []  # not yet reached
        self.gates: list[Gate] = []  # every hold, reached or not
        self.log: list[Logged] = []
        reset = int(time.time()) + 3600
        self.budgets = {
            "graphql": Budget(limit, limit, reset),
            "core": Budget(limit, limit, reset),
            "anonymous": Budget(anonymous_limit, anonymous_limit, reset),
        }
        self._closing = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> FakeGitHub:
        app = web.Application()
        app.router.add_post("/graphql", self._graphql)
        app.router.add_get("/rate_limit", self._rest_rate_limit)
        app.router.add_get("/search/issues", self._rest_search)
        app.router.add_get("/repos/{owner}/{name}/pulls/{number}", self._rest_pull)
        app.router.add_get("/repos/{owner}/{name}/pulls/{number}/files", self._rest_files)
        app.router.add_get("/repos/{owner}/{name}/contents/{path:.*}", self._rest_contents)
        app.router.add_get("/repos/{owner}/{name}/tags", self._rest_tags)
        app.router.add_get("/repos/{owner}/{name}/releases", self._rest_releases)
        app.router.add_get("/repos/{owner}/{name}/compare/{basehead}", self._rest_compare)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # ephemeral port chosen by the OS
        return self

    async def close(self) -> None:
        self._closing.set()  # releases slow responses at once
        if self._runner:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeGitHub:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def graphql_url(self) -> str:
        return f"{self.api_url}/graphql"

    # ---------------------------------------------------------------- test helpers

    def inject(self, **kwargs: Any) -> Fault:
        fault = Fault(**kwargs)
        self.faults.append(fault)
        return fault

    def hold(self, match: str | None = None) -> Gate:
        """Hold the next request matching `match` (a substring of the path, or the GraphQL
        operation name; None: any) until the gate is released: GitHub "in flight"."""
        gate = Gate(nth=1, after=False)
        self.holds.append((match, gate))
        self.gates.append(gate)
        return gate

    def requests(self, operation: str | None = None) -> list[Logged]:
        return [r for r in self.log if operation is None or r.operation == operation]

    def touch(self, repo: str, number: int, **changes: Any) -> None:
        """Edit a PR the way GitHub would: any change bumps updatedAt."""
        pr = next(p for p in self.repos[repo] if p.number == number)
        for key, value in changes.items():
            setattr(pr, key, value)
        pr.updated_at = max(pr.updated_at, datetime.now(UTC).replace(microsecond=0))

    # ---------------------------------------------------------------- plumbing

    def _identity(self, request: web.Request) -> tuple[str | None, web.Response | None]:
        header = request.headers.get("Authorization")
        if header is None:
            return None, None
        scheme, _, value = header.partition(" ")
        if scheme.lower() not in ("bearer", "token") or value != self.token:
            return None, self._json({"message": "Bad credentials"}, 401)
        return value, None

    def _budget(self, request: web.Request, token: str | None) -> tuple[str, Budget]:
        if request.path == "/graphql":
            return "graphql", self.budgets["graphql"]
        return "core", self.budgets["core" if token else "anonymous"]

    @staticmethod
    def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
        return web.Response(
            text=json.dumps(data),
            status=status,
            headers=headers or {},
            content_type="application/json",
        )

    def _rate_headers(self, resource: str, budget: Budget) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(budget.limit),
            "X-RateLimit-Remaining": str(budget.remaining),
            "X-RateLimit-Reset": str(budget.reset),
            "X-RateLimit-Used": str(budget.used),
            "X-RateLimit-Resource": resource,
        }

    def _fault_for(self, entry: Logged) -> Fault | None:
        for fault in self.faults:
            if fault.times <= 0:
                continue
            if fault.match and fault.match not in entry.path and fault.match != entry.operation:
                continue
            if fault.after > 0:
                fault.after -= 1
                continue
            fault.times -= 1
            return fault
        return None

    async def _handle(
        self,
        request: web.Request,
        operation: str | None,
        answer: Callable[[str | None], Any],
        variables: dict[str, Any] | None = None,
    ) -> web.Response:
        entry = Logged(
            request.method,
            request.path,
            operation or request.path,
            conditional="If-None-Match" in request.headers,
            variables=variables,
        )
        self.log.append(entry)
        for held in self.holds:
            match, gate = held
            if match is None or match in entry.path or match == entry.operation:
                self.holds.remove(held)
                await gate.pause()
                break
        response = await self._respond(request, entry, answer)
        entry.status = response.status
        return response

    async def _respond(
        self, request: web.Request, entry: Logged, answer: Callable[[str | None], Any]
    ) -> web.Response:
        token, denied = self._identity(request)
        if denied:
            return denied
        if request.path == "/graphql" and token is None:
            return self._json({"message": "This endpoint requires you to be authenticated."}, 401)
        resource, budget = self._budget(request, token)
        if budget.remaining <= 0:
            headers = self._rate_headers(resource, budget)
            if resource == "graphql":
                return self._json(
                    {
                        "errors": [
                            {
                                "type": "RATE_LIMITED",
                                "message": "API rate limit already exceeded for user ID 1.",
                            }
                        ]
                    },
                    200,
                    headers,
                )
            return self._json({"message": "API rate limit exceeded"}, 403, headers)
        fault = self._fault_for(entry)
        if fault and fault.delay:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), fault.delay)
        budget.remaining -= 1
        headers = self._rate_headers(resource, budget)
        if fault and not fault.delay:
            if fault.remaining is not None:
                headers["X-RateLimit-Remaining"] = str(fault.remaining)
                if fault.reset_in is not None:
                    headers["X-RateLimit-Reset"] = str(int(time.time() + fault.reset_in))
            if fault.retry_after is not None:
                headers["Retry-After"] = str(fault.retry_after)
            if fault.graphql_errors is not None:
                return self._json({"data": None, "errors": fault.graphql_errors}, 200, headers)
            return self._json({"message": fault.message}, fault.status, headers)
        try:
            result = answer(token)
        except web.HTTPException as exc:
            return self._json({"message": exc.reason}, exc.status, headers)
        if isinstance(result, web.Response):
            result.headers.update(headers)
            return result
        return self._json(result, 200, headers)

    # ---------------------------------------------------------------- GraphQL

    async def _graphql(self, request: web.Request) -> web.Response:
        try:
            payload = await request.json()
        except ValueError:
            return self._json({"message": "Problems parsing JSON"}, 400)
        document = payload.get("query") or ""
        try:
            ast = graphql.parse(document)
        except graphql.GraphQLError as exc:
            error = {"errors": [{"message": exc.message}]}
            return await self._handle(request, None, lambda _: error)
        operation = next(
            (
                d.name.value
                for d in ast.definitions
                if isinstance(d, graphql.OperationDefinitionNode) and d.name
            ),
            None,
        )
        variables = payload.get("variables") or {}
        return await self._handle(
            request, operation, lambda _: self._execute(ast, variables), variables
        )

    def _execute(self, ast: graphql.DocumentNode, variables: dict[str, Any]) -> dict:
        schema = github_schema() or minimal_schema()
        errors = graphql.validate(schema, ast)
        if errors:
            return {"errors": [{"message": e.message, "type": "INVALID"} for e in errors]}
        return _Execution(ast, variables).run(self._root())

    def _root(self) -> dict[str, Any]:
        budget = self.budgets["graphql"]
        return {
            "repository": self._gql_repository,
            "search": self._gql_search,
            "viewer": {"__typename": "User", "login": self.viewer_login},
            "rateLimit": lambda info, **_: {
                "cost": 1,
                "limit": budget.limit,
                "remaining": budget.remaining,
                "used": budget.used,
                "resetAt": stamp(datetime.fromtimestamp(budget.reset, UTC)),
                "nodeCount": 0,
            },
        }

    def _gql_repository(self, info: Any, owner: str, name: str, **_: Any) -> dict:
        repo = f"{owner}/{name}"
        if repo not in self.repos:
            raise GitHubGraphQLError(
                f"Could not resolve to a Repository with the name '{repo}'.", "NOT_FOUND"
            )
        prs = {pr.number: pr for pr in self.repos[repo]}

        def pull_request(info: Any, number: int) -> dict:
            if number not in prs:
                raise GitHubGraphQLError(
                    f"Could not resolve to a PullRequest with the number of {number}.", "NOT_FOUND"
                )
            return self._gql_pr(repo, prs[number])

        return {
            "__typename": "Repository",
            "nameWithOwner": repo,
            "pullRequest": pull_request,
            "object": lambda info, expression=None, **_: self._gql_object(repo, expression),
        }

    def _gql_object(self, repo: str, expression: str | None) -> dict | None:
        ref, _, path = (expression or "").partition(":")
        if ref != "HEAD":
            return None
        files = self.repo_files.get(repo, {})
        if path == "":
            names = sorted({p.split("/")[0] for p in files})
            entries = [
                {"name": n, "type": "blob" if n in files else "tree", "__typename": "TreeEntry"}
                for n in names
            ]
            return {"__typename": "Tree", "entries": entries}
        if path in files:
            return {"__typename": "Blob", "text": files[path], "isBinary": False}
        return None

    def _gql_search(
        self,
        info: Any,
        query: str,
        type: str,
        first: int | None = None,
        after: str | None = None,
        **_: Any,
    ) -> dict:
        try:
            found = search_scope(self.repos, query)
        except SearchError as exc:
            # GitHub answers an unsearchable repo with an empty result, not an error.
            if "cannot be searched" in str(exc):
                return {
                    "issueCount": 0,
                    "pageInfo": {"hasNextPage": False, "endCursor": None},
                    "nodes": [],
                }
            raise GitHubGraphQLError(str(exc), "INVALID") from None
        visible = found[:SEARCH_CAP]
        connection = _connection(visible, first, after, lambda hit: self._gql_pr(*hit))
        return {
            "issueCount": len(found),
            "pageInfo": connection["pageInfo"],
            "nodes": connection["nodes"],
        }

    def _gql_pr(self, repo: str, pr: FakePR) -> dict:
        def actor(login: str | None) -> dict | None:
            return {"__typename": "User", "login": login} if login else None

        def files(info: Any, first: int | None = None, after: str | None = None, **_: Any):
            return _connection(
                pr.files,
                first,
                after,
                lambda f: {
                    "path": f.path,
                    "additions": f.additions,
                    "deletions": f.deletions,
                    "changeType": f.change_type,
                },
            )

        def labels(info: Any, first: int | None = None, after: str | None = None, **_: Any):
            return _connection(pr.labels, first, after, lambda name: {"name": name})

        return {
            "__typename": "PullRequest",
            "repository": {"__typename": "Repository", "nameWithOwner": repo},
            "number": pr.number,
            "title": pr.title,
            "body": pr.body,
            "url": f"https://github.com/{repo}/pull/{pr.number}",
            "state": pr.state,
            "createdAt": stamp(pr.created_at),
            "updatedAt": stamp(pr.updated_at),
            "mergedAt": stamp(pr.merged_at),
            "closedAt": stamp(pr.closed_at),
            "additions": pr.additions,
            "deletions": pr.deletions,
            "changedFiles": pr.changed_files,
            "baseRefName": pr.base_ref,
            "author": actor(pr.author),
            "mergedBy": actor(pr.merged_by),
            "labels": labels,
            "files": files,
            "reviews": lambda info, **_: {"totalCount": pr.reviews},
            "comments": lambda info, **_: {"totalCount": pr.comments},
        }

    # ---------------------------------------------------------------- REST

    def _conditional(
        self, request: web.Request, token: str | None, data: Any, link: str | None = None
    ) -> web.Response:
        body = json.dumps(data)
        etag = f'W/"{hashlib.sha1(body.encode()).hexdigest()}"'
        headers = {"ETag": etag}
        if link:
            headers["Link"] = link
        if request.headers.get("If-None-Match") == etag:
            if token:
                # GitHub does not count a 304 against an authenticated client's budget.
                self.budgets["core"].remaining += 1
            return web.Response(status=304, headers=headers)
        return web.Response(text=body, headers=headers, content_type="application/json")

    def _link(self, request: web.Request, page: int, last: int) -> str | None:
        if page >= last:
            return None
        params = dict(request.query)
        links = []
        for rel, number in (("next", page + 1), ("last", last)):
            params["page"] = str(number)
            links.append(f'<{self.api_url}{request.path}?{urlencode(params)}>; rel="{rel}"')
        return ", ".join(links)

    def _rest_pr(self, repo: str, pr: FakePR) -> dict:
        return {
            "number": pr.number,
            "title": pr.title,
            "body": pr.body,
            "html_url": f"https://github.com/{repo}/pull/{pr.number}",
            "state": "open" if pr.state == "OPEN" else "closed",
            "user": {"login": pr.author} if pr.author else None,
            "labels": [{"name": n} for n in pr.labels],
            "created_at": stamp(pr.created_at),
            "updated_at": stamp(pr.updated_at),
            "closed_at": stamp(pr.closed_at),
            "merged_at": stamp(pr.merged_at),
            "comments": pr.comments,
            "additions": pr.additions,
            "deletions": pr.deletions,
            "changed_files": pr.changed_files,
            "merged_by": {"login": pr.merged_by} if pr.merged_by else None,
            "base": {"ref": pr.base_ref},
        }

    @staticmethod
    def _paging(request: web.Request, default: int = 30) -> tuple[int, int]:
        per_page = min(100, int(request.query.get("per_page", default)))
        return per_page, max(1, int(request.query.get("page", 1)))

    def _find(self, request: web.Request) -> tuple[str, FakePR]:
        repo = f"{request.match_info['owner']}/{request.match_info['name']}"
        number = int(request.match_info["number"])
        for pr in self.repos.get(repo, []):
            if pr.number == number:
                return repo, pr
        raise web.HTTPNotFound(reason="Not Found")

    async def _rest_rate_limit(self, request: web.Request) -> web.Response:
        """GET /rate_limit: every budget of the caller; free, as on GitHub (it does not
        count against the limit), but a bad token is still 401."""
        token, denied = self._identity(request)
        self.log.append(Logged(request.method, request.path, "rate_limit"))
        if denied:
            self.log[-1].status = 401
            return denied

        def shape(budget: Budget) -> dict[str, int]:
            return {
                "limit": budget.limit,
                "remaining": budget.remaining,
                "reset": budget.reset,
                "used": budget.used,
            }

        core = shape(self.budgets["core" if token else "anonymous"])
        graphql_budget = shape(self.budgets["graphql"]) if token else shape(Budget(0, 0, 0))
        self.log[-1].status = 200
        return self._json(
            {"resources": {"core": core, "graphql": graphql_budget, "search": core}, "rate": core}
        )

    async def _rest_search(self, request: web.Request) -> web.Response:
        def answer(token: str | None) -> Any:
            sort = request.query.get("sort")
            order = request.query.get("order", "desc")
            try:
                found = search_scope(
                    self.repos, request.query.get("q", ""), f"{sort}-{order}" if sort else None
                )
            except SearchError as exc:
                return self._json(
                    {
                        "message": "Validation Failed",
                        "errors": [
                            {
                                "message": str(exc),
                                "resource": "Search",
                                "field": "q",
                                "code": "invalid",
                            }
                        ],
                    },
                    422,
                )
            per_page, page = self._paging(request)
            if page * per_page > SEARCH_CAP and (page - 1) * per_page >= SEARCH_CAP:
                return self._json(
                    {"message": "Only the first 1000 search results are available"}, 422
                )
            visible = found[:SEARCH_CAP]
            chunk = visible[(page - 1) * per_page : page * per_page]
            items = []
            for repo, pr in chunk:
                item = self._rest_pr(repo, pr)
                item["pull_request"] = {"merged_at": stamp(pr.merged_at)}
                for key in ("additions", "deletions", "changed_files", "merged_by", "base"):
                    item.pop(key)  # search results are issues: no PR details
                items.append(item)
            data = {"total_count": len(found), "incomplete_results": False, "items": items}
            last = max(1, math.ceil(len(visible) / per_page))
            return self._conditional(request, token, data, self._link(request, page, last))

        return await self._handle(request, "search/issues", answer)

    async def _rest_pull(self, request: web.Request) -> web.Response:
        def answer(token: str | None) -> Any:
            repo, pr = self._find(request)
            return self._conditional(request, token, self._rest_pr(repo, pr))

        return await self._handle(request, "pulls", answer)

    async def _rest_files(self, request: web.Request) -> web.Response:
        statuses = {
            "ADDED": "added",
            "DELETED": "removed",
            "MODIFIED": "modified",
            "RENAMED": "renamed",
            "COPIED": "copied",
            "CHANGED": "changed",
        }

        def answer(token: str | None) -> Any:
            _, pr = self._find(request)
            per_page, page = self._paging(request)
            visible = pr.files[:3000]  # GitHub lists at most 3,000 files per PR
            chunk = visible[(page - 1) * per_page : page * per_page]
            data = [
                {
                    "filename": f.path,
                    "additions": f.additions,
                    "deletions": f.deletions,
                    "changes": f.additions + f.deletions,
                    "status": statuses[f.change_type],
                }
                for f in chunk
            ]
            last = max(1, math.ceil(len(visible) / per_page))
            return self._conditional(request, token, data, self._link(request, page, last))

        return await self._handle(request, "files", answer)

    async def _rest_contents(self, request: web.Request) -> web.Response:
        def answer(token: str | None) -> Any:
            repo = f"{request.match_info['owner']}/{request.match_info['name']}"
            if repo not in self.repos:
                raise web.HTTPNotFound(reason="Not Found")
            files = self.repo_files.get(repo, {})
            path = request.match_info["path"].strip("/")
            if path == "":
                names = sorted({p.split("/")[0] for p in files})
                data: Any = [
                    {"name": n, "path": n, "type": "file" if n in files else "dir"} for n in names
                ]
            elif path in files:
                data = {
                    "type": "file",
                    "path": path,
                    "encoding": "base64",
                    "content": base64.b64encode(files[path].encode()).decode(),
                }
            else:
                raise web.HTTPNotFound(reason="Not Found")
            return self._conditional(request, token, data)

        return await self._handle(request, "contents", answer)

    # ---------------------------------------------------------------- releases

    def _repo_tags(self, request: web.Request) -> tuple[str, list[FakeTag]]:
        repo = f"{request.match_info['owner']}/{request.match_info['name']}"
        if repo not in self.repos and repo not in self.tags:
            raise web.HTTPNotFound(reason="Not Found")
        # GitHub lists the newest tag first.
        return repo, list(reversed(self.tags.get(repo, [])))

    def _listing(self, request: web.Request, token: str | None, items: list) -> web.Response:
        per_page, page = self._paging(request)
        last = max(1, math.ceil(len(items) / per_page))
        chunk = items[(page - 1) * per_page : page * per_page]
        return self._conditional(request, token, chunk, self._link(request, page, last))

    async def _rest_tags(self, request: web.Request) -> web.Response:
        def answer(token: str | None) -> Any:
            _, tags = self._repo_tags(request)
            data = [
                {"name": t.name, "commit": {"sha": t.commits[-1].sha if t.commits else ""}}
                for t in tags
            ]
            return self._listing(request, token, data)

        return await self._handle(request, "tags", answer)

    async def _rest_releases(self, request: web.Request) -> web.Response:
        def answer(token: str | None) -> Any:
            repo, tags = self._repo_tags(request)
            data = [
                {
                    "tag_name": t.name,
                    "html_url": f"https://github.com/{repo}/releases/tag/{t.name}",
                    "draft": t.draft,
                    "prerelease": t.prerelease,
                    "published_at": stamp(t.commits[-1].date) if t.commits else None,
                }
                for t in tags
                if t.release
            ]
            return self._listing(request, token, data)

        return await self._handle(request, "releases", answer)

    async def _rest_compare(self, request: web.Request) -> web.Response:
        def commit(c: FakeCommit) -> dict[str, Any]:
            person = {"name": "x", "date": stamp(c.date)}
            return {"sha": c.sha, "commit": {"message": c.message, "committer": person}}

        def answer(token: str | None) -> Any:
            _, tags = self._repo_tags(request)
            base_name, sep, head_name = request.match_info["basehead"].partition("...")
            by_name = {t.name: t for t in tags}
            if not sep or base_name not in by_name or head_name not in by_name:
                raise web.HTTPNotFound(reason="Not Found")
            base, head = by_name[base_name], by_name[head_name]
            held = {c.sha for c in base.commits}
            ahead = [c for c in head.commits if c.sha not in held]
            behind = len(held - {c.sha for c in head.commits})
            # per_page is capped at 100 here, as GitHub caps its other listings.
            per_page = min(100, int(request.query.get("per_page", 250)))
            page = max(1, int(request.query.get("page", 1)))
            last = max(1, math.ceil(len(ahead) / per_page))
            chunk = ahead[(page - 1) * per_page : page * per_page]
            data = {
                "status": ("diverged" if ahead else "behind")
                if behind
                else ("ahead" if ahead else "identical"),
                "total_commits": len(ahead),
                "base_commit": commit(base.commits[-1]) if base.commits else None,
                "commits": [commit(c) for c in chunk],
            }
            return self._conditional(request, token, data, self._link(request, page, last))

        return await self._handle(request, "compare", answer)
