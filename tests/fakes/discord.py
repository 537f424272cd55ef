"""A local fake of the Discord REST API (v10) that the real discord.py talks to in tests.

It serves the routes the bot uses, on 127.0.0.1, and is strict where Discord is strict:

* every message body (channel messages, webhook executions, interaction responses, edits
  and follow-ups) is checked against Discord's documented limits; a violation is answered
  exactly like Discord: 400 ``{"code": 50035, "message": "Invalid Form Body", "errors": …}``.
  It is stricter than Discord in two ways that catch bot bugs: unknown top-level keys are
  rejected, and ``allowed_mentions`` must be present and parse nothing (our policy);
* ``Authorization: Bot <token>`` is required on bot routes (401 otherwise); webhook and
  interaction routes need none, as on Discord;
* rate limits: every response carries the documented bucket headers
  (``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``); a client that ignores them
  gets 429 with a JSON ``retry_after`` (and ``global``), and the fake records a *violation*.
  Tests can inject 429s (per route or global) and 5xx errors;
* ``nonce`` (at most 25 characters) with ``enforce_nonce: true``: a second message by the
  same author with the same nonce within a few minutes is not created; the first one is
  returned (resources/message#create-message). ``GET /channels/{id}/messages`` reads a
  channel or thread newest first (``limit`` 1-100, default 50), without nonces, as the
  REST API does;
* missing access, missing permissions, unknown channel, unknown message and unknown
  interaction errors carry Discord's JSON error codes; an interaction must be answered
  within 3 seconds of its creation or it is unknown, and only once.

Everything the bot sends is recorded with a receive time (``time.monotonic``), so tests
assert on what arrived, in which channel or thread, and when.

Sources for codes, headers and limits: discord.com/developers/docs (topics/rate-limits,
topics/opcodes-and-status-codes#json, resources/message#embed-object-embed-limits,
resources/webhook#execute-webhook, interactions/receiving-and-responding).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakes.gates import Gate

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1_420_070_400_000
INTERACTION_DEADLINE = 3.0  # seconds Discord gives an app to answer an interaction
EPHEMERAL = 1 << 6

# Channel types (resources/channel#channel-object-channel-types).
TEXT, PUBLIC_THREAD, FORUM = 0, 11, 15

# --- documented limits -------------------------------------------------------------------
CONTENT_MAX = 2000
EMBEDS_MAX = 10
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
AUTHOR_NAME_MAX = 256
EMBEDS_TOTAL_MAX = 6000
THREAD_NAME_MAX = 100
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100
ARCHIVE_DURATIONS = frozenset({60, 1440, 4320, 10080})

MESSAGE_KEYS = frozenset(
    {
        "content",
        "nonce",
        "tts",
        "embeds",
        "allowed_mentions",
        "message_reference",
        "components",
        "sticker_ids",
        "attachments",
        "flags",
        "enforce_nonce",
        "poll",
    }
)
WEBHOOK_KEYS = (MESSAGE_KEYS - {"nonce", "message_reference", "sticker_ids", "enforce_nonce"}) | {
    "username",
    "avatar_url",
    "thread_name",
    "applied_tags",
}
EMBED_KEYS = frozenset(
    {
        "title",
        "type",
        "description",
        "url",
        "timestamp",
        "color",
        "footer",
        "image",
        "thumbnail",
        "video",
        "provider",
        "author",
        "fields",
        "flags",  # embed flags; discord.py 2.6+ sends 0 with every Embed
    }
)
_JSON = web.RequestKey("json", object)
# Files of a multipart/form-data request: (field name, filename, bytes), in order.
_FILES = web.RequestKey("files", list)
# https://docs.discord.com/developers/reference#uploading-files: 10 MiB per request for a
# bot without boosts; an attachment's description (its alt text) is at most 1,024.
UPLOAD_MAX = 10 * 1024 * 1024
ATTACHMENT_DESCRIPTION_MAX = 1024
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


class DiscordError(Exception):
    """Turned into Discord's JSON error response by the middleware."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def response(self) -> web.Response:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return _json_response(body, status=self.status)


def form_error(errors: dict) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", errors)


# --- records ------------------------------------------------------------------------------


@dataclass
class FakeChannel:
    id: int
    guild_id: int
    type: int = TEXT
    name: str = "digest"
    parent_id: int | None = None
    visible: bool = True  # False: 403 Missing Access (50001), like a channel the bot can't see
    can_send: bool = True  # False: 403 Missing Permissions (50013)
    can_create_threads: bool = True


@dataclass
class FakeMessage:
    id: int
    channel_id: int  # the thread's id when posted in a thread
    body: dict[str, Any]
    received_at: float
    source: str  # "bot" | "webhook" | "interaction"
    webhook_id: int | None = None
    flags: int = 0
    # Uploaded attachments: {"id", "filename", "description", "data"}.
    files: list[dict[str, Any]] = field(default_factory=list)
    nonce: str | None = None


@dataclass
class FakeThread:
    id: int
    parent_id: int
    starter_message_id: int | None
    name: str
    auto_archive_duration: int
    created_at: float


@dataclass
class FakeWebhook:
    id: int
    token: str
    channel_id: int

    @property
    def url(self) -> str:
        # The URL Discord shows in channel settings; discord.py only takes id and token from it.
        return f"https://discord.com/api/webhooks/{self.id}/{self.token}"


@dataclass
class Callback:
    interaction_id: int
    type: int
    body: dict[str, Any]
    received_at: float


