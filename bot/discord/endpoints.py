"""Where discord.py sends its REST calls and opens its gateway.

discord.py keeps both addresses as class attributes that it reads when it builds a request
or connects: ``discord.http.Route.BASE`` (read in ``Route.__init__``, so it applies to every
request made after it is set, bot and webhook alike) and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (read by ``DiscordWebSocket.from_client``
on every connect). Setting them is the library's own extension point; it is process-wide,
which is what a bot process wants, and `override_endpoints` restores them for tests.

Rules (CONTRACT, Environment):

* ``DISCORD_API_URL`` sets the REST base (default ``https://discord.com/api/v10``).
* ``DISCORD_GATEWAY_URL`` sets the gateway.
* With only ``DISCORD_API_URL`` set, the gateway is whatever that API answers on
  ``GET /gateway/bot`` -- so a local fake (or a proxy) serves both without a second setting.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

from bot.core.config import Environment
from bot.core.errors import ConfigError
from bot.core.messages import Text

log = logging.getLogger(__name__)

DEFAULT_API_URL = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"


@dataclass(frozen=True, slots=True)
class DiscordEndpoints:
    api_url: str = DEFAULT_API_URL
    # None: ask `api_url`'s /gateway/bot after logging in (see `resolve_gateway`).
    gateway_url: str | None = DEFAULT_GATEWAY_URL

    @classmethod
    def from_env(cls, env: Environment) -> DiscordEndpoints:
        api = env.discord_api_url
        gateway = env.discord_gateway_url
        if gateway:
            return cls(api_url=_api_base(api or DEFAULT_API_URL), gateway_url=_gateway(gateway))
        if api:
            return cls(api_url=_api_base(api), gateway_url=None)
        return cls()


def _api_base(url: str) -> str:
    parsed = yarl.URL(url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ConfigError(
            Text("error.discord.api_url", {"url": repr(url), "example": DEFAULT_API_URL})
        )
    # Route paths start with "/", so a trailing slash would double it.
    return str(parsed).rstrip("/")


def _gateway(url: str) -> str:
    parsed = yarl.URL(url.strip())
    if parsed.scheme not in ("ws", "wss") or not parsed.host:
        raise ConfigError(
            Text("error.discord.gateway_url", {"url": repr(url), "example": DEFAULT_GATEWAY_URL})
        )
    return str(parsed)


def apply_endpoints(endpoints: DiscordEndpoints) -> None:
    """Point discord.py at `endpoints` (process-wide; call before creating requests)."""
    Route.BASE = endpoints.api_url
    if endpoints.gateway_url is not None:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(endpoints.gateway_url)
    log.debug("discord REST base %s, gateway %s", endpoints.api_url, endpoints.gateway_url)


async def resolve_gateway(http: HTTPClient, endpoints: DiscordEndpoints) -> yarl.URL:
    """The gateway to connect to; asks /gateway/bot when only the API URL was configured.

    `http` must be logged in (the endpoint needs the bot token).
    """
    if endpoints.gateway_url is not None:
        return yarl.URL(endpoints.gateway_url)
    _shards, url, _limits = await http.get_bot_gateway()
    gateway = yarl.URL(_gateway(url))
    DiscordWebSocket.DEFAULT_GATEWAY = gateway
    log.info("discord gateway from %s/gateway/bot: %s", endpoints.api_url, gateway)
    return gateway


@contextlib.contextmanager
def override_endpoints(endpoints: DiscordEndpoints) -> Iterator[None]:
    """`apply_endpoints` for a block, restoring discord.py's previous values afterwards."""
    saved_base, saved_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    apply_endpoints(endpoints)
    try:
        yield
    finally:
        Route.BASE = saved_base
        DiscordWebSocket.DEFAULT_GATEWAY = saved_gateway
