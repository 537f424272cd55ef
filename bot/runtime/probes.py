"""Read-only checks against Slack, Discord, GitHub and the store.

`vllm-bot doctor` prints them with a fix; `/readyz` runs the cheap ones. Each returns a
`Probe` rather than raising, so one failure never hides the others. Tokens only ever go
into Authorization headers; details quote what the service answered, never the request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx
from pydantic import SecretStr

from bot.config import Environment
from bot.errors import ConfigError
from bot.github.client import USER_AGENT
from bot.models import JSON, JSONValue

if TYPE_CHECKING:
    from bot.store import Store

DEFAULT_DISCORD_API = "https://discord.com/api/v10"
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


def discord_api_url(env: Environment) -> str:
    return (env.discord_api_url or DEFAULT_DISCORD_API).rstrip("/")


def _client() -> httpx.AsyncClient:
    return httpx.AsyncClient(timeout=TIMEOUT, headers={"User-Agent": USER_AGENT})


def _unreachable(name: str, url: str, exc: Exception, fix: str) -> Probe:
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
        async with _client() as client:
            response = await client.get(url, headers=headers)
    except httpx.HTTPError as exc:
        return _unreachable("github", url, exc, "check network access and GITHUB_API_URL"), None
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
        return int(value) if value and value.isdigit() else None


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
        async with _client() as client:
            response = await client.post(
                url, json={"query": _VIEWER}, headers={"Authorization": f"Bearer {token}"}
            )
    except httpx.HTTPError as exc:
        return _unreachable(name, url, exc, "check network access and GITHUB_GRAPHQL_URL")
    if response.status_code == 401:
        return Probe(name, False, "GitHub rejected GITHUB_TOKEN (401)", _GITHUB_TOKEN_FIX)
    if response.status_code >= 400:
        detail = f"GitHub GraphQL at {url} answered {response.status_code}"
        return Probe(name, False, detail, _GITHUB_GRAPHQL_URL_FIX)
    body = _json(response)
    data = _object(body.get("data"))
    viewer = _object(data.get("viewer"))
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


# ---------------------------------------------------------------------------- Slack

_SLACK_ERRORS = {
    "invalid_auth": "SLACK_BOT_TOKEN is not valid; copy the Bot User OAuth Token (xoxb-…) "
    "from the app's OAuth & Permissions page",
    "not_authed": "set SLACK_BOT_TOKEN to the Bot User OAuth Token (xoxb-…)",
    "account_inactive": "the app was uninstalled or the token revoked; reinstall the app",
    "token_revoked": "the token was revoked; reinstall the app and copy the new token",
    "missing_scope": "add the missing scope on OAuth & Permissions (see docs/operations.md) "
    "and reinstall the app",
    "channel_not_found": "check the channel id (right-click the channel → Copy link; the id "
    "starts with C or G) and, for a private channel, invite the bot",
}


async def _slack_call(
    env: Environment, method: str, token: str, data: dict[str, str] | None = None
) -> JSON:
    url = env.slack_api_url.rstrip("/") + "/" + method
    async with _client() as client:
        response = await client.post(
            url, data=data or {}, headers={"Authorization": f"Bearer {token}"}
        )
    try:
        answer = response.json()
    except ValueError:
        return {"ok": False, "error": f"HTTP {response.status_code}, not JSON"}
    return _object(answer)


async def slack_auth(env: Environment) -> Probe:
    name = "slack token"
    token = secret(env.slack_bot_token)
    if token is None:
        return Probe(name, False, "SLACK_BOT_TOKEN is not set", _SLACK_ERRORS["not_authed"])
    try:
        answer = await _slack_call(env, "auth.test", token)
    except httpx.HTTPError as exc:
        return _unreachable(name, env.slack_api_url, exc, "check network access and SLACK_API_URL")
    if not answer.get("ok"):
        error = str(answer.get("error", "unknown error"))
        return Probe(name, False, f"auth.test: {error}", _SLACK_ERRORS.get(error, ""))
    user, team = answer.get("user", "?"), answer.get("team", "?")
    return Probe(name, True, f"bot {user} in workspace {team}")


async def slack_app_token(env: Environment) -> Probe:
    """Socket Mode: apps.connections.open only hands out a URL; nothing connects to it."""
    name = "slack app token"
    token = secret(env.slack_app_token)
    fix = (
        "enable Socket Mode and create an app-level token (xapp-…) with the "
        "connections:write scope on the app's Basic Information page; set SLACK_APP_TOKEN"
    )
    if token is None:
        return Probe(name, False, "SLACK_APP_TOKEN is not set ([slack] mode = socket)", fix)
    try:
        answer = await _slack_call(env, "apps.connections.open", token)
    except httpx.HTTPError as exc:
        return _unreachable(name, env.slack_api_url, exc, "check network access and SLACK_API_URL")
    if not answer.get("ok"):
        return Probe(name, False, f"apps.connections.open: {answer.get('error')}", fix)
    return Probe(name, True, "accepted for Socket Mode")


async def slack_channel(env: Environment, channel: str) -> Probe:
    """conversations.info: read-only, and says whether the bot is a member."""
    name = f"slack channel {channel}"
    token = secret(env.slack_bot_token)
    if token is None:
        return Probe(name, False, "SLACK_BOT_TOKEN is not set", _SLACK_ERRORS["not_authed"])
    try:
        answer = await _slack_call(env, "conversations.info", token, {"channel": channel})
    except httpx.HTTPError as exc:
        return _unreachable(name, env.slack_api_url, exc, "check network access and SLACK_API_URL")
    if not answer.get("ok"):
        error = str(answer.get("error", "unknown error"))
        fix = _SLACK_ERRORS.get(error, "")
        if error == "missing_scope":
            fix = "add channels:read (and groups:read for private channels); reinstall the app"
        return Probe(name, False, f"conversations.info: {error}", fix)
    info = answer.get("channel") or {}
    label = f"#{info.get('name', channel)}"
    if info.get("is_archived"):
        return Probe(name, False, f"{label} is archived", "unarchive it or pick another channel")
    if info.get("is_member") is False:
        if info.get("is_private"):
            return Probe(
                name,
                False,
                f"{label} is private and the bot is not a member",
                f"invite the bot: type /invite @<bot name> in {label}",
            )
        # chat:write.public (in deploy/slack-manifest.yaml) posts to public channels
        # without an invitation, so this works; said so in case the scope was dropped.
        return Probe(
            name,
            True,
            f"{label}, bot is not a member: it posts with the chat:write.public scope "
            "(or invite it with /invite)",
        )
    return Probe(name, True, f"{label}, bot is a member")


# ---------------------------------------------------------------------------- Discord

_DISCORD_TOKEN_FIX = (
    "copy the bot token from the Developer Portal (Bot → Reset Token) into DISCORD_BOT_TOKEN"
)


async def _discord_get(env: Environment, path: str, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bot {token}"} if token else {}
    async with _client() as client:
        return await client.get(f"{discord_api_url(env)}/{path.lstrip('/')}", headers=headers)


async def discord_me(env: Environment) -> Probe:
    name = "discord token"
    token = secret(env.discord_bot_token)
    if token is None:
        return Probe(name, False, "DISCORD_BOT_TOKEN is not set", _DISCORD_TOKEN_FIX)
    try:
        response = await _discord_get(env, "users/@me", token)
    except httpx.HTTPError as exc:
        return _unreachable(name, discord_api_url(env), exc, "check network and DISCORD_API_URL")
    if response.status_code == 401:
        return Probe(name, False, "Discord rejected DISCORD_BOT_TOKEN (401)", _DISCORD_TOKEN_FIX)
    if response.status_code >= 400:
        return Probe(name, False, f"GET /users/@me answered {response.status_code}", "")
    me = _json(response)
    return Probe(name, True, f"bot {me.get('username', '?')} (id {me.get('id', '?')})")


async def discord_channel(env: Environment, channel: str) -> Probe:
    name = f"discord channel {channel}"
    token = secret(env.discord_bot_token)
    if token is None:
        return Probe(name, False, "DISCORD_BOT_TOKEN is not set", _DISCORD_TOKEN_FIX)
    try:
        response = await _discord_get(env, f"channels/{channel}", token)
    except httpx.HTTPError as exc:
        return _unreachable(name, discord_api_url(env), exc, "check network and DISCORD_API_URL")
    fixes = {
        401: _DISCORD_TOKEN_FIX,
        403: "the bot cannot see this channel: give its role View Channel, Send Messages, "
        "Embed Links and Send Messages in Threads there",
        404: "no such channel: enable Developer Mode, right-click the channel → Copy Channel ID",
    }
    if response.status_code >= 400:
        return Probe(
            name,
            False,
            f"GET /channels/{channel} answered {response.status_code}",
            fixes.get(response.status_code, ""),
        )
    info = _json(response)
    return Probe(name, True, f"#{info.get('name', channel)} visible to the bot")


async def discord_webhook(webhook_url: str, label: str, env: Environment | None = None) -> Probe:
    """GET on a webhook returns its metadata without posting anything.

    Like every Discord request (and the posts themselves, see bot.discord.poster), it goes
    to DISCORD_API_URL from `env`; only the webhook's id and token come from the URL.
    """
    # Lazy: discord.py (~150 ms) loads only when a Discord webhook is probed.
    from bot.discord.poster import parse_webhook_url

    name = f"discord webhook {label}"
    try:
        webhook_id, token, _thread = parse_webhook_url(webhook_url)
    except ConfigError as exc:
        return Probe(name, False, str(exc), _WEBHOOK_FIX)
    base = discord_api_url(env) if env is not None else DEFAULT_DISCORD_API
    try:
        async with _client() as client:
            response = await client.get(f"{base}/webhooks/{webhook_id}/{token}")
    except httpx.HTTPError as exc:
        # Never the URL nor the error text (it may quote the URL): its path is the token.
        host = httpx.URL(base).host or base
        detail = f"cannot reach {host}: {type(exc).__name__}"
        return Probe(name, False, detail, "check network and DISCORD_API_URL")
    if response.status_code >= 400:
        return Probe(name, False, f"the webhook answered {response.status_code}", _WEBHOOK_FIX)
    return Probe(name, True, f"webhook {_json(response).get('name', '?')} exists")


_WEBHOOK_FIX = (
    "the webhook was deleted or the URL is wrong; create one in Channel settings → "
    "Integrations → Webhooks and update the URL in the variable webhook_url_env names"
)


def _object(value: JSONValue) -> JSON:
    """A JSON object from an answer, or {} when the answer has something else there."""
    return value if isinstance(value, dict) else {}


def _json(response: httpx.Response) -> JSON:
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
