"""Posting a rendered document to Discord: through the bot, or through a channel webhook.

Both go through discord.py, which implements Discord's rate limits for us: it reads the
bucket headers (``X-RateLimit-Remaining`` / ``Reset-After`` / ``Bucket``) and waits *before*
a request that would exceed a bucket, sleeps ``retry_after`` on a 429 and holds every other
request while a global limit lasts, and retries 5xx answers a bounded number of times. The
tests check this against a fake Discord that counts every request made too early.

Layout (see ``formatters.discord``): body 0 is the summary in the channel; the details go,
in order, in a thread started from it (``POST /channels/{id}/messages/{mid}/threads``).
The thread is created when the first detail is posted, after the summary is in the ledger,
so a crash in between cannot post the summary twice; a thread started from a message has
that message's id, so a resumed run finds it again without a lookup.

Webhooks cannot start a thread from a message in a text channel, so a webhook target posts
the details after the summary in the channel itself. In a forum channel (Discord requires a
``thread_name`` there) the summary opens a new post named after the document and the
details go in it; a webhook URL with ``?thread_id=`` posts everything in that thread.

Delivery is `bot.delivery.deliver` with platform "discord": resumable and idempotent.
Every message carries ``allowed_mentions: {"parse": []}`` whatever the payload says.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import logging
import re
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING

import aiohttp
import discord
from discord.http import HTTPClient, Route, handle_message_parameters

from bot.core.errors import BotError, ConfigError, PermanentError, TransientError
from bot.core.messages import Text
from bot.core.models import JSON
from bot.delivery import (
    Attachment,
    DeliveryResult,
    Sent,
    attachment_of,
    deliver,
    with_attachment,
)
from bot.discord.endpoints import DiscordEndpoints, apply_endpoints
from formatters import limits

if TYPE_CHECKING:
    from bot.core.config import Environment
    from bot.discord.endpoints import DiscordEndpoints
    from bot.store.deliveries import Deliveries

log = logging.getLogger(__name__)

PLATFORM = "discord"
ALLOWED_MENTIONS: dict[str, list[str]] = {"parse": []}  # = AllowedMentions.none().to_dict()
# A week: the weekly digest's thread stays in the channel's thread list until the next one.
THREAD_ARCHIVE_MINUTES = 10080
# How many of a channel's latest messages a takeover reads to find a crashed run's post.
FIND_LIMIT = 50

# Discord JSON error codes (topics/opcodes-and-status-codes#json-json-error-codes).
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
MISSING_ACCESS = 50001
NOT_TEXT_CHANNEL = 50008
MISSING_PERMISSIONS = 50013
INVALID_FORM_BODY = 50035
THREAD_ALREADY_CREATED = 160004
FORUM_NEEDS_THREAD = 220001

PERMISSIONS = (
    "View Channel, Send Messages, Embed Links, Create Public Threads and Send Messages in Threads"
)

_WEBHOOK_URL = re.compile(
    r"/webhooks/(?P<id>\d{15,21})/(?P<token>[A-Za-z0-9._-]{20,})/?(?:\?(?P<query>.*))?$"
)


class DiscordPostError(PermanentError):
    """A permanent Discord error: retrying cannot help, someone has to fix something."""

    service = "discord"

    def __init__(self, message: str | Text, *, channel: str, status: int, code: int) -> None:
        super().__init__(message)
        self.channel = channel
        self.status = status
        self.code = code


class DiscordUnavailable(TransientError):
    """Discord kept failing transiently past discord.py's retries; a re-run resumes."""

    service = "discord"


def explain(
    exc: discord.HTTPException, channel: str, *, doing: Text, webhook: bool = False
) -> Text:
    """One line: what went wrong posting to `channel` and what to change."""
    code, status = exc.code, exc.status
    said = {"channel": channel, "doing": doing}
    if status == 401:
        if webhook:
            return Text("error.discord.webhook_refused", said)
        return Text("error.discord.token_refused", said)
    if code == UNKNOWN_WEBHOOK:
        return Text("error.discord.unknown_webhook", said)
    if code == UNKNOWN_CHANNEL:
        return Text("error.discord.unknown_channel", said)
    if code == MISSING_ACCESS:
        return Text("error.discord.missing_access", said)
    if code == MISSING_PERMISSIONS:
        return Text("error.discord.missing_permissions", {**said, "permissions": PERMISSIONS})
    if code == NOT_TEXT_CHANNEL:
        return Text("error.discord.not_text", said)
    if code == UNKNOWN_MESSAGE:
        return Text("error.discord.summary_deleted", said)
    # Discord's codes as strings: "50035", not a grouped count.
    if code == INVALID_FORM_BODY or status == 400:
        return Text("error.discord.invalid", {**said, "code": str(code), "detail": exc.text[:300]})
    return Text(
        "error.discord.refused",
        {**said, "status": str(status), "code": str(code), "detail": exc.text[:200]},
    )


