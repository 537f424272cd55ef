"""DISCORD_API_URL / DISCORD_GATEWAY_URL reach the attributes discord.py actually reads."""

from __future__ import annotations

import asyncio

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

from bot.core.config import Environment
from bot.core.errors import ConfigError
from bot.discord.endpoints import (
    DEFAULT_API_URL,
    DEFAULT_GATEWAY_URL,
    DiscordEndpoints,
    override_endpoints,
    resolve_gateway,
)
from tests.fakes.discord import FakeDiscord


def env(**values: str) -> Environment:
    return Environment(**values)  # type: ignore[arg-type]


def test_defaults_without_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_API_URL", raising=False)
    assert DiscordEndpoints.from_env(Environment()) == DiscordEndpoints(
        DEFAULT_API_URL, DEFAULT_GATEWAY_URL
    )


def test_api_url_alone_leaves_the_gateway_to_be_asked() -> None:
    chosen = DiscordEndpoints.from_env(env(discord_api_url="http://127.0.0.1:8000/api/v10/"))
    assert chosen == DiscordEndpoints("http://127.0.0.1:8000/api/v10", None)


def test_both_urls() -> None:
    chosen = DiscordEndpoints.from_env(
        env(discord_api_url="http://proxy/api/v10", discord_gateway_url="ws://proxy/gw")
    )
    assert chosen == DiscordEndpoints("http://proxy/api/v10", "ws://proxy/gw")


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"discord_api_url": "discord.com/api"}, "DISCORD_API_URL"),
        ({"discord_gateway_url": "https://gateway.discord.gg"}, "DISCORD_GATEWAY_URL"),
    ],
)
def test_bad_urls_are_config_errors(values: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        DiscordEndpoints.from_env(env(**values))


def test_override_sets_and_restores_what_discord_py_reads() -> None:
    before = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    with override_endpoints(DiscordEndpoints("http://127.0.0.1:1/api/v10", "ws://127.0.0.1:1/")):
        assert Route("GET", "/users/@me").url == "http://127.0.0.1:1/api/v10/users/@me"
        assert yarl.URL("ws://127.0.0.1:1/") == DiscordWebSocket.DEFAULT_GATEWAY
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)


async def test_gateway_comes_from_the_api_when_only_it_is_set() -> None:
    async with FakeDiscord() as fake:
        chosen = DiscordEndpoints(fake.api_url, None)
        with override_endpoints(chosen):
            http = HTTPClient(asyncio.get_running_loop())
            await http.static_login(fake.token)  # reaches the fake: Route.BASE took effect
            try:
                gateway = await resolve_gateway(http, chosen)
                assert gateway == yarl.URL(fake.gateway_url) == DiscordWebSocket.DEFAULT_GATEWAY
            finally:
                await http.close()
        assert [r.status for r in fake.requests_to("GET /gateway/bot")] == [200]


async def test_a_configured_gateway_is_not_looked_up() -> None:
    async with FakeDiscord() as fake:
        chosen = DiscordEndpoints(fake.api_url, "ws://127.0.0.1:9/gateway")
        with override_endpoints(chosen):
            http = HTTPClient(asyncio.get_running_loop())
            await http.static_login(fake.token)
            try:
                assert await resolve_gateway(http, chosen) == yarl.URL("ws://127.0.0.1:9/gateway")
            finally:
                await http.close()
        assert fake.requests_to("GET /gateway/bot") == []
