"""A local fake of the Slack Web API (and of slash-command `response_url`s) on 127.0.0.1.

The real slack_sdk / slack-bolt clients talk to it through `base_url`. It behaves as Slack
documents, strictly:

* Bearer token check (`not_authed`, `invalid_auth`); `auth.test` answers the bot identity.
* `chat.postMessage`: `channel_not_found` for unknown channels, `not_in_channel` for channels
  the bot was not invited to, `thread_not_found` for a `thread_ts` that is not a message of
  the channel; records every accepted message with its `ts` and `thread_ts`.
* Rate limits: HTTP 429 with `Retry-After` (queued per method); injected 5xx responses and
  dropped connections for transient failures.
* Block Kit validation of every message (chat.postMessage, chat.unfurl, response_url):
  https://docs.slack.dev/reference/block-kit/blocks — at most 50 blocks; section text 3,000
  and fields 10 × 2,000; header plain_text 150; context 1-10 elements; table rows 100 × 20
  cells and one table per message; block_id unique and at most 255; text objects non-empty.
  Failures answer `invalid_blocks` with an `errors` list naming the JSON pointer, as Slack does.
  Past a total text budget Slack answers `msg_blocks_too_long` although every block is valid
  (slackapi/bolt-js#2509 measured 13,172-13,297 characters); the fake uses 12,000.
  `text` longer than 40,000 is `msg_too_long`. Stricter than Slack: `text` is required even
  with blocks (Slack only warns), because the bot promises a notification fallback.

Time comes from an injectable clock, so tests can check pacing on the recorded `ts` values
without real waiting.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import WSMsgType, web

from tests.fakes.gates import Gate

MAX_BLOCKS = 50
SECTION_TEXT_MAX = 3000
FIELDS_MAX = 10
FIELD_TEXT_MAX = 2000
HEADER_TEXT_MAX = 150
CONTEXT_ELEMENTS_MAX = 10
TEXT_OBJECT_MAX = 3000
BLOCK_ID_MAX = 255
TABLE_ROWS_MAX = 100
TABLE_CELLS_MAX = 20
MARKDOWN_BLOCK_MAX = 12_000
BLOCKS_TEXT_BUDGET = 12_000
MESSAGE_TEXT_MAX = 40_000

KNOWN_BLOCKS = {
    "section",
    "header",
    "context",
    "divider",
    "table",
    "rich_text",
    "image",
    "actions",
    "markdown",
}


@dataclass(slots=True)
class Message:
    channel: str
    ts: str
    thread_ts: str | None
    text: str
    blocks: list[dict[str, Any]]
    at: float  # fake clock time of acceptance
    metadata: dict[str, Any] | None = None  # chat.postMessage `metadata`, as posted


@dataclass(slots=True)
class Rejection:
    method: str
    channel: str | None
    error: str
    status: int
    at: float


@dataclass(slots=True)
class Upload:
    """A file upload: started by files.getUploadURLExternal, bytes POSTed to its upload_url,
    shared by files.completeUploadExternal."""

    file_id: str
    filename: str
    length: int
    alt_txt: str | None
    data: bytes | None = None  # None until the bytes arrive
    channel: str | None = None  # set when completed (shared)
    thread_ts: str | None = None
    title: str | None = None
    initial_comment: str | None = None
    ts: str | None = None  # the file-share message's ts once shared in a channel


ALT_TEXT_MAX = 1000
HISTORY_LIMIT_MAX = 999  # conversations.history / replies: `limit` up to 999 (default 100)


@dataclass
class FakeSlack:
    token: str = "xoxb-fake-token"
    app_token: str = "xapp-fake-token"  # Socket Mode (apps.connections.open)
    channels: dict[str, bool] = field(default_factory=lambda: {"C1": True, "C2": True})
    clock: Callable[[], float] = time.time
    bot_user_id: str = "UBOT"
    team_id: str = "T1"
    messages: list[Message] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    responses: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    unfurls: list[dict[str, Any]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    uploads: dict[str, Upload] = field(default_factory=dict)
    # Scripted answers, consumed one per call of the method: ("pass", 0) answers normally;
    # ("429", seconds) answers 429 with Retry-After; ("5xx", status) an HTTP error;
    # ("drop", 0) closes the connection; ("error", "name") answers ok:false with that error.
    failures: dict[str, deque[tuple[str, float]]] = field(default_factory=dict)
    gates: dict[str, Gate] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._last_ts = 0.0
        self._sockets: list[web.WebSocketResponse] = []
        self.socket_connected = asyncio.Event()
        self._socket_acks: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._counts: dict[str, int] = {}

    # ------------------------------------------------------------------ lifecycle

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/"

    def response_url(self, key: str) -> str:
        return f"http://127.0.0.1:{self.port}/response/{key}"

    async def start(self) -> FakeSlack:
        app = web.Application()
        app.router.add_post("/api/{method}", self._api)
        app.router.add_get("/api/{method}", self._api)
        app.router.add_post("/response/{key}", self._response)
        app.router.add_post("/upload/{file_id}", self._upload_bytes)
        app.router.add_get("/socket", self._socket)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def close(self) -> None:
        for ws in self._sockets:
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeSlack:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def fail(self, method: str, *failures: tuple[str, float]) -> None:
        self.failures.setdefault(method, deque()).extend(failures)

    def hold(self, method: str, nth: int = 1, *, after: bool = False) -> Gate:
        """Pause the `nth` call of `method` from now on: before it takes effect, or (after)
        once it has, before answering. Returns the gate to wait on and release."""
        gate = Gate(self._counts.get(method, 0) + nth, after)
        self.gates[method] = gate
        return gate

    # ------------------------------------------------------------------ queries

    def channel_messages(self, channel: str) -> list[Message]:
        return [m for m in self.messages if m.channel == channel]

    # ------------------------------------------------------------------ handlers

    def _next_ts(self) -> str:
        now = max(self.clock(), self._last_ts + 0.000001)
        self._last_ts = now
        return f"{now:.6f}"

    async def _args(self, request: web.Request) -> dict[str, Any]:
        if request.content_type == "application/json":
            return await request.json()
        # Slack reads arguments from the query string as well as the form body.
        args: dict[str, Any] = dict(request.query) | dict(parse_qsl(await request.text()))
        for key in ("blocks", "unfurls"):
            if isinstance(args.get(key), str):
                args[key] = json.loads(args[key])
        return args

    def _error(self, method: str, channel: str | None, error: str, status: int = 200, **extra):
        self.rejections.append(Rejection(method, channel, error, status, self.clock()))
        return web.json_response({"ok": False, "error": error, **extra}, status=status)

    async def _api(self, request: web.Request) -> web.StreamResponse:
        method = request.match_info["method"]
        count = self._counts[method] = self._counts.get(method, 0) + 1
        gate = self.gates.get(method)
        if gate is not None and gate.nth != count:
            gate = None
        if gate is not None and not gate.after:
            await gate.pause()
            if gate.dropped:
                return web.Response(status=503, text="dropped by the test")
        response = await self._dispatch(request, method)
        if gate is not None and gate.after:
            await gate.pause()
        return response

    async def _dispatch(self, request: web.Request, method: str) -> web.StreamResponse:
        self.calls.append(method)
        args = await self._args(request)
        channel = args.get("channel")
        queued = self.failures.get(method)
        if queued:
            kind, value = queued.popleft()
            if kind == "pass":
                pass
            elif kind == "429":
                self.rejections.append(Rejection(method, channel, "ratelimited", 429, self.clock()))
                return web.json_response(
                    {"ok": False, "error": "ratelimited"},
                    status=429,
                    headers={"Retry-After": str(int(value))},
                )
            elif kind == "5xx":
                self.rejections.append(Rejection(method, channel, "http", int(value), self.clock()))
                return web.Response(status=int(value), text="upstream trouble")
            elif kind == "drop":
                self.rejections.append(Rejection(method, channel, "drop", 0, self.clock()))
                assert request.transport is not None
                request.transport.close()
                return web.Response()
            elif kind == "error":
                return self._error(method, channel, str(value))
        auth = request.headers.get("Authorization", "")
        token = auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else args.get("token")
        if not token:
            return self._error(method, channel, "not_authed")
        if method == "apps.connections.open":
            # Only an app-level token may open a Socket Mode connection.
            if token != self.app_token:
                return self._error(method, channel, "invalid_auth")
            return web.json_response({"ok": True, "url": f"ws://127.0.0.1:{self.port}/socket"})
        if token != self.token:
            return self._error(method, channel, "invalid_auth")
        if method == "auth.test":
            return web.json_response(
                {
                    "ok": True,
                    "url": "https://fake.slack.com/",
                    "team": "Fake",
                    "user": "vllm-bot",
                    "team_id": self.team_id,
                    "user_id": self.bot_user_id,
                    "bot_id": "BBOT",
                }
            )
        if method == "chat.postMessage":
            return self._post_message(args)
        if method == "chat.unfurl":
            return self._unfurl(args)
        if method == "files.getUploadURLExternal":
            return self._get_upload_url(args)
        if method == "files.completeUploadExternal":
            return self._complete_upload(args)
        if method == "conversations.history":
            return self._history(args)
        if method == "conversations.replies":
            return self._replies(args)
        return self._error(method, channel, "unknown_method", status=404)

    def _channel_error(self, channel: Any) -> str | None:
        if not isinstance(channel, str) or channel not in self.channels:
            return "channel_not_found"
        if not self.channels[channel]:
            return "not_in_channel"
        return None

    def _post_message(self, args: dict[str, Any]) -> web.Response:
        method, channel = "chat.postMessage", args.get("channel")
        error = self._channel_error(channel)
        if error:
            return self._error(method, channel, error)
        problem = validate_message(args)
        if problem is not None:
            error, errors = problem
            return self._error(method, channel, error, errors=errors)
        thread_ts = args.get("thread_ts")
        if thread_ts is not None and not any(
            m.channel == channel and m.ts == thread_ts and m.thread_ts is None
            for m in self.messages
        ):
            return self._error(method, channel, "thread_not_found")
        metadata = args.get("metadata")
        if isinstance(metadata, str):
            try:
                metadata = json.loads(metadata)
            except ValueError:
                return self._error(method, channel, "invalid_metadata_format")
        if metadata is not None and not (
            isinstance(metadata, dict)
            and isinstance(metadata.get("event_type"), str)
            and isinstance(metadata.get("event_payload"), dict)
        ):
            # docs.slack.dev/messaging/message-metadata: event_type and event_payload.
            return self._error(method, channel, "invalid_metadata_schema")
        ts = self._next_ts()
        message = Message(
            channel,
            ts,
            thread_ts,
            args.get("text", ""),
            args.get("blocks") or [],
            self.clock(),
            metadata,
        )
        self.messages.append(message)
        return web.json_response(
            {"ok": True, "channel": channel, "ts": ts, "message": {"text": message.text, "ts": ts}}
        )

    def shared_files(self, channel: str) -> list[Upload]:
        return [u for u in self.uploads.values() if u.channel == channel]

    def _get_upload_url(self, args: dict[str, Any]) -> web.Response:
        # https://docs.slack.dev/reference/methods/files.getUploadURLExternal: filename and
        # length (bytes) are required; alt_txt is at most 1,000 characters.
        method = "files.getUploadURLExternal"
        filename, length, alt = args.get("filename"), args.get("length"), args.get("alt_txt")
        try:
            size = int(length) if length is not None else 0
        except (TypeError, ValueError):
            size = 0
        if not filename or size <= 0:
            return self._error(method, None, "invalid_arguments")
        if alt is not None and len(str(alt)) > ALT_TEXT_MAX:
            return self._error(method, None, "invalid_arguments")
        file_id = f"F{len(self.uploads) + 1:08d}"
        self.uploads[file_id] = Upload(file_id, str(filename), size, alt)
        url = f"http://127.0.0.1:{self.port}/upload/{file_id}"
        return web.json_response({"ok": True, "upload_url": url, "file_id": file_id})

    async def _upload_bytes(self, request: web.Request) -> web.Response:
        upload = self.uploads.get(request.match_info["file_id"])
        self.calls.append("upload")
        if upload is None:
            return web.Response(status=404, text="unknown upload")
        body = await request.read()
        if len(body) != upload.length:
            # The declared length must match what arrives.
            return web.Response(status=400, text=f"length mismatch: {len(body)} != {upload.length}")
        upload.data = body
        return web.Response(text=f"OK - {len(body)}")

    def _complete_upload(self, args: dict[str, Any]) -> web.Response:
        # https://docs.slack.dev/reference/methods/files.completeUploadExternal
        method = "files.completeUploadExternal"
        files = args.get("files")
        if isinstance(files, str):
            files = json.loads(files)
        if not isinstance(files, list) or not files:
            return self._error(method, None, "invalid_arguments")
        channel, thread_ts = args.get("channel_id"), args.get("thread_ts")
        if channel is not None:
            error = self._channel_error(channel)
            if error:
                return self._error(method, channel, error)
        if thread_ts is not None and not any(
            m.channel == channel and m.ts == thread_ts and m.thread_ts is None
            for m in self.messages
        ):
            # thread_ts must be a parent message of that channel ("never a reply's ts").
            return self._error(method, channel, "thread_not_found")
        done = []
        for item in files:
            upload = self.uploads.get(str(item.get("id")))
            if upload is None or upload.data is None or upload.channel is not None:
                return self._error(method, channel, "file_not_found")
            done.append((upload, item.get("title")))
        for upload, title in done:
            upload.channel, upload.thread_ts = channel, thread_ts
            upload.ts = self._next_ts() if channel is not None else None
            upload.title = title or upload.filename
            upload.initial_comment = args.get("initial_comment")
        return web.json_response(
            {"ok": True, "files": [{"id": u.file_id, "title": u.title} for u, _ in done]}
        )

    # ------------------------------------------------------------------ reading messages

    def _message_object(self, item: Message | Upload, metadata: bool) -> dict[str, Any]:
        """A message as conversations.history/replies return it: metadata only with
        include_all_metadata; a shared file as a file-share message with `files`."""
        if isinstance(item, Upload):
            found: dict[str, Any] = {
                "type": "message",
                "subtype": "file_share",
                "ts": item.ts,
                "text": item.initial_comment or "",
                "bot_id": "BBOT",
                "files": [{"id": item.file_id, "name": item.filename, "title": item.title}],
            }
            thread_ts = item.thread_ts
        else:
            found = {"type": "message", "ts": item.ts, "text": item.text, "bot_id": "BBOT"}
            if item.blocks:
                found["blocks"] = item.blocks
            if metadata and item.metadata is not None:
                found["metadata"] = item.metadata
            thread_ts = item.thread_ts
        if thread_ts is not None:
            found["thread_ts"] = thread_ts
        return found

    def _timeline(self, channel: str) -> list[Message | Upload]:
        items: list[Message | Upload] = [m for m in self.messages if m.channel == channel]
        items += [u for u in self.uploads.values() if u.channel == channel and u.ts]
        return sorted(items, key=lambda m: float(m.ts or 0))

    def _page(
        self, method: str, args: dict[str, Any], items: list[Message | Upload]
    ) -> web.Response:
        try:
            limit = int(args.get("limit") or 100)
            offset = int(args.get("cursor") or 0)
        except (TypeError, ValueError):
            return self._error(method, args.get("channel"), "invalid_cursor")
        limit = max(1, min(limit, HISTORY_LIMIT_MAX))
        metadata = str(args.get("include_all_metadata", "")).lower() in ("true", "1")
        page = items[offset : offset + limit]
        more = offset + limit < len(items)
        return web.json_response(
            {
                "ok": True,
                "messages": [self._message_object(m, metadata) for m in page],
                "has_more": more,
                "response_metadata": {"next_cursor": str(offset + limit) if more else ""},
            }
        )

    def _history(self, args: dict[str, Any]) -> web.Response:
        # https://docs.slack.dev/reference/methods/conversations.history: top-level
        # messages (and thread parents), newest first.
        channel = args.get("channel")
        error = self._channel_error(channel)
        if error:
            return self._error("conversations.history", channel, error)
        roots = [m for m in self._timeline(str(channel)) if m.thread_ts is None]
        return self._page("conversations.history", args, roots[::-1])

    def _replies(self, args: dict[str, Any]) -> web.Response:
        # https://docs.slack.dev/reference/methods/conversations.replies: the parent
        # first, then its replies oldest first; an unknown ts is thread_not_found.
        method, channel, ts = "conversations.replies", args.get("channel"), args.get("ts")
        error = self._channel_error(channel)
        if error:
            return self._error(method, channel, error)
        timeline = self._timeline(str(channel))
        parent = [m for m in timeline if m.ts == ts and m.thread_ts is None]
        if not parent:
            return self._error(method, channel, "thread_not_found")
        return self._page(method, args, parent + [m for m in timeline if m.thread_ts == ts])

    def _unfurl(self, args: dict[str, Any]) -> web.Response:
        method, channel = "chat.unfurl", args.get("channel")
        if not ((channel and args.get("ts")) or (args.get("unfurl_id") and args.get("source"))):
            return self._error(method, channel, "missing_ts" if channel else "missing_channel")
        if channel and self._channel_error(channel):
            return self._error(method, channel, "cannot_find_channel")
        unfurls = args.get("unfurls")
        if not isinstance(unfurls, dict) or not unfurls:
            return self._error(method, channel, "missing_unfurls")
        for url, unfurl in unfurls.items():
            problem = validate_blocks(unfurl.get("blocks") or [], f"/unfurls/{url}/blocks")
            if problem is not None:
                error, errors = problem
                return self._error(method, channel, error, errors=errors)
        self.unfurls.append(args)
        return web.json_response({"ok": True})

    async def _response(self, request: web.Request) -> web.Response:
        # response_url: Slack answers plain "ok", or a 4xx text error for a bad payload.
        body = await request.json()
        key = request.match_info["key"]
        if not body.get("text") and not body.get("blocks"):
            return web.Response(status=400, text="no_text")
        problem = validate_message(body)
        if problem is not None:
            self.rejections.append(Rejection("response_url", key, problem[0], 400, self.clock()))
            return web.Response(status=400, text=problem[0])
        self.responses.append((key, body))
        return web.Response(text="ok")

    # ------------------------------------------------------------------ Socket Mode

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_json(
            {"type": "hello", "num_connections": 1, "connection_info": {"app_id": "A1"}}
        )
        self.socket_connected.set()
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            waiter = self._socket_acks.get(data.get("envelope_id", ""))
            if waiter is not None and not waiter.done():
                waiter.set_result(data)
        return ws

    async def socket_request(self, envelope_type: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Send an envelope to the connected app; return its acknowledgement message."""
        envelope_id = f"env-{len(self._socket_acks) + 1}"
        waiter = asyncio.get_running_loop().create_future()
        self._socket_acks[envelope_id] = waiter
        await self._sockets[-1].send_json(
            {
                "envelope_id": envelope_id,
                "type": envelope_type,
                "accepts_response_payload": envelope_type == "slash_commands",
                "payload": payload,
            }
        )
        return await asyncio.wait_for(waiter, 5)