def _posting(index: int) -> Text:
    if index == 0:
        return Text("error.discord.doing.summary")
    return Text("error.discord.doing.part", {"part": index + 1})


def _with_policy(payload: JSON) -> JSON:
    # The renderer sets it too; the poster is the last line of defence against pings.
    return {**payload, "allowed_mentions": ALLOWED_MENTIONS}


def _transient(exc: BaseException, channel: str, index: int) -> DiscordUnavailable:
    what = f"HTTP {exc.status}" if isinstance(exc, discord.HTTPException) else type(exc).__name__
    return DiscordUnavailable(
        Text("error.discord.kept_failing", {"what": what, "part": index + 1, "channel": channel})
    )


def _failure(
    exc: BaseException, channel: str, index: int, doing: Text, *, webhook: bool = False
) -> BotError:
    """The error a failed post raises: transient ones (5xx, connection) resume on a re-run;
    anything else Discord refused is permanent and says what to fix."""
    if isinstance(exc, discord.DiscordServerError) or not isinstance(exc, discord.HTTPException):
        return _transient(exc, channel, index)
    return DiscordPostError(
        explain(exc, channel, doing=doing, webhook=webhook),
        channel=channel,
        status=exc.status,
        code=exc.code,
    )


class DiscordPoster:
    """Posts through a logged-in discord.py `HTTPClient` (``client.http``)."""

    def __init__(self, http: HTTPClient, *, archive_minutes: int = THREAD_ARCHIVE_MINUTES):
        self.http = http
        self.archive_minutes = archive_minutes
        self._threads_started: set[str] = set()

    async def send_message(
        self, channel_id: str, payload: JSON, *, nonce: str | None = None
    ) -> JSON:
        """POST one message. With a `nonce`, `enforce_nonce` makes Discord return the
        message it already created with that nonce (in the past few minutes) instead of a
        second one: a resend after a crash or a timeout cannot duplicate."""
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=int(channel_id))
        body = _with_policy(payload)
        if nonce is not None:
            body = {**body, "nonce": nonce, "enforce_nonce": True}
        message: JSON = await self.http.request(route, json=body)  # JSON boundary
        return message

    async def find_message(self, channel_id: str, payload: JSON) -> Sent | None:
        """A message the bot already posted in `channel_id` (a channel or thread) with the
        same content and embeds as `payload`, among the latest ones; None when there is
        none or the channel does not exist (a thread never started)."""
        route = Route("GET", "/channels/{channel_id}/messages", channel_id=int(channel_id))
        try:
            messages = await self.http.request(route, params={"limit": FIND_LIMIT})
        except discord.NotFound:
            return None
        file = attachment_of(payload)
        for message in messages or []:
            if not (message.get("author") or {}).get("bot"):
                continue
            if file is not None:
                names = [a.get("filename") for a in message.get("attachments") or []]
                if file.filename in names:
                    return Sent(str(message["id"]))
            elif _same_message(message, payload):
                return Sent(str(message["id"]))
        return None

    async def send_file(
        self,
        channel_id: str,
        data: bytes,
        *,
        filename: str,
        alt_text: str,
        content: str | None = None,
        nonce: str | None = None,
    ) -> Sent:
        """One message with `data` attached (the trends chart), in a channel or thread
        (a thread's id is a channel id). The attachment's description is its alt text
        (Discord caps it at 1,024 characters)."""
        alt = alt_text if len(alt_text) <= 1024 else alt_text[:1023] + "…"
        file = discord.File(io.BytesIO(data), filename=filename, description=alt)
        try:
            with handle_message_parameters(
                content=content,
                file=file,
                nonce=nonce,
                allowed_mentions=discord.AllowedMentions.none(),
            ) as params:
                message = await self.http.send_message(int(channel_id), params=params)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            raise _failure(exc, channel_id, 0, Text("error.discord.doing.chart")) from exc
        return Sent(str(message["id"]), channel_id)

    async def ensure_thread(self, channel_id: str, message_id: str, name: str) -> str:
        """The thread started from `message_id`, creating it unless this run already did."""
        if message_id in self._threads_started:
            return message_id
        try:
            thread = await self.http.start_thread_with_message(
                int(channel_id),
                int(message_id),
                name=name,
                auto_archive_duration=self.archive_minutes,  # type: ignore[arg-type]
            )
            thread_id = str(thread["id"])
        except discord.HTTPException as exc:
            if exc.code != THREAD_ALREADY_CREATED:
                raise
            # A resumed run: the previous one created it; its id is the message's.
            thread_id = message_id
        self._threads_started.add(thread_id)
        return thread_id

    async def post_document(
        self,
        store: Deliveries,
        *,
        document_id: str,
        channel: str,
        payloads: Sequence[JSON],
        thread_name: str,
        force: bool = False,
        attachment: Attachment | None = None,
    ) -> DeliveryResult:
        """Post `payloads` (``render_discord`` output) to `channel`, resuming via the ledger;
        then `attachment` (the chart) as the thread's last part."""
        channel = str(channel)
        payloads = with_attachment(payloads, attachment)

        # --force posts again on purpose: nonces Discord has not seen in its window.
        again = uuid.uuid4().hex if force else ""

        async def send(index: int, payload: JSON, thread: str | None) -> Sent:
            doing = _posting(index)
            nonce = part_nonce(document_id, channel, index, again)
            try:
                if thread is None:
                    message = await self.send_message(channel, payload, nonce=nonce)
                    return Sent(str(message["id"]))
                doing = Text("error.discord.doing.thread")
                thread_id = await self.ensure_thread(channel, thread, thread_name)
                file = attachment_of(payload)
                if file is not None:
                    sent = await self.send_file(
                        thread_id,
                        file.data,
                        filename=file.filename,
                        alt_text=file.alt_text,
                        nonce=nonce,
                    )
                    return Sent(sent.message_id, thread_id)
                doing = Text("error.discord.doing.thread_part", {"part": index + 1})
                message = await self.send_message(thread_id, payload, nonce=nonce)
                return Sent(str(message["id"]), thread_id)
            except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
                raise _failure(exc, channel, index, doing) from exc

        async def find(index: int, payload: JSON, thread: str | None) -> Sent | None:
            # A thread started from the summary has the summary's id.
            where = channel if thread is None else thread
            try:
                found = await self.find_message(where, payload)
            except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
                raise _failure(exc, channel, index, Text("error.discord.doing.read")) from exc
            if found is not None and thread is not None:
                return Sent(found.message_id, thread)
            return found

        return await deliver(
            store,
            document_id=document_id,
            platform=PLATFORM,
            channel=channel,
            payloads=payloads,
            send=send,
            force=force,
            find=find,
        )


