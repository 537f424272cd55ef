"""Posting rendered messages to Slack through slack_sdk's AsyncWebClient.

Policy, per channel: at most one message per `min_interval` (Slack allows about one message
per second per channel; bursts get 429s), messages in order. That pacing is ours; retrying
is slack_sdk's own (`slack_client`): its async retry handlers wait `Retry-After` on HTTP 429
and retry HTTP 500/503 and dropped connections with exponential backoff and jitter, each a
bounded number of times. What they give up on raises `SlackUnavailable` (transient: a
re-run resumes through the delivery ledger); anything else Slack refuses is permanent and
raises `SlackPostError` naming the channel and the fix, without retrying.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError, SlackRequestError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.http_retry.builtin_interval_calculators import BackoffRetryIntervalCalculator
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.errors import PermanentError, TransientError
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
from bot.store.deliveries import Deliveries

log = logging.getLogger(__name__)

DEFAULT_API_URL = "https://slack.com/api/"

# Retries slack_sdk makes of one call: 5xx and dropped connections (1 s, 2 s, 4 s, 8 s, plus
# jitter), and 429s, each waiting Retry-After. Bounded well under the ledger's lease.
MAX_RETRIES = 4
MAX_RATE_LIMIT_WAITS = 10
BACKOFF = 1.0

# Slack's `ok: false` errors that say "try again" rather than "you did something wrong":
# not retried by slack_sdk (an HTTP 200), so they are transient failures a re-run resumes.
TRANSIENT_ERRORS = frozenset(
    {"internal_error", "fatal_error", "service_unavailable", "request_timeout", "ratelimited"}
)
_TOKEN_ERRORS = frozenset(
    {"invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired"}
)
_BAD_MESSAGE = frozenset(
    {
        "invalid_blocks",
        "invalid_blocks_format",
        "msg_blocks_too_long",
        "msg_too_long",
        "no_text",
        "invalid_arguments",
    }
)
# Message metadata on every part the bot posts (docs.slack.dev/messaging/message-metadata).
PART_EVENT = "vllm_bot_part"
# How far back a takeover looks for a crashed run's message: a digest's thread, or the
# channel's latest messages since that run (it crashed minutes ago, not days).
FIND_PAGES = 5
FIND_PAGE_SIZE = 200


def part_metadata(document_id: str, index: int) -> JSON:
    return {"event_type": PART_EVENT, "event_payload": {"document": document_id, "part": index}}


class SlackPostError(PermanentError):
    """A permanent Slack error: retrying cannot help, a person has to fix something."""

    service = "slack"

    def __init__(self, message: str | Text, *, error: str, channel: str) -> None:
        super().__init__(message)
        self.error = error
        self.channel = channel


class SlackUnavailable(TransientError):
    """Slack kept failing transiently (5xx, connection errors, rate limits) past our bound."""

    service = "slack"


def retry_handlers(
    max_retries: int = MAX_RETRIES,
    max_rate_limit_waits: int = MAX_RATE_LIMIT_WAITS,
    backoff: float = BACKOFF,
) -> list[AsyncRetryHandler]:
    """slack_sdk's own retry policy, bounded: connection errors and HTTP 500/503 with
    exponential backoff, HTTP 429 after Retry-After. The SDK counts every retry of a call
    against each bound, so a call is retried at most `max_rate_limit_waits` times."""
    interval = BackoffRetryIntervalCalculator(backoff_factor=backoff)
    return [
        AsyncConnectionErrorRetryHandler(max_retry_count=max_retries, interval_calculator=interval),
        AsyncServerErrorRetryHandler(max_retry_count=max_retries, interval_calculator=interval),
        AsyncRateLimitErrorRetryHandler(max_retry_count=max_rate_limit_waits),
    ]


def slack_client(
    token: str,
    base_url: str | None = None,
    *,
    timeout: int = 30,
    max_retries: int = MAX_RETRIES,
    max_rate_limit_waits: int = MAX_RATE_LIMIT_WAITS,
) -> AsyncWebClient:
    """The Web API client for SLACK_BOT_TOKEN and SLACK_API_URL, retrying by slack_sdk's
    own handlers (`retry_handlers`)."""
    url = base_url or DEFAULT_API_URL
    if not url.endswith("/"):
        url += "/"  # slack_sdk joins "base_url + method"
    return AsyncWebClient(
        token=token,
        base_url=url,
        timeout=timeout,
        retry_handlers=retry_handlers(max_retries, max_rate_limit_waits),
    )


def explain(error: str, channel: str, response: JSON | None = None) -> Text:
    """One line saying what went wrong with `channel` and how to fix it."""
    data = response or {}
    said = {"channel": channel, "error": error}
    if error == "channel_not_found":
        return Text("error.slack.channel_not_found", said)
    if error == "not_in_channel":
        return Text("error.slack.not_in_channel", said)
    if error == "is_archived":
        return Text("error.slack.archived", said)
    if error in _TOKEN_ERRORS:
        return Text("error.slack.token_refused", said)
    if error == "missing_scope":
        return Text(
            "error.slack.missing_scope", {**said, "scope": data.get("needed") or "chat:write"}
        )
    if error.startswith("restricted_action") or error == "ekm_access_denied":
        return Text("error.slack.restricted", said)
    if error == "thread_not_found":
        return Text("error.slack.thread_gone", said)
    if error in _BAD_MESSAGE:
        details = "; ".join(str(e) for e in (data.get("errors") or [])[:3])
        if details:
            return Text("error.slack.invalid.details", {**said, "details": details})
        return Text("error.slack.invalid", said)
    return Text("error.slack.refused", said)


class SlackPoster:
    """Paced posting over a `slack_client` (whose retries are slack_sdk's); `clock` and
    `sleep` drive the pacing (tests pass a virtual clock)."""

    def __init__(
        self,
        client: AsyncWebClient,
        *,
        min_interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.client = client
        self.min_interval = min_interval
        self.clock = clock
        self.sleep = sleep
        self._next_post: dict[str, float] = {}
        self._channel_locks: dict[str, asyncio.Lock] = {}

    async def post_message(self, channel: str, payload: JSON, thread_ts: str | None = None) -> Sent:
        """Post one chat.postMessage payload (paced; retried by slack_sdk); returns its ts."""
        args = {k: v for k, v in payload.items() if k not in ("channel", "thread_ts")}
        if thread_ts is not None:
            args["thread_ts"] = thread_ts
        lock = self._channel_locks.setdefault(channel, asyncio.Lock())
        async with lock:
            response = await self._call(
                "chat.postMessage",
                channel,
                lambda: self.client.chat_postMessage(channel=channel, **args),
            )
        return Sent(message_id=str(response["ts"]))

    async def _call(
        self, method: str, channel: str, call: Callable[[], Awaitable[Any]], paced: bool = True
    ) -> Any:
        """One Web API call (slack_sdk retries it), paced per channel when it adds a
        message; what the retries could not fix raised as ours."""
        if paced:
            delay = self._next_post.get(channel, float("-inf")) - self.clock()
            if delay > 0:
                await self.sleep(delay)
        try:
            response = await call()
        except SlackApiError as exc:
            data = exc.response.data if isinstance(exc.response.data, dict) else {}
            status = exc.response.status_code
            error = str(data.get("error") or f"HTTP {status}")
            where = {"method": method, "channel": channel}
            if status == 429:
                raise SlackUnavailable(Text("error.slack.rate_limited", where)) from None
            if status < 500 and error not in TRANSIENT_ERRORS:
                raise SlackPostError(
                    explain(error, channel, data), error=error, channel=channel
                ) from None
            raise SlackUnavailable(
                Text("error.slack.unavailable", {"reason": error, **where})
            ) from None
        except (aiohttp.ClientError, TimeoutError, OSError, SlackRequestError) as exc:
            reason = f"{type(exc).__name__}: {exc}".rstrip(": ")
            where = {"method": method, "channel": channel}
            raise SlackUnavailable(
                Text("error.slack.unavailable", {"reason": reason, **where})
            ) from None
        if paced:
            self._next_post[channel] = self.clock() + self.min_interval
        return response

    async def post_document(
        self,
        store: Deliveries,
        *,
        document_id: str,
        channel: str,
        payloads: Sequence[JSON],
        force: bool = False,
        attachment: Attachment | None = None,
    ) -> DeliveryResult:
        """Post rendered payloads: payload 0 in the channel, the rest in its thread, once;
        then `attachment` (the chart) as the thread's last part.

        Every part carries message metadata naming the document and the part, so a run
        that takes over a crashed one finds what it posted (`find_part`) instead of
        posting it again."""
        payloads = with_attachment(payloads, attachment)
        parts = len(payloads)

        async def send(index: int, payload: JSON, thread: str | None) -> Sent:
            file = attachment_of(payload)
            if file is not None:
                return await self.upload_file(
                    channel,
                    file.data,
                    filename=file.filename,
                    title=file.title,
                    alt_text=file.alt_text,
                    thread_ts=thread,
                )
            tagged = {**payload, "metadata": part_metadata(document_id, index)}
            sent = await self.post_message(channel, tagged, thread_ts=thread)
            log.info(
                "posted %s part %d/%d to slack:%s",
                document_id,
                index + 1,
                parts,
                channel,
                extra={
                    "event": "post_part",
                    "platform": "slack",
                    "channel": channel,
                    "document": document_id,
                    "part": index + 1,
                    "parts": parts,
                },
            )
            return sent

        async def find(index: int, payload: JSON, thread: str | None) -> Sent | None:
            file = attachment_of(payload)
            return await self.find_part(
                channel, document_id, index, thread, filename=file.filename if file else None
            )

        return await deliver(
            store,
            document_id=document_id,
            platform="slack",
            channel=channel,
            payloads=payloads,
            send=send,
            force=force,
            find=find,
        )

    async def find_part(
        self,
        channel: str,
        document_id: str,
        index: int,
        thread_ts: str | None,
        *,
        filename: str | None = None,
    ) -> Sent | None:
        """The message of part `index` of `document_id` already in `channel`, found by its
        metadata: conversations.replies of the thread for a thread part, else
        conversations.history (both with include_all_metadata, needing the *:history
        scope); a shared file (no metadata) by its `filename`. When Slack cannot be asked,
        None: the part is posted again (logged)."""
        wanted = part_metadata(document_id, index)
        cursor: str | None = None
        for _page in range(FIND_PAGES):
            args: JSON = {
                "channel": channel,
                "include_all_metadata": True,
                "limit": FIND_PAGE_SIZE,
            }
            if cursor:
                args["cursor"] = cursor
            if thread_ts is not None:
                method = "conversations.replies"

                def call(args: JSON = args) -> Awaitable[Any]:
                    return self.client.conversations_replies(ts=thread_ts, **args)
            else:
                method = "conversations.history"

                def call(args: JSON = args) -> Awaitable[Any]:
                    return self.client.conversations_history(**args)

            try:
                response = await self._call(method, channel, call, paced=False)
            except SlackPostError as exc:
                log.warning(
                    "cannot check whether %s part %d is already in slack:%s (%s); posting it",
                    document_id,
                    index + 1,
                    channel,
                    exc,
                )
                return None
            for message in response.get("messages") or []:
                if filename is not None:
                    for file in message.get("files") or []:
                        if file.get("name") == filename and file.get("id"):
                            return Sent(message_id=str(file["id"]))
                elif message.get("metadata") == wanted and message.get("ts"):
                    return Sent(message_id=str(message["ts"]))
            cursor = (response.get("response_metadata") or {}).get("next_cursor") or None
            if not cursor:
                break
        return None

    async def upload_file(
        self,
        channel: str,
        data: bytes,
        *,
        filename: str,
        title: str,
        alt_text: str,
        thread_ts: str | None = None,
        initial_comment: str | None = None,
    ) -> Sent:
        """Share a file (the trends chart) in `channel`, in `thread_ts`'s thread when given,
        by slack_sdk's `files_upload_v2`: files.getUploadURLExternal (filename, length,
        alt_txt), the bytes POSTed to the upload URL it returns, then
        files.completeUploadExternal (files=[{id, title}], channel_id, thread_ts,
        initial_comment) shares it. slack_sdk retries each step; the share is paced like a
        message. Returns the file id."""
        # Slack caps alt text at 1,000 characters.
        alt = alt_text if len(alt_text) <= 1000 else alt_text[:999] + "…"
        lock = self._channel_locks.setdefault(channel, asyncio.Lock())
        async with lock:
            response = await self._call(
                "files.completeUploadExternal",
                channel,
                lambda: self.client.files_upload_v2(
                    content=data,
                    filename=filename,
                    title=title,
                    alt_txt=alt,
                    channel=channel,
                    thread_ts=thread_ts,
                    initial_comment=initial_comment,
                ),
            )
        return Sent(message_id=str(response["file"]["id"]))

    async def unfurl(
        self,
        unfurls: JSON,
        *,
        channel: str | None = None,
        ts: str | None = None,
        unfurl_id: str | None = None,
        source: str | None = None,
    ) -> None:
        """chat.unfurl (unpaced: it adds no message; retried by slack_sdk).

        Links in a sent message are addressed by (channel, ts); links still in the composer
        (Slack sends channel "COMPOSER") by (unfurl_id, source).
        """
        if unfurl_id and source:
            target: JSON = {"unfurl_id": unfurl_id, "source": source}
        else:
            target = {"channel": channel, "ts": ts}
        await self._call(
            "chat.unfurl",
            channel or "composer",
            lambda: self.client.chat_unfurl(unfurls=unfurls, **target),
            paced=False,
        )