# ---------------------------------------------------------------------------- validation


def _text_len(obj: Any) -> int:
    return len(obj.get("text", "")) if isinstance(obj, dict) else 0


def _check_text_object(obj: Any, where: str, limit: int, errors: list[str], plain=False) -> int:
    if not isinstance(obj, dict) or obj.get("type") not in ("plain_text", "mrkdwn"):
        errors.append(f"must provide a text object [json-pointer:{where}]")
        return 0
    if plain and obj["type"] != "plain_text":
        errors.append(f"must be plain_text [json-pointer:{where}/type]")
    text = obj.get("text")
    if not isinstance(text, str) or not text:
        errors.append(f"must be more than 0 characters [json-pointer:{where}/text]")
        return 0
    if len(text) > limit:
        errors.append(f"must be less than {limit + 1} characters [json-pointer:{where}/text]")
    return len(text)


def _cell_chars(cell: Any) -> int:
    if not isinstance(cell, dict):
        return 0
    if cell.get("type") == "raw_text":
        return len(cell.get("text", ""))
    return len(json.dumps(cell.get("elements", []), ensure_ascii=False))


def validate_blocks(blocks: Any, pointer: str = "/blocks") -> tuple[str, list[str]] | None:
    """Slack's error for `blocks`, or None when they would be accepted."""
    if not isinstance(blocks, list):
        return "invalid_blocks_format", [f"must be an array [json-pointer:{pointer}]"]
    errors: list[str] = []
    if len(blocks) > MAX_BLOCKS:
        errors.append(f"no more than {MAX_BLOCKS} items allowed [json-pointer:{pointer}]")
    ids: set[str] = set()
    tables = 0
    chars = 0
    for i, block in enumerate(blocks):
        where = f"{pointer}/{i}"
        kind = block.get("type") if isinstance(block, dict) else None
        if kind not in KNOWN_BLOCKS:
            errors.append(f"unsupported type: {kind} [json-pointer:{where}/type]")
            continue
        block_id = block.get("block_id")
        if block_id is not None:
            if not isinstance(block_id, str) or not 0 < len(block_id) <= BLOCK_ID_MAX:
                errors.append(
                    f"must be 1-{BLOCK_ID_MAX} characters [json-pointer:{where}/block_id]"
                )
            elif block_id in ids:
                errors.append(f"duplicate block_id {block_id} [json-pointer:{where}/block_id]")
            ids.add(str(block_id))
        if kind == "section":
            if "text" not in block and "fields" not in block:
                errors.append(f"must provide text or fields [json-pointer:{where}]")
            if "text" in block:
                chars += _check_text_object(
                    block["text"], f"{where}/text", SECTION_TEXT_MAX, errors
                )
            fields = block.get("fields", [])
            if len(fields) > FIELDS_MAX:
                errors.append(
                    f"no more than {FIELDS_MAX} items allowed [json-pointer:{where}/fields]"
                )
            for j, f in enumerate(fields):
                chars += _check_text_object(f, f"{where}/fields/{j}", FIELD_TEXT_MAX, errors)
        elif kind == "header":
            chars += _check_text_object(
                block.get("text"), f"{where}/text", HEADER_TEXT_MAX, errors, plain=True
            )
        elif kind == "context":
            elements = block.get("elements") or []
            if not 1 <= len(elements) <= CONTEXT_ELEMENTS_MAX:
                errors.append(
                    f"must have 1-{CONTEXT_ELEMENTS_MAX} items [json-pointer:{where}/elements]"
                )
            for j, element in enumerate(elements):
                if isinstance(element, dict) and element.get("type") == "image":
                    continue
                chars += _check_text_object(
                    element, f"{where}/elements/{j}", TEXT_OBJECT_MAX, errors
                )
        elif kind == "table":
            tables += 1
            rows = block.get("rows") or []
            if not 1 <= len(rows) <= TABLE_ROWS_MAX:
                errors.append(f"must have 1-{TABLE_ROWS_MAX} rows [json-pointer:{where}/rows]")
            for j, row in enumerate(rows):
                if not isinstance(row, list) or not 1 <= len(row) <= TABLE_CELLS_MAX:
                    errors.append(
                        f"must have 1-{TABLE_CELLS_MAX} cells [json-pointer:{where}/rows/{j}]"
                    )
                    continue
                for k, cell in enumerate(row):
                    if not isinstance(cell, dict) or cell.get("type") not in (
                        "raw_text",
                        "rich_text",
                    ):
                        errors.append(f"invalid cell [json-pointer:{where}/rows/{j}/{k}]")
                    chars += _cell_chars(cell)
        elif kind == "markdown":
            text = block.get("text", "")
            if not text or len(text) > MARKDOWN_BLOCK_MAX:
                errors.append(f"must be 1-{MARKDOWN_BLOCK_MAX} characters [json-pointer:{where}]")
            chars += len(text)
    if tables > 1:
        errors.append(f"only one table allowed per message [json-pointer:{pointer}]")
    if errors:
        return "invalid_blocks", errors
    if chars > BLOCKS_TEXT_BUDGET:
        return "msg_blocks_too_long", [f"{chars} characters of block text"]
    return None


def validate_message(args: dict[str, Any]) -> tuple[str, list[str]] | None:
    text = args.get("text")
    blocks = args.get("blocks")
    if not text:
        # Slack only warns (missing_text_in_blocks) when blocks are given; we refuse.
        return "no_text", ["text is required as the notification fallback"]
    if len(text) > MESSAGE_TEXT_MAX:
        return "msg_too_long", [f"text is {len(text)} characters"]
    if blocks is not None:
        return validate_blocks(blocks)
    return None


class VirtualClock:
    """Time that passes only when someone sleeps: pacing checks without real waiting."""

    def __init__(self, start: float = 1_780_000_000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)
