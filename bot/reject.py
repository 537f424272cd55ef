"""Answering unauthenticated requests that fail verification: 401, one short log line.

Anyone can reach `/slack/events` and `/github/webhook` without a secret, so what a rejected
request costs must stay small: no traceback, no body echoed, and at most one log line per
endpoint per `interval` seconds (the next line says how many were suppressed), so a flood
of junk cannot fill the disk.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import threading
import time
from collections.abc import Callable, Mapping

from aiohttp import web

log = logging.getLogger("bot.web.rejected")

# Slack: `X-Slack-Request-Timestamp` is Unix seconds; `X-Slack-Signature` is v0= + SHA-256 hex.
_SLACK_TIMESTAMP = re.compile(r"^[0-9]{1,12}$")
_SLACK_SIGNATURE = re.compile(r"^v0=[0-9a-f]{64}$")
SLACK_REPLAY_SECONDS = 300  # Slack's documented replay window


class RejectionLog:
    def __init__(
        self,
        logger: logging.Logger = log,
        interval: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.interval = interval
        self.clock = clock
        self._last: dict[str, float] = {}
        self._suppressed: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, endpoint: str, reason: str, remote: str | None) -> None:
        now = self.clock()
        with self._lock:
            last = self._last.get(endpoint)
            if last is not None and now - last < self.interval:
                self._suppressed[endpoint] = self._suppressed.get(endpoint, 0) + 1
                return
            self._last[endpoint] = now
            suppressed = self._suppressed.pop(endpoint, 0)
        more = f" (+{suppressed} more rejected since the last line)" if suppressed else ""
        self.logger.warning(
            "%s: rejected a request from %s: %s%s",
            endpoint,
            remote or "?",
            reason[:120],
            more,
            extra={"event": "rejected", "endpoint": endpoint},
        )


REJECTIONS = RejectionLog()


def reject(request: web.Request, reason: str, status: int = 401) -> web.Response:
    REJECTIONS(request.path, reason, request.remote)
    return web.Response(status=status, text="unauthorized\n" if status == 401 else reason + "\n")


def slack_signature_problem(
    secret: str, headers: Mapping[str, str], body: bytes, now: float | None = None
) -> str | None:
    """Why a Slack request fails verification, or None when it is Slack's.

    Checked before bolt sees it: bolt turns a non-numeric timestamp into a 500 with a
    traceback, and logs every bad signature."""
    timestamp = headers.get("X-Slack-Request-Timestamp", "")
    signature = headers.get("X-Slack-Signature", "")
    if not _SLACK_TIMESTAMP.match(timestamp):
        return "missing or malformed X-Slack-Request-Timestamp"
    if not _SLACK_SIGNATURE.match(signature):
        return "missing or malformed X-Slack-Signature"
    now = time.time() if now is None else now
    if abs(now - int(timestamp)) > SLACK_REPLAY_SECONDS:
        return "X-Slack-Request-Timestamp outside the 5-minute window"
    # Over the raw bytes, as Slack signs them (slack_sdk's verifier decodes the body as
    # UTF-8 first and raises on anything else).
    base = b"v0:" + timestamp.encode() + b":" + body
    expected = "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature):
        return "bad X-Slack-Signature"
    return None