def part_nonce(document_id: str, channel: str, index: int, again: str = "") -> str:
    """The same 25 characters (Discord's nonce limit) for every attempt at one part (`again`
    sets a forced re-post apart)."""
    key = f"{document_id}\n{channel}\n{index}" + (f"\n{again}" if again else "")
    digest = hashlib.sha256(key.encode()).digest()
    return "v" + base64.b32encode(digest).decode().lower()[:24]


def _same_message(message: JSON, payload: JSON) -> bool:
    """Whether a fetched message is `payload` as posted: content and each embed's title
    and description (what Discord returns as sent; it fills in other embed fields)."""
    if (message.get("content") or "") != (payload.get("content") or ""):
        return False
    got, want = message.get("embeds") or [], payload.get("embeds") or []
    if len(got) != len(want):
        return False
    return all(
        (g.get("title"), g.get("description")) == (w.get("title"), w.get("description"))
        for g, w in zip(got, want, strict=True)
    )


def parse_webhook_url(url: str) -> tuple[int, str, int | None]:
    """(webhook id, token, thread id from ``?thread_id=``) of a channel webhook URL.

    Any host is accepted: requests go to DISCORD_API_URL like every other Discord call,
    so the same URL works against a proxy or a local fake.
    """
    match = _WEBHOOK_URL.search(url.strip())
    if match is None:
        raise ConfigError(Text("error.discord.webhook_url"))
    thread_id = None
    for part in (match["query"] or "").split("&"):
        key, _, value = part.partition("=")
        if key == "thread_id" and value.isascii() and value.isdigit():
            thread_id = int(value)
    return int(match["id"]), match["token"], thread_id