@dataclass
class FakeInteraction:
    id: int
    token: str
    type: int  # 2 application command, 4 autocomplete
    channel_id: int
    created_at: float
    payload: dict[str, Any]
    response_type: int | None = None  # the callback type once answered
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    deleted_original: bool = False


@dataclass
class RequestRecord:
    method: str
    route: str  # the route template, e.g. "POST /channels/{channel_id}/messages"
    path: str
    status: int
    at: float
    json: Any = None


@dataclass
class Fault:
    route: str
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int
    retry_after: float | None = None
    is_global: bool = False
    after: int = 0  # matching requests to let through first


@dataclass
class BucketSpec:
    limit: int
    window: float  # seconds


@dataclass
class _Window:
    count: int
    reset_at: float


# Which documented bucket each route falls in; the major parameter is part of the key.
_ROUTE_BUCKETS = {
    "POST /channels/{channel_id}/messages": "messages",
    "POST /channels/{channel_id}/messages/{message_id}/threads": "threads",
    "POST /webhooks/{webhook_id}/{token}": "webhook",
    "POST /interactions/{interaction_id}/{token}/callback": "interaction",
    "PATCH /webhooks/{webhook_id}/{token}/messages/{message_id}": "webhook",
    "DELETE /webhooks/{webhook_id}/{token}/messages/{message_id}": "webhook",
}


# Discord: the nonce is "checked for uniqueness in the past few minutes".
NONCE_WINDOW = 300.0
NONCE_MAX = 25


def _snowflakes() -> Callable[[], int]:
    counter = itertools.count()

    def make() -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(counter) & 0x3FFFFF)

    return make


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


