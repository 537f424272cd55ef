"""Slack's read-only checks for `vllm-bot doctor` and `/readyz` (auth.test,
apps.connections.open, conversations.info), over Slack's Web API with httpx."""

from __future__ import annotations

import httpx

from bot.core.config import Environment
from bot.core.models import JSON
from bot.probes import Probe, client, json_object, secret, unreachable

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
    async with client() as http:
        response = await http.post(
            url, data=data or {}, headers={"Authorization": f"Bearer {token}"}
        )
    try:
        answer = response.json()
    except ValueError:
        return {"ok": False, "error": f"HTTP {response.status_code}, not JSON"}
    return json_object(answer)


async def slack_auth(env: Environment) -> Probe:
    name = "slack token"
    token = secret(env.slack_bot_token)
    if token is None:
        return Probe(name, False, "SLACK_BOT_TOKEN is not set", _SLACK_ERRORS["not_authed"])
    try:
        answer = await _slack_call(env, "auth.test", token)
    except httpx.HTTPError as exc:
        return unreachable(name, env.slack_api_url, exc, "check network access and SLACK_API_URL")
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
        return unreachable(name, env.slack_api_url, exc, "check network access and SLACK_API_URL")
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
        return unreachable(name, env.slack_api_url, exc, "check network access and SLACK_API_URL")
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
