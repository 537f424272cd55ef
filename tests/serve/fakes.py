"""Small local fakes of the Slack, Discord and GitHub endpoints that doctor and /readyz call.

One aiohttp server on 127.0.0.1 serves all three under /slack/, /discord/ and /github/, so a
test points SLACK_API_URL, DISCORD_API_URL and GITHUB_*_URL at it. Each fake checks the
token the way the real service does and answers in the real service's shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

SLACK_TOKEN = "xoxb-test-bot-token-123"
SLACK_APP_TOKEN = "xapp-test-app-token-456"
DISCORD_TOKEN = "discord-test-token-789"
GITHUB_TOKEN = "ghp_testtoken0123456789"


@dataclass
class FakeAPIs:
    slack_channels: dict[str, dict[str, Any]] = field(
        default_factory=lambda: {"C0123": {"id": "C0123", "name": "vllm", "is_member": True}}
    )
    discord_channels: dict[str, dict[str, Any]] = field(
        default_factory=lambda: {
            "111": {"id": "111", "name": "vllm-digest"},
            # A real-sized id: doctor refuses a target channel `--post` would refuse.
            "111111111111111111": {"id": "111111111111111111", "name": "vllm-digest"},
        }
    )
    forbidden_discord_channels: set[str] = field(default_factory=set)
    rate_remaining: int = 4999
    calls: list[str] = field(default_factory=list)
    _runner: web.AppRunner | None = None
    base: str = ""

    async def start(self) -> FakeAPIs:
        app = web.Application()
        app.router.add_post("/slack/{method}", self._slack)
        app.router.add_get("/discord/users/@me", self._discord_me)
        app.router.add_get("/discord/channels/{id}", self._discord_channel)
        app.router.add_get("/github/rate_limit", self._github_rate)
        app.router.add_post("/github/graphql", self._github_graphql)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://127.0.0.1:{port}"
        return self

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def env(self) -> dict[str, str]:
        return {
            "SLACK_API_URL": f"{self.base}/slack/",
            "DISCORD_API_URL": f"{self.base}/discord",
            "GITHUB_API_URL": f"{self.base}/github",
            "GITHUB_GRAPHQL_URL": f"{self.base}/github/graphql",
        }

    # ------------------------------------------------------------------ Slack

    async def _slack(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        self.calls.append(f"slack {method}")
        form = await request.post()
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if not token:
            return web.json_response({"ok": False, "error": "not_authed"})
        if method == "apps.connections.open":
            if token != SLACK_APP_TOKEN:
                return web.json_response({"ok": False, "error": "invalid_auth"})
            return web.json_response({"ok": True, "url": "wss://example.invalid/link"})
        if token != SLACK_TOKEN:
            return web.json_response({"ok": False, "error": "invalid_auth"})
        if method == "auth.test":
            return web.json_response({"ok": True, "user": "vllm-bot", "team": "vLLM"})
        if method == "conversations.info":
            channel = self.slack_channels.get(str(form.get("channel")))
            if channel is None:
                return web.json_response({"ok": False, "error": "channel_not_found"})
            return web.json_response({"ok": True, "channel": channel})
        return web.json_response({"ok": False, "error": "unknown_method"})

    # ------------------------------------------------------------------ Discord

    def _discord_auth(self, request: web.Request) -> web.Response | None:
        if request.headers.get("Authorization") != f"Bot {DISCORD_TOKEN}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return None

    async def _discord_me(self, request: web.Request) -> web.Response:
        self.calls.append("discord users/@me")
        if (denied := self._discord_auth(request)) is not None:
            return denied
        return web.json_response({"id": "42", "username": "vllm-bot", "bot": True})

    async def _discord_channel(self, request: web.Request) -> web.Response:
        channel_id = request.match_info["id"]
        self.calls.append(f"discord channels/{channel_id}")
        if (denied := self._discord_auth(request)) is not None:
            return denied
        if channel_id in self.forbidden_discord_channels:
            return web.json_response({"message": "Missing Access", "code": 50001}, status=403)
        channel = self.discord_channels.get(channel_id)
        if channel is None:
            return web.json_response({"message": "Unknown Channel", "code": 10003}, status=404)
        return web.json_response(channel)

    # ------------------------------------------------------------------ GitHub

    def _github_authorized(self, request: web.Request) -> bool | None:
        header = request.headers.get("Authorization")
        if header is None:
            return None
        return header == f"Bearer {GITHUB_TOKEN}"

    async def _github_rate(self, request: web.Request) -> web.Response:
        self.calls.append("github rate_limit")
        if self._github_authorized(request) is False:
            return web.json_response({"message": "Bad credentials"}, status=401)
        core = {"limit": 5000, "remaining": self.rate_remaining, "reset": 1_900_000_000}
        return web.json_response({"resources": {"core": core}, "rate": core})

    async def _github_graphql(self, request: web.Request) -> web.Response:
        self.calls.append("github graphql")
        if not self._github_authorized(request):
            return web.json_response({"message": "Bad credentials"}, status=401)
        rate = {"limit": 5000, "remaining": self.rate_remaining, "resetAt": "2026-06-08T10:00:00Z"}
        return web.json_response({"data": {"viewer": {"login": "octocat"}, "rateLimit": rate}})
