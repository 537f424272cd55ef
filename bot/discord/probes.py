"""Discord's read-only checks for `vllm-bot doctor` and `/readyz` (GET /users/@me,
/channels/{id}, /webhooks/{id}/{token}), over Discord's REST API with httpx."""

from __future__ import annotations

import httpx

from bot.core.config import Environment
from bot.core.errors import ConfigError
from bot.discord.poster import parse_webhook_url
from bot.probes import Probe, client, response_json, secret, unreachable

DEFAULT_DISCORD_API = "https://discord.com/api/v10"


def discord_api_url(env: Environment) -> str:
    return (env.discord_api_url or DEFAULT_DISCORD_API).rstrip("/")


_DISCORD_TOKEN_FIX = (
    "copy the bot token from the Developer Portal (Bot → Reset Token) into DISCORD_BOT_TOKEN"
)


async def _discord_get(env: Environment, path: str, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bot {token}"} if token else {}
    async with client() as http:
        return await http.get(f"{discord_api_url(env)}/{path.lstrip('/')}", headers=headers)


async def discord_me(env: Environment) -> Probe:
    name = "discord token"
    token = secret(env.discord_bot_token)
    if token is None:
        return Probe(name, False, "DISCORD_BOT_TOKEN is not set", _DISCORD_TOKEN_FIX)
    try:
        response = await _discord_get(env, "users/@me", token)
    except httpx.HTTPError as exc:
        return unreachable(name, discord_api_url(env), exc, "check network and DISCORD_API_URL")
    if response.status_code == 401:
        return Probe(name, False, "Discord rejected DISCORD_BOT_TOKEN (401)", _DISCORD_TOKEN_FIX)
    if response.status_code >= 400:
        return Probe(name, False, f"GET /users/@me answered {response.status_code}", "")
    me = response_json(response)
    return Probe(name, True, f"bot {me.get('username', '?')} (id {me.get('id', '?')})")


async def discord_channel(env: Environment, channel: str) -> Probe:
    name = f"discord channel {channel}"
    token = secret(env.discord_bot_token)
    if token is None:
        return Probe(name, False, "DISCORD_BOT_TOKEN is not set", _DISCORD_TOKEN_FIX)
    try:
        response = await _discord_get(env, f"channels/{channel}", token)
    except httpx.HTTPError as exc:
        return unreachable(name, discord_api_url(env), exc, "check network and DISCORD_API_URL")
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
    info = response_json(response)
    return Probe(name, True, f"#{info.get('name', channel)} visible to the bot")


async def discord_webhook(webhook_url: str, label: str, env: Environment) -> Probe:
    """GET on a webhook returns its metadata without posting anything.

    Like every Discord request (and the posts themselves, see bot.discord.poster), it goes
    to DISCORD_API_URL from `env`; only the webhook's id and token come from the URL.
    """
    name = f"discord webhook {label}"
    try:
        webhook_id, token, _thread = parse_webhook_url(webhook_url)
    except ConfigError as exc:
        return Probe(name, False, str(exc), _WEBHOOK_FIX)
    base = discord_api_url(env)
    try:
        async with client() as http:
            response = await http.get(f"{base}/webhooks/{webhook_id}/{token}")
    except httpx.HTTPError as exc:
        # Never the URL nor the error text (it may quote the URL): its path is the token.
        host = httpx.URL(base).host or base
        detail = f"cannot reach {host}: {type(exc).__name__}"
        return Probe(name, False, detail, "check network and DISCORD_API_URL")
    if response.status_code >= 400:
        return Probe(name, False, f"the webhook answered {response.status_code}", _WEBHOOK_FIX)
    return Probe(name, True, f"webhook {response_json(response).get('name', '?')} exists")


_WEBHOOK_FIX = (
    "the webhook was deleted or the URL is wrong; create one in Channel settings → "
    "Integrations → Webhooks and update the URL in the variable webhook_url_env names"
)