class FakeDiscord:
    """The fake server. `async with FakeDiscord() as fake:` starts it on a free port."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        guild_id: int = 111_111_111_111_111_111,
        message_limit: BucketSpec | None = None,
        thread_limit: BucketSpec | None = None,
        webhook_limit: BucketSpec | None = None,
        global_per_second: int = 50,
    ) -> None:
        self.token = token
        self.guild_id = guild_id
        self.snowflake = _snowflakes()
        self.application_id = self.snowflake()
        self.bot_user_id = self.application_id  # as for every bot created since 2020
        # Discord's message bucket is 5 per 5 s per channel; 25 times faster keeps tests fast
        # while still binding a digest of more than five parts.
        self.buckets: dict[str, BucketSpec] = {
            "messages": message_limit or BucketSpec(5, 0.2),
            "threads": thread_limit or BucketSpec(5, 0.2),
            "webhook": webhook_limit or BucketSpec(5, 0.2),
            "interaction": BucketSpec(1000, 1.0),
            "default": BucketSpec(1000, 1.0),
        }
        self.global_per_second = global_per_second

        self.channels: dict[int, FakeChannel] = {}
        self.messages: list[FakeMessage] = []
        self.threads: dict[int, FakeThread] = {}
        self.webhooks: dict[int, FakeWebhook] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.callbacks: list[Callback] = []
        self.requests: list[RequestRecord] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.violations: list[str] = []  # 429s the client earned by ignoring the limits
        self.faults: list[Fault] = []
        self.gates: dict[str, Gate] = {}
        self._counts: dict[str, int] = {}

        self._windows: dict[tuple[str, str], _Window] = {}
        self._global_times: deque[float] = deque()
        self._global_until = 0.0
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        # The gateway (a bot process connecting with discord.py's real client).
        self.gateway_sockets: list[web.WebSocketResponse] = []
        self.gateway_identified = asyncio.Event()
        self._gateway_seq = 0

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware])
        r = app.router
        p = API_PREFIX
        r.add_get(p + "/users/@me", self._me)
        r.add_get(p + "/oauth2/applications/@me", self._application)
        r.add_get(p + "/gateway", self._gateway)
        r.add_get(p + "/gateway/bot", self._gateway_bot)
        r.add_get(p + "/channels/{channel_id}", self._get_channel)
        r.add_post(p + "/channels/{channel_id}/messages", self._create_message)
        r.add_get(p + "/channels/{channel_id}/messages", self._get_messages)
        r.add_post(p + "/channels/{channel_id}/messages/{message_id}/threads", self._start_thread)
        r.add_post(p + "/webhooks/{webhook_id}/{token}", self._execute_webhook)
        r.add_get(p + "/webhooks/{webhook_id}/{token}", self._get_webhook)
        r.add_patch(
            p + "/webhooks/{webhook_id}/{token}/messages/{message_id}", self._edit_webhook_msg
        )
        r.add_delete(
            p + "/webhooks/{webhook_id}/{token}/messages/{message_id}", self._delete_webhook_msg
        )
        r.add_post(p + "/interactions/{interaction_id}/{token}/callback", self._callback)
        r.add_put(p + "/applications/{application_id}/commands", self._put_commands)
        r.add_get(p + "/applications/{application_id}/commands", self._get_commands)
        r.add_put(
            p + "/applications/{application_id}/guilds/{guild_id}/commands", self._put_commands
        )
        r.add_get(
            p + "/applications/{application_id}/guilds/{guild_id}/commands", self._get_commands
        )
        r.add_get("/gateway", self._gateway_socket)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for socket in list(self.gateway_sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ------------------------------------------------------------------ set-up helpers

    def add_channel(self, channel_id: int | None = None, **kwargs: Any) -> FakeChannel:
        channel = FakeChannel(id=channel_id or self.snowflake(), guild_id=self.guild_id, **kwargs)
        self.channels[channel.id] = channel
        return channel

    def add_webhook(self, channel_id: int) -> FakeWebhook:
        # Real webhook tokens are 68 url-safe characters; discord.py's URL parser wants >= 60.
        token = secrets.token_urlsafe(51)[:68]
        hook = FakeWebhook(self.snowflake(), token, channel_id)
        self.webhooks[hook.id] = hook
        return hook

    def fail(
        self,
        route: str,
        *,
        status: int = 500,
        code: int = 0,
        message: str = "500: Internal Server Error",
        times: int = 1,
        after: int = 0,
    ) -> None:
        """Answer `times` requests to `route` with an error, after letting `after` through.

        `route` is a template as Discord documents it: "POST /channels/{channel_id}/messages".
        """
        self.faults.append(
            Fault(route, status, {"message": message, "code": code}, {}, times, after=after)
        )

    def hold(self, route: str, nth: int = 1, *, after: bool = False) -> Gate:
        """Pause the `nth` request to `route` (e.g. "POST /channels/{channel_id}/messages")
        from now on: before it takes effect, or (after) once it has, before answering."""
        gate = Gate(self._counts.get(route, 0) + nth, after)
        self.gates[route] = gate
        return gate

    def rate_limit(self, route: str, *, retry_after: float, is_global: bool = False) -> None:
        """Answer the next request to `route` with 429 and `retry_after` (per route or global)."""
        self.faults.append(
            Fault(route, 429, {}, {}, 1, retry_after=retry_after, is_global=is_global)
        )

    def slash_interaction(
        self,
        subcommand: str,
        options: list[dict[str, Any]] | None = None,
        *,
        channel_id: int,
        command: str = "vllm",
        user_id: int = 222_222_222_222_222_222,
        autocomplete: bool = False,
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload for `/command subcommand options…`, registered here.

        The creation time is now: the 3-second deadline and response latency count from here.
        For autocomplete, mark the option being typed with ``"focused": True``.
        """
        interaction_id = self.snowflake()
        token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(60)
        kind = 4 if autocomplete else 2
        data = {
            "id": str(self.snowflake()),
            "name": command,
            "type": 1,
            "guild_id": str(self.guild_id),
            "options": [{"name": subcommand, "type": 1, "options": options or []}],
        }
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "guild_id": str(self.guild_id),
            "channel_id": str(channel_id),
            "channel": self._interaction_channel(channel_id),
            "member": {
                "user": {
                    "id": str(user_id),
                    "username": "tester",
                    "discriminator": "0",
                    "global_name": "Tester",
                    "avatar": None,
                },
                "roles": [],
                "joined_at": "2024-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": "2248473465835073",
            },
            "token": token,
            "version": 1,
            "app_permissions": "2248473465835073",
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": 10_485_760,
        }
        self.interactions[interaction_id] = FakeInteraction(
            interaction_id, token, kind, channel_id, time.monotonic(), payload
        )
        return payload

    def _interaction_channel(self, channel_id: int) -> dict[str, Any]:
        channel = self.channels.get(channel_id) or FakeChannel(channel_id, self.guild_id)
        return {**self._channel_object(channel), "permissions": "2248473465835073"}

    # ------------------------------------------------------------------ queries for tests

    def channel_messages(self, channel_id: int) -> list[FakeMessage]:
        return [m for m in self.messages if m.channel_id == channel_id]

    def thread_from(self, message_id: int) -> FakeThread | None:
        return next((t for t in self.threads.values() if t.starter_message_id == message_id), None)

    def callbacks_for(self, interaction_id: int) -> list[Callback]:
        return [c for c in self.callbacks if c.interaction_id == interaction_id]

    def requests_to(self, route: str) -> list[RequestRecord]:
        return [r for r in self.requests if r.route == route]

    def sent_bodies(self) -> list[dict[str, Any]]:
        """Every message body that reached Discord (accepted or not), in order."""
        return [
            r.json
            for r in self.requests
            if isinstance(r.json, dict)
            and (
                r.route
                in ("POST /channels/{channel_id}/messages", "POST /webhooks/{webhook_id}/{token}")
                or r.route.startswith("PATCH /webhooks/")
            )
        ]

    async def wait_for(self, predicate: Callable[[], bool], within: float = 5.0) -> None:
        """Wait until `predicate()` holds after some request; TimeoutError if it never does."""
        async with asyncio.timeout(within):
            async with self._changed:
                await self._changed.wait_for(predicate)

    # ------------------------------------------------------------------ middleware

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        if request.path == "/gateway":
            # A websocket, authenticated by IDENTIFY; REST headers and buckets do not apply.
            return await handler(request)
        now = time.monotonic()
        resource = request.match_info.route.resource
        template = resource.canonical.removeprefix(API_PREFIX) if resource else request.path
        route = f"{request.method} {template}"
        body: Any = None
        files: list[tuple[str, str, bytes]] = []
        if request.can_read_body:
            raw = await request.read()
            if request.content_type == "multipart/form-data":
                body, files = _multipart(request.headers["Content-Type"], raw)
            else:
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode(errors="replace")
        request[_FILES] = files
        record = RequestRecord(request.method, route, request.path, 0, now, body)
        self.requests.append(record)
        request[_JSON] = body
        headers: dict[str, str] = {}
        try:
            if resource is None:
                raise DiscordError(404, 0, "404: Not Found")
            bot_route = not template.startswith(("/webhooks/", "/interactions/"))
            if bot_route:
                self._check_auth(request)
                self._check_global(route, now)
            self._check_faults(route, request, now)
            headers = self._take_bucket(route, request, now)
            count = self._counts[route] = self._counts.get(route, 0) + 1
            gate = self.gates.get(route)
            if gate is not None and gate.nth != count:
                gate = None
            if gate is not None and not gate.after:
                await gate.pause()
                if gate.dropped:
                    raise DiscordError(503, 0, "dropped by the test")
            response = await handler(request)
            if gate is not None and gate.after:
                await gate.pause()
        except DiscordError as exc:
            response = exc.response()
        except _RateLimited as exc:
            response = exc.response
            headers = {}
        for key, value in headers.items():
            response.headers[key] = value
        record.status = response.status
        async with self._changed:
            self._changed.notify_all()
        return response

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordError(401, 0, "401: Unauthorized")

    def _check_global(self, route: str, now: float) -> None:
        if now < self._global_until:
            self.violations.append(f"{route} during a global rate limit")
            raise _RateLimited.build(self._global_until - now, is_global=True)
        while self._global_times and now - self._global_times[0] >= 1.0:
            self._global_times.popleft()
        if len(self._global_times) >= self.global_per_second:
            self.violations.append(f"{route} over the global limit")
            raise _RateLimited.build(1.0 - (now - self._global_times[0]), is_global=True)
        self._global_times.append(now)

    def _check_faults(self, route: str, request: web.Request, now: float) -> None:
        for fault in self.faults:
            if fault.route != route or fault.times <= 0:
                continue
            if fault.after > 0:
                fault.after -= 1
                continue
            fault.times -= 1
            if fault.status != 429:
                raise DiscordError(fault.status, fault.body["code"], fault.body["message"])
            assert fault.retry_after is not None
            if fault.is_global:
                self._global_until = now + fault.retry_after
            else:
                # The bucket stays closed for retry_after: retrying earlier is a violation.
                key = self._bucket_key(route, request)
                spec = self.buckets[key[0]]
                self._windows[key] = _Window(spec.limit, now + fault.retry_after)
            raise _RateLimited.build(fault.retry_after, is_global=fault.is_global, injected=True)

    def _bucket_key(self, route: str, request: web.Request) -> tuple[str, str]:
        name = _ROUTE_BUCKETS.get(route, "default")
        info = request.match_info
        major = (
            info.get("channel_id")
            or info.get("guild_id")
            or f"{info.get('webhook_id', '')}/{info.get('token', '')}"
        )
        if name == "interaction":
            major = info.get("interaction_id", "")
        return name, major

    def _take_bucket(self, route: str, request: web.Request, now: float) -> dict[str, str]:
        key = self._bucket_key(route, request)
        spec = self.buckets[key[0]]
        window = self._windows.get(key)
        if window is None or now >= window.reset_at:
            window = self._windows[key] = _Window(0, now + spec.window)
        reset_after = window.reset_at - now
        if window.count >= spec.limit:
            self.violations.append(f"{route} ({key[1]}) with its bucket exhausted")
            raise _RateLimited.build(reset_after, bucket=key[0], limit=spec.limit)
        window.count += 1
        return {
            "X-RateLimit-Limit": str(spec.limit),
            "X-RateLimit-Remaining": str(spec.limit - window.count),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": _bucket_hash(key[0]),
        }

    # ------------------------------------------------------------------ bot identity

    def _user(self) -> dict[str, Any]:
        return {
            "id": str(self.bot_user_id),
            "username": "vllm-bot",
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "bot": True,
            "flags": 0,
        }

    async def _me(self, request: web.Request) -> web.Response:
        return _json_response(self._user())

    async def _application(self, request: web.Request) -> web.Response:
        return _json_response(
            {
                "id": str(self.application_id),
                "name": "vllm-bot",
                "description": "",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": self._user(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
            }
        )

    # ------------------------------------------------------------------ gateway

    async def _gateway_socket(self, request: web.Request) -> web.WebSocketResponse:
        """The gateway, as far as a slash-command bot needs it (topics/gateway): HELLO,
        IDENTIFY with the bot token (4004 "Authentication failed" otherwise), READY, and
        heartbeats answered with HEARTBEAT_ACK. Frames are uncompressed JSON text, which
        discord.py reads as well as zlib-stream. Events are sent with `gateway_dispatch`."""
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        await socket.send_json(
            {"op": 10, "d": {"heartbeat_interval": 41_250}, "s": None, "t": None}
        )
        async for frame in socket:
            if frame.type != WSMsgType.TEXT:
                continue
            payload = json.loads(frame.data)
            op = payload.get("op")
            if op == 1:  # HEARTBEAT
                await socket.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:  # IDENTIFY
                if (payload.get("d") or {}).get("token") != self.token:
                    await socket.close(code=4004, message=b"Authentication failed.")
                    break
                self.gateway_sockets.append(socket)
                await self._send_event(socket, "READY", self._ready())
                self.gateway_identified.set()
        if socket in self.gateway_sockets:
            self.gateway_sockets.remove(socket)
        return socket

    def _ready(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self._user(),
            "guilds": [],  # none unavailable: discord.py need not wait for GUILD_CREATEs
            "session_id": secrets.token_hex(16),
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
        }

    async def _send_event(self, socket: web.WebSocketResponse, name: str, data: Any) -> None:
        self._gateway_seq += 1
        await socket.send_json({"op": 0, "t": name, "s": self._gateway_seq, "d": data})

    async def gateway_dispatch(self, name: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH event (e.g. INTERACTION_CREATE) to every identified session."""
        for socket in list(self.gateway_sockets):
            await self._send_event(socket, name, data)

    async def _gateway(self, request: web.Request) -> web.Response:
        return _json_response({"url": self.gateway_url})

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return _json_response(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    # ------------------------------------------------------------------ channels

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.channels.get(_int(request.match_info["channel_id"]))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if not channel.visible:
            raise DiscordError(403, 50001, "Missing Access")
        return channel

    def _channel_object(self, channel: FakeChannel) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        thread = self.threads.get(channel.id)
        if thread is not None:
            data |= {
                "owner_id": str(self.bot_user_id),
                "message_count": len(self.channel_messages(channel.id)),
                "member_count": 1,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": thread.auto_archive_duration,
                    "archive_timestamp": "2026-01-01T00:00:00+00:00",
                    "locked": False,
                },
            }
        return data

    async def _get_channel(self, request: web.Request) -> web.Response:
        return _json_response(self._channel_object(self._channel(request)))

    def _message_object(self, message: FakeMessage) -> dict[str, Any]:
        body = message.body
        author = self._user()
        if message.webhook_id is not None:
            author = {
                "id": str(message.webhook_id),
                "username": body.get("username") or "Digest",
                "discriminator": "0000",
                "avatar": None,
                "bot": True,
            }
        return {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "guild_id": str(self.guild_id),
            "type": 0,
            "content": body.get("content", ""),
            "embeds": body.get("embeds", []),
            "author": author,
            "webhook_id": str(message.webhook_id) if message.webhook_id else None,
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(message.id * 10 + i),
                    "filename": f["filename"],
                    "description": f.get("description"),
                    "size": len(f["data"]),
                    "url": f"https://cdn.fake/{message.id}/{f['filename']}",
                    "proxy_url": f"https://cdn.fake/{message.id}/{f['filename']}",
                }
                for i, f in enumerate(message.files)
            ],
            "components": [],
            "pinned": False,
            "flags": message.flags,
        }

    def _store(self, channel_id: int, body: dict, source: str, **kw: Any) -> FakeMessage:
        message = FakeMessage(self.snowflake(), channel_id, body, time.monotonic(), source, **kw)
        self.messages.append(message)
        return message

    async def _create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.type == FORUM:
            raise DiscordError(400, 50008, "Cannot send messages in a non-text channel")
        if not channel.can_send:
            raise DiscordError(403, 50013, "Missing Permissions")
        body = _json_object(request)
        validate_message(body, MESSAGE_KEYS, files=len(request[_FILES]))
        nonce = body.get("nonce")
        if nonce is not None:
            if isinstance(nonce, int):
                nonce = str(nonce)
            if not isinstance(nonce, str) or len(nonce) > NONCE_MAX:
                raise form_error({"nonce": _err("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer")})
            if body.get("enforce_nonce"):
                now = time.monotonic()
                for earlier in reversed(self.messages):
                    if now - earlier.received_at > NONCE_WINDOW:
                        break
                    if earlier.source == "bot" and earlier.nonce == nonce:
                        return _json_response(self._message_object(earlier) | {"nonce": nonce})
        files = _attachments(body, request[_FILES])
        # The nonce is a request field: the stored message keeps it apart from its content.
        content = {k: v for k, v in body.items() if k not in ("nonce", "enforce_nonce")}
        message = self._store(
            channel.id,
            content,
            "bot",
            flags=int(body.get("flags") or 0),
            files=files,
            nonce=nonce,
        )
        created = self._message_object(message)
        if nonce is not None:
            created["nonce"] = nonce  # echoed in the create answer only
        return _json_response(created)

    async def _get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        try:
            limit = int(request.query.get("limit", "50"))
        except ValueError:
            raise form_error({"limit": _err("NUMBER_TYPE_COERCE", "Value is not int.")}) from None
        if not 1 <= limit <= 100:
            raise form_error({"limit": _err("NUMBER_TYPE_MAX", "int value should be <= 100")})
        found = [m for m in self.messages if m.channel_id == channel.id]
        return _json_response([self._message_object(m) for m in found[::-1][:limit]])

    async def _start_thread(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message_id = _int(request.match_info["message_id"])
        starter = next(
            (m for m in self.messages if m.id == message_id and m.channel_id == channel.id), None
        )
        if starter is None:
            raise DiscordError(404, 10008, "Unknown Message")
        if not channel.can_create_threads:
            raise DiscordError(403, 50013, "Missing Permissions")
        if message_id in self.threads:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        body = _json_object(request)
        errors: dict[str, Any] = {}
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= THREAD_NAME_MAX:
            errors["name"] = _err("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        duration = body.get("auto_archive_duration", 4320)
        if duration not in ARCHIVE_DURATIONS:
            errors["auto_archive_duration"] = _err("BASE_TYPE_CHOICES", "Value must be one of …")
        if errors:
            raise form_error(errors)
        # A thread started from a message has the message's id (documented).
        thread = FakeThread(message_id, channel.id, message_id, name, duration, time.monotonic())
        self.threads[thread.id] = thread
        self.channels[thread.id] = FakeChannel(
            thread.id, channel.guild_id, PUBLIC_THREAD, name, parent_id=channel.id
        )
        return _json_response(self._channel_object(self.channels[thread.id]), status=201)

    # ------------------------------------------------------------------ webhooks

    async def _execute_webhook(self, request: web.Request) -> web.StreamResponse:
        webhook_id = _int(request.match_info["webhook_id"])
        token = request.match_info["token"]
        if webhook_id == self.application_id:
            return await self._followup(request, token)
        hook = self.webhooks.get(webhook_id)
        if hook is None or hook.token != token:
            raise DiscordError(404, 10015, "Unknown Webhook")
        body = _json_object(request)
        validate_message(body, WEBHOOK_KEYS)
        channel = self.channels[hook.channel_id]
        thread_name = body.get("thread_name")
        thread_id = request.query.get("thread_id")
        if thread_name is not None and thread_id is not None:
            raise form_error(
                {"thread_name": _err("THREAD_NAME_AND_ID", "thread_name or thread_id")}
            )
        target = channel.id
        if thread_id is not None:
            thread = self.threads.get(_int(thread_id))
            if thread is None or thread.parent_id != channel.id:
                raise DiscordError(404, 10003, "Unknown Channel")
            target = thread.id
        elif channel.type == FORUM:
            if not thread_name:
                raise DiscordError(
                    400,
                    220001,
                    "Webhooks posted to forum channels must have a thread_name or thread_id",
                )
            if len(thread_name) > THREAD_NAME_MAX:
                raise form_error(
                    {"thread_name": _err("BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")}
                )
            # A forum post: a new thread whose first message is this one (same id).
            target = self.snowflake()
            self.threads[target] = FakeThread(
                target, channel.id, None, thread_name, 4320, time.monotonic()
            )
            self.channels[target] = FakeChannel(
                target, channel.guild_id, PUBLIC_THREAD, thread_name, parent_id=channel.id
            )
        elif thread_name is not None:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        message = self._store(target, body, "webhook", webhook_id=hook.id)
        if request.query.get("wait", "false").lower() not in ("true", "1"):
            return web.Response(status=204)
        return _json_response(self._message_object(message))

    async def _get_webhook(self, request: web.Request) -> web.Response:
        hook = self.webhooks.get(_int(request.match_info["webhook_id"]))
        if hook is None or hook.token != request.match_info["token"]:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return _json_response(
            {
                "id": str(hook.id),
                "type": 1,
                "guild_id": str(self.guild_id),
                "channel_id": str(hook.channel_id),
                "name": "Digest",
                "avatar": None,
                "token": hook.token,
                "application_id": None,
            }
        )

    def _interaction_by_token(self, request: web.Request) -> FakeInteraction:
        token = request.match_info["token"]
        found = next((i for i in self.interactions.values() if i.token == token), None)
        if _int(request.match_info["webhook_id"]) != self.application_id or found is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return found

    async def _followup(self, request: web.Request, token: str) -> web.Response:
        interaction = self._interaction_by_token(request)
        if interaction.response_type not in (4, 5):
            raise DiscordError(404, 10015, "Unknown Webhook")
        body = _json_object(request)
        validate_message(body, WEBHOOK_KEYS)
        message = self._store(
            interaction.channel_id, body, "interaction", flags=int(body.get("flags") or 0)
        )
        interaction.followups.append(message)
        return _json_response(self._message_object(message))

    async def _edit_webhook_msg(self, request: web.Request) -> web.Response:
        interaction = self._interaction_by_token(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        body = _json_object(request)
        validate_message(body, MESSAGE_KEYS - {"nonce", "enforce_nonce"}, edit=True)
        message.body = {**message.body, **body}
        message.received_at = time.monotonic()
        return _json_response(self._message_object(message))

    async def _delete_webhook_msg(self, request: web.Request) -> web.Response:
        interaction = self._interaction_by_token(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        if message is interaction.original:
            interaction.deleted_original = True
        self.messages.remove(message)
        return web.Response(status=204)

    def _webhook_message(self, interaction: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            if interaction.original is None or interaction.deleted_original:
                raise DiscordError(404, 10008, "Unknown Message")
            return interaction.original
        found = next((m for m in interaction.followups if m.id == _int(message_id)), None)
        if found is None:
            raise DiscordError(404, 10008, "Unknown Message")
        return found

    # ------------------------------------------------------------------ interactions

    async def _callback(self, request: web.Request) -> web.Response:
        now = time.monotonic()
        interaction = self.interactions.get(_int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        body = _json_object(request)
        self.callbacks.append(Callback(interaction.id, int(body.get("type", 0)), body, now))
        if now - interaction.created_at > INTERACTION_DEADLINE:
            # Discord forgets interactions that were not answered in time.
            raise DiscordError(404, 10062, "Unknown interaction")
        if interaction.response_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        kind = body.get("type")
        data = body.get("data") or {}
        if interaction.type == 4:
            if kind != 8:
                raise form_error({"type": _err("INTERACTION_TYPE", "autocomplete needs type 8")})
            validate_choices(data)
        elif kind == 4:
            validate_message(
                data, WEBHOOK_KEYS - {"username", "avatar_url", "thread_name", "applied_tags"}
            )
        elif kind == 5:
            if set(data) - {"flags"}:
                raise form_error(
                    {"data": _err("UNKNOWN_FIELD", "deferred responses take flags only")}
                )
        else:
            raise form_error({"type": _err("BASE_TYPE_CHOICES", f"bad callback type {kind}")})
        interaction.response_type = kind
        flags = int(data.get("flags") or 0)
        info: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
        resource: dict[str, Any] = {"type": kind}
        if kind in (4, 5):
            message = self._store(
                interaction.channel_id, data if kind == 4 else {}, "interaction", flags=flags
            )
            interaction.original = message
            info |= {
                "response_message_id": str(message.id),
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(flags & EPHEMERAL),
            }
            resource["message"] = self._message_object(message)
        if request.query.get("with_response") in ("1", "true", "True"):
            return _json_response({"interaction": info, "resource": resource})
        return web.Response(status=204)

    # ------------------------------------------------------------------ app commands

    async def _put_commands(self, request: web.Request) -> web.Response:
        if _int(request.match_info["application_id"]) != self.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        guild = request.match_info.get("guild_id")
        body = request[_JSON]
        if not isinstance(body, list):
            raise form_error({"_errors": [{"code": "LIST_TYPE_CONVERT", "message": "list"}]})
        stored = []
        for index, command in enumerate(body):
            problems = validate_command(command)
            if problems:
                raise form_error({str(index): problems})
            stored.append(
                {
                    "id": str(self.snowflake()),
                    "application_id": str(self.application_id),
                    "version": str(self.snowflake()),
                    "type": command.get("type", 1),
                    "default_member_permissions": None,
                    "dm_permission": True,
                    "nsfw": False,
                    **({"guild_id": guild} if guild else {}),
                    **command,
                }
            )
        self.commands[_int(guild) if guild else None] = stored
        return _json_response(stored)

    async def _get_commands(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild_id")
        return _json_response(self.commands.get(_int(guild) if guild else None, []))


class _RateLimited(Exception):
    def __init__(self, response: web.Response) -> None:
        self.response = response

    @classmethod
    def build(
        cls,
        retry_after: float,
        *,
        is_global: bool = False,
        injected: bool = False,
        bucket: str = "default",
        limit: int = 1,
    ) -> _RateLimited:
        retry_after = max(retry_after, 0.001)
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": is_global,
        }
        headers = {
            "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Scope": "global" if is_global else "user",
            # Discord answers through Google's load balancer; discord.py treats a 429 without
            # a Via header as a Cloudflare ban and gives up instead of retrying.
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers |= {
                "X-RateLimit-Limit": str(limit),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                "X-RateLimit-Bucket": _bucket_hash(bucket),
            }
        response = _json_response(body, status=429, headers=headers)
        response.headers["X-Fake-Injected"] = "1" if injected else "0"
        return cls(response)


def _json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # Exactly "application/json", as Discord sends it: discord.py compares the header
    # verbatim and treats anything else (aiohttp adds "; charset=utf-8") as plain text.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _bucket_hash(name: str) -> str:
    return f"fake{abs(hash(name)) % 10**8:08d}"


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise form_error(
            {"id": _err("NUMBER_TYPE_COERCE", f"Value {text!r} is not snowflake.")}
        ) from None


def _multipart(content_type: str, raw: bytes) -> tuple[Any, list[tuple[str, str, bytes]]]:
    """payload_json and files[n] of a multipart/form-data body (Discord's upload form)."""
    from email.parser import BytesParser
    from email.policy import HTTP

    message = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw
    )
    body: Any = None
    files: list[tuple[str, str, bytes]] = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        data = part.get_payload(decode=True) or b""
        if name == "payload_json":
            try:
                body = json.loads(data)
            except ValueError:
                body = None
        elif isinstance(name, str) and name.startswith("files["):
            filename = part.get_filename() or ""
            files.append((name, filename, data))
    return body, files


def _attachments(body: dict[str, Any], files: list[tuple[str, str, bytes]]) -> list[dict]:
    """Uploaded files matched to payload_json's `attachments` ({id: n, filename,
    description} for files[n]), checked as Discord does."""
    if sum(len(data) for _, _, data in files) > UPLOAD_MAX:
        raise DiscordError(413, 40005, "Request entity too large")
    described = {str(a.get("id")): a for a in body.get("attachments") or [] if isinstance(a, dict)}
    out = []
    for name, filename, data in files:
        index = name.removeprefix("files[").removesuffix("]")
        meta = described.get(index, {})
        description = meta.get("description")
        if description is not None and len(str(description)) > ATTACHMENT_DESCRIPTION_MAX:
            raise form_error(
                {"attachments": _err("BASE_TYPE_MAX_LENGTH", "Must be 1024 or fewer in length.")}
            )
        if not filename:
            raise form_error({"files": _err("BASE_TYPE_REQUIRED", "filename is required")})
        out.append(
            {"filename": meta.get("filename") or filename, "description": description, "data": data}
        )
    return out


def _json_object(request: web.Request) -> dict[str, Any]:
    body = request[_JSON]
    if not isinstance(body, dict):
        raise DiscordError(400, 50109, "The request body contains invalid JSON.")
    return body


def _err(code: str, message: str) -> dict[str, Any]:
    return {"_errors": [{"code": code, "message": message}]}


def _max_len(errors: dict, key: str, value: Any, limit: int, *, required: bool = False) -> None:
    if value is None:
        if required:
            errors[key] = _err("BASE_TYPE_REQUIRED", "This field is required")
        return
    if not isinstance(value, str):
        errors[key] = _err("STRING_TYPE_CONVERT", "Must be a string.")
    elif required and not value.strip():
        errors[key] = _err("BASE_TYPE_REQUIRED", "This field is required")
    elif len(value) > limit:
        errors[key] = _err("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def validate_embed(embed: Any) -> tuple[dict[str, Any], int]:
    """Errors of one embed (Discord's nested form) and its character count toward 6,000."""
    if not isinstance(embed, dict):
        return _err("DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"), 0
    errors: dict[str, Any] = {}
    unknown = set(embed) - EMBED_KEYS
    if unknown:
        errors["_unknown"] = _err("UNKNOWN_FIELD", f"unknown embed keys {sorted(unknown)}")
    _max_len(errors, "title", embed.get("title"), TITLE_MAX)
    _max_len(errors, "description", embed.get("description"), DESCRIPTION_MAX)
    total = _len(embed.get("title")) + _len(embed.get("description"))
    url = embed.get("url")
    if url is not None and not (isinstance(url, str) and re.match(r"^https?://\S+$", url)):
        errors["url"] = _err("URL_TYPE_INVALID_URL", "Not a well formed URL.")
    color = embed.get("color")
    if color is not None and not (isinstance(color, int) and 0 <= color <= 0xFFFFFF):
        errors["color"] = _err("NUMBER_TYPE_MAX", "int value should be <= 16777215.")
    footer = embed.get("footer")
    if footer is not None:
        sub: dict[str, Any] = {}
        _max_len(
            sub,
            "text",
            footer.get("text") if isinstance(footer, dict) else None,
            FOOTER_MAX,
            required=True,
        )
        if sub:
            errors["footer"] = sub
        total += _len(footer.get("text")) if isinstance(footer, dict) else 0
    author = embed.get("author")
    if author is not None:
        sub = {}
        _max_len(
            sub,
            "name",
            author.get("name") if isinstance(author, dict) else None,
            AUTHOR_NAME_MAX,
            required=True,
        )
        if sub:
            errors["author"] = sub
        total += _len(author.get("name")) if isinstance(author, dict) else 0
    fields = embed.get("fields")
    if fields is not None:
        if not isinstance(fields, list) or len(fields) > FIELDS_MAX:
            errors["fields"] = _err(
                "BASE_TYPE_MAX_LENGTH", f"Must be {FIELDS_MAX} or fewer in length."
            )
        else:
            field_errors: dict[str, Any] = {}
            for i, item in enumerate(fields):
                sub = {}
                item = item if isinstance(item, dict) else {}
                _max_len(sub, "name", item.get("name"), FIELD_NAME_MAX, required=True)
                _max_len(sub, "value", item.get("value"), FIELD_VALUE_MAX, required=True)
                if sub:
                    field_errors[str(i)] = sub
                total += _len(item.get("name")) + _len(item.get("value"))
            if field_errors:
                errors["fields"] = field_errors
    return errors, total


def validate_message(
    body: dict[str, Any], keys: frozenset[str], *, edit: bool = False, files: int = 0
) -> None:
    """Raise Discord's 400 for a message body that breaks a documented limit (or our policy)."""
    errors: dict[str, Any] = {}
    unknown = set(body) - keys
    if unknown:
        errors["_unknown"] = _err("UNKNOWN_FIELD", f"unknown keys {sorted(unknown)}")
    content = body.get("content")
    _max_len(errors, "content", content, CONTENT_MAX)
    embeds = body.get("embeds")
    if embeds is not None:
        if not isinstance(embeds, list) or len(embeds) > EMBEDS_MAX:
            errors["embeds"] = _err(
                "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length."
            )
        else:
            embed_errors: dict[str, Any] = {}
            total = 0
            for i, embed in enumerate(embeds):
                problems, chars = validate_embed(embed)
                total += chars
                if problems:
                    embed_errors[str(i)] = problems
            if total > EMBEDS_TOTAL_MAX:
                embed_errors["_errors"] = [
                    {
                        "code": "MAX_EMBED_SIZE_EXCEEDED",
                        "message": f"Embed size exceeds maximum size of {EMBEDS_TOTAL_MAX}",
                    }
                ]
            if embed_errors:
                errors["embeds"] = embed_errors
    mentions = body.get("allowed_mentions")
    if mentions is None and not edit:
        errors["allowed_mentions"] = _err(
            "FAKE_POLICY", "vllm-bot must send allowed_mentions with every message"
        )
    elif mentions is not None and (
        not isinstance(mentions, dict)
        or mentions.get("parse") != []
        or mentions.get("users")
        or mentions.get("roles")
    ):
        errors["allowed_mentions"] = _err("FAKE_POLICY", "allowed_mentions must parse nothing")
    if errors:
        raise form_error(errors)
    # A message may be only an attachment (content, embeds, components, poll or files).
    if not edit and not (content or embeds or body.get("components") or body.get("poll") or files):
        raise DiscordError(400, 50006, "Cannot send an empty message")


def validate_choices(data: dict[str, Any]) -> None:
    choices = data.get("choices")
    errors: dict[str, Any] = {}
    if not isinstance(choices, list) or len(choices) > CHOICES_MAX:
        errors["choices"] = _err(
            "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICES_MAX} or fewer in length."
        )
    else:
        for i, choice in enumerate(choices):
            sub: dict[str, Any] = {}
            _max_len(sub, "name", choice.get("name"), CHOICE_NAME_MAX, required=True)
            value = choice.get("value")
            if isinstance(value, str):
                _max_len(sub, "value", value, CHOICE_VALUE_MAX, required=True)
            if sub:
                errors.setdefault("choices", {})[str(i)] = sub
    if errors:
        raise form_error({"data": errors})


def validate_command(command: Any) -> dict[str, Any]:
    """Errors of one application command (chat input) and its options, recursively."""
    if not isinstance(command, dict):
        return _err("DICT_TYPE_CONVERT", "command must be an object")
    errors: dict[str, Any] = {}
    name = command.get("name")
    if not isinstance(name, str) or not COMMAND_NAME.match(name) or name != name.lower():
        errors["name"] = _err("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = command.get("description")
    if command.get("type", 1) == 1 and not (
        isinstance(description, str) and 1 <= len(description) <= 100
    ):
        errors["description"] = _err("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    options = command.get("options") or []
    if len(options) > 25:
        errors["options"] = _err("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    else:
        for i, option in enumerate(options):
            sub = validate_command({**option, "type": 1})
            if len(option.get("choices") or []) > CHOICES_MAX:
                sub["choices"] = _err("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            if option.get("autocomplete") and option.get("choices"):
                sub["autocomplete"] = _err("AUTOCOMPLETE_AND_CHOICES", "not both")
            if sub:
                errors.setdefault("options", {})[str(i)] = sub
    return errors
