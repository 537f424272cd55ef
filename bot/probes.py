"""Read-only checks against GitHub and the store, and what every check shares.

`vllm-bot doctor` prints them with a fix; `/readyz` runs the cheap ones. Each returns a
`Probe` rather than raising, so one failure never hides the others. Tokens only ever go
into Authorization headers; details quote what the service answered, never the request.
Each chat platform's own checks live with it (bot/slack/probes.py, bot/discord/probes.py)
and use the helpers here: this module sits below the platforms for that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx
from pydantic import SecretStr

from bot.core.models import JSON, JSONValue
from bot.github.client import USER_AGENT

if TYPE_CHECKING:
    from bot.core.config import Environment
    from bot.store import Store

TIMEOUT = httpx.Timeout(10.0)


@dataclass(frozen=True, slots=True)
class Probe:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    warning: bool = False  # ok, but worth saying (e.g. running without a GitHub token)


def secret(value: SecretStr | None) -> str | None:
    """The secret's text, or None when unset or empty."""
    if value is None:
        return None
    raw = value.get_secret_value().strip()
    return raw or None


def client() -> httpx.AsyncClient:
    """An HTTP client for one check: short timeout, the bot's User-Agent."""
    return httpx.AsyncClient(timeout=TIMEOUT, headers={"User-Agent": USER_AGENT})


def unreachable(name: str, url: str, exc: Exception, fix: str) -> Probe:
    reason = str(exc) or type(exc).__name__
    host = httpx.URL(url).host or url
    return Probe(name, False, f"cannot reach {host}: {reason}", fix)


# ---------------------------------------------------------------------------- store


async def store_reachable(store: Store) -> Probe:
    try:
        await store.ping()
    except Exception as exc:
        return Probe("database", False, f"{type(exc).__name__}: {exc}", _DB_FIX)
    return Probe("database", True, "reachable")


_DB_FIX = (
    "check DATABASE_URL (host, credentials, database name) and that the server is running; "
    "for SQLite, that the file's directory exists and is writable by this user"
)


async def store_writable(store: Store) -> Probe:
    name = "database writable"
    try:
        await store.probe_write()
    except Exception as exc:
        return Probe(name, False, f"{type(exc).__name__}: {exc}", _DB_FIX)
    return Probe(name, True, f"{store.engine.dialect.name} accepts writes")


# ---------------------------------------------------------------------------- GitHub

_GITHUB_TOKEN_FIX = (
    "create a token at https://github.com/settings/tokens (fine-grained, public repositories "
    "read-only is enough) and set GITHUB_TOKEN"
)
_VIEWER = "query { viewer { login } rateLimit { limit remaining resetAt } }"


async def github_reachable(env: Environment) -> tuple[Probe, int | None]:
    """GET /rate_limit: free (it does not count against the limit) and reports what is left."""
    url = f"{env.github_api_url.rstrip('/')}/rate_limit"
    headers = {"Accept": "application/vnd.github+json"}
    if token := secret(env.github_token):
        headers["Authorization"] = f"Bearer {token}"
    try:
        async with client() as http:
            response = await http.get(url, headers=headers)
    except httpx.HTTPError as exc:
        return unreachable("github", url, exc, "check network access and GITHUB_API_URL"), None
    if response.status_code == 401:
        return Probe("github", False, "GitHub rejected GITHUB_TOKEN (401)", _GITHUB_TOKEN_FIX), None
    if response.status_code >= 400:
        detail = f"GET {url} answered {response.status_code}"
        return Probe("github", False, detail, _GITHUB_API_URL_FIX), None
    remaining = _remaining(response)
    detail = "reachable" + (f", {remaining} requests left" if remaining is not None else "")
    return Probe("github", True, detail), remaining


def _remaining(response: httpx.Response) -> int | None:
    try:
        return int(response.json()["resources"]["core"]["remaining"])
    except (ValueError, KeyError, TypeError):
        value = response.headers.get("x-ratelimit-remaining")
        return int(value) if value and value.isascii() and value.isdigit() else None


_GITHUB_API_URL_FIX = (
    "check GITHUB_API_URL: https://api.github.com, or https://HOST/api/v3 for GitHub "
    "Enterprise (unset it for github.com)"
)
_GITHUB_GRAPHQL_URL_FIX = (
    "check GITHUB_GRAPHQL_URL: https://api.github.com/graphql, or https://HOST/api/graphql "
    "for GitHub Enterprise (unset it for github.com)"
)


async def github_viewer(env: Environment) -> Probe:
    name = "github token"
    token = secret(env.github_token)
    if token is None:
        probe, remaining = await github_reachable(env)
        if not probe.ok:
            return Probe(name, False, probe.detail, probe.fix)
        return Probe(
            name,
            True,
            f"GITHUB_TOKEN not set: REST only, 60 requests/hour ({remaining} left)",
            _GITHUB_TOKEN_FIX,
            warning=True,
        )
    url = env.github_graphql_url
    try:
        async with client() as http:
            response = await http.post(
                url, json={"query": _VIEWER}, headers={"Authorization": f"Bearer {token}"}
            )
    except httpx.HTTPError as exc:
        return unreachable(name, url, exc, "check network access and GITHUB_GRAPHQL_URL")
    if response.status_code == 401:
        return Probe(name, False, "GitHub rejected GITHUB_TOKEN (401)", _GITHUB_TOKEN_FIX)
    if response.status_code >= 400:
        detail = f"GitHub GraphQL at {url} answered {response.status_code}"
        return Probe(name, False, detail, _GITHUB_GRAPHQL_URL_FIX)
    body = response_json(response)
    data = json_object(body.get("data"))
    viewer = json_object(data.get("viewer"))
    login = viewer.get("login")
    if not login:
        # GitHub (or whatever answers at that URL) says why in `errors`: show it.
        found = body.get("errors")
        errors: list[JSONValue] = found if isinstance(found, list) else []
        said = "; ".join(str(e.get("message", e)) for e in errors if isinstance(e, dict))
        detail = f"GitHub GraphQL at {url} answered without viewer.login"
        return Probe(name, False, detail + (f": {said}" if said else ""), _GITHUB_GRAPHQL_URL_FIX)
    rate = data.get("rateLimit") or {}
    detail = f"authenticated as {login}"
    if rate.get("remaining") is not None:
        detail += f"; rate limit {rate['remaining']}/{rate.get('limit', '?')}"
        if rate.get("resetAt"):
            detail += f" (resets {rate['resetAt']})"
        if int(rate["remaining"]) == 0:
            return Probe(name, False, detail, "wait for the reset or use another token")
    return Probe(name, True, detail)


def json_object(value: JSONValue) -> JSON:
    """A JSON object from an answer, or {} when the answer has something else there."""
    return value if isinstance(value, dict) else {}


def response_json(response: httpx.Response) -> JSON:
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