class DiscordWebhookPoster:
    """Posts through a channel webhook (no bot connection needed)."""

    def __init__(self, url: str, session: aiohttp.ClientSession) -> None:
        webhook_id, token, self.fixed_thread = parse_webhook_url(url)
        self.webhook = discord.Webhook.partial(webhook_id, token, session=session)

    async def _send(
        self, payload: JSON, *, thread: int | None = None, thread_name: str | None = None
    ) -> discord.WebhookMessage:
        kwargs: JSON = {"wait": True, "allowed_mentions": discord.AllowedMentions.none()}
        if payload.get("content"):
            kwargs["content"] = payload["content"]
        if payload.get("embeds"):
            kwargs["embeds"] = [discord.Embed.from_dict(e) for e in payload["embeds"]]
        if thread is not None:
            kwargs["thread"] = discord.Object(thread)
        if thread_name is not None:
            kwargs["thread_name"] = thread_name
        # `wait=True` makes discord.py return the message; its overloads cannot see that
        # through **kwargs.
        message: discord.WebhookMessage = await self.webhook.send(**kwargs)
        return message

    async def post_document(
        self,
        store: Deliveries,
        *,
        document_id: str,
        channel: str,
        payloads: Sequence[JSON],
        thread_name: str,
        force: bool = False,
    ) -> DeliveryResult:
        """Post `payloads` through the webhook; `channel` names the target in the ledger."""
        channel = str(channel)
        # Forum mode is known from this run's first post or, on resume, from the ledger:
        # only a forum post records a thread id with the summary.
        ledger = {} if force else await store.sent(document_id, PLATFORM, channel)
        root = ledger.get(0)
        forum_thread: int | None = int(root.thread_id) if root and root.thread_id else None

        async def send(index: int, payload: JSON, thread: str | None) -> Sent:
            nonlocal forum_thread
            try:
                if self.fixed_thread is not None:
                    message = await self._send(payload, thread=self.fixed_thread)
                    return Sent(str(message.id))
                if index > 0:
                    message = await self._send(payload, thread=forum_thread)
                    return Sent(str(message.id))
                try:
                    message = await self._send(payload)
                    return Sent(str(message.id))
                except discord.HTTPException as exc:
                    # Discord's answer for a forum channel; the text check guards the code.
                    if exc.code != FORUM_NEEDS_THREAD and "thread_name" not in exc.text:
                        raise
                message = await self._send(payload, thread_name=thread_name)
                forum_thread = message.channel.id
                return Sent(str(message.id), str(forum_thread))
            except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
                raise _failure(exc, channel, index, _posting(index), webhook=True) from exc

        return await deliver(
            store,
            document_id=document_id,
            platform=PLATFORM,
            channel=channel,
            payloads=payloads,
            send=send,
            force=force,
        )


async def _logged_in_http(env: Environment) -> HTTPClient:
    """A REST client logged in with DISCORD_BOT_TOKEN at DISCORD_API_URL (no gateway)."""
    token = env.discord_bot_token.get_secret_value() if env.discord_bot_token else None
    if not token:
        raise ConfigError(Text("error.discord.no_bot_token"))
    # First, so a one-off run talks to the same Discord (or fake) as the long-running bot.
    apply_endpoints(DiscordEndpoints.from_env(env))
    http = HTTPClient(asyncio.get_running_loop())
    try:
        await http.static_login(token)
    except discord.LoginFailure:
        await http.close()
        raise DiscordPostError(
            Text("error.discord.token_rejected"),
            channel="",
            status=401,
            code=0,
        ) from None
    except BaseException:
        await http.close()
        raise
    return http


class DiscordRestPoster:
    """The process's bot REST connection for posting: logged in on first use, kept open.

    One per process (`App.discord_poster()`), shared by digests and alerts, so
    discord.py's per-route rate-limit buckets are shared as well. It needs no gateway, so
    alerts reach Discord from a one-off run and from a serve instance that does not lead.
    """

    def __init__(self, env: Environment) -> None:
        self.env = env
        self._http: HTTPClient | None = None
        self._login = asyncio.Lock()

    async def http(self) -> HTTPClient:
        async with self._login:
            if self._http is None:
                self._http = await _logged_in_http(self.env)
            return self._http

    async def post_document(
        self,
        store: Deliveries,
        *,
        document_id: str,
        channel: str,
        payloads: Sequence[JSON],
        thread_name: str | None = None,
        force: bool = False,
    ) -> DeliveryResult:
        """`DiscordPoster.post_document` over the shared client (the alerts sender's interface)."""
        return await DiscordPoster(await self.http()).post_document(
            store,
            document_id=document_id,
            channel=channel,
            payloads=payloads,
            thread_name=thread_name or document_id[: limits.DISCORD_THREAD_NAME_MAX],
            force=force,
        )

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None
