"""Structured logs for the long-running bot: text or JSON lines, secrets redacted.

Every record passes through `RedactSecrets` on the handler, so a token that slips into a
message, an argument or a traceback (an exception quoting a URL, say) is replaced before
anything is written.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TextIO

from bot.core.models import JSON
from bot.core.secrets import MIN_SECRET_LENGTH as _MIN_SECRET_LENGTH
from bot.core.secrets import REDACTED, redact, register, registered

if TYPE_CHECKING:
    from bot.core.config import Config, Environment

__all__ = ["REDACTED", "JsonFormatter", "RedactSecrets", "TextFormatter", "configure_logging"]

# Attributes every LogRecord has; anything else was passed with `extra=` and is data.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class RedactSecrets(logging.Filter):
    """Replaces every form of every secret (bot.core.secrets.forms): the ones given here and
    the ones the process registered when it read its environment."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.extra = [s for s in secrets if s and len(s) >= _MIN_SECRET_LENGTH]
        register(self.extra)

    @property
    def secrets(self) -> list[str]:
        return registered()

    def redact(self, text: str) -> str:
        return redact(text, self.extra)

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        record.msg = self.redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
            # The formatter would render exc_info again, unredacted; exc_text replaces it.
            record.exc_info = None
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        for key, value in list(vars(record).items()):
            if key not in _STANDARD and isinstance(value, str):
                setattr(record, key, self.redact(value))
            elif key not in _STANDARD and isinstance(value, list | tuple | dict):
                setattr(record, key, json.loads(self.redact(json.dumps(value, default=str))))
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts, level, logger, msg, plus every `extra=` field."""

    def format(self, record: logging.LogRecord) -> str:
        entry: JSON = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exc"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """Human-readable line; `extra=` fields are appended as key=value so nothing is lost."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extras = [
            f"{key}={value}"
            for key, value in vars(record).items()
            if key not in _STANDARD and not key.startswith("_")
        ]
        if not extras:
            return line
        head, sep, tail = line.partition("\n")  # keep a traceback below the fields
        return f"{head} [{' '.join(extras)}]{sep}{tail}"


def log_post(
    logger: logging.Logger,
    platform: str,
    channel: str,
    document: str,
    outcome: str,
    started: float,
    *,
    parts: int | None = None,
    detail: str = "",
    **fields: object,
) -> None:
    """The one structured line per post (a digest, an alert, a command's post).

    `outcome`: posted | delivered (the ledger had it all) | failed; `started` is a
    `time.perf_counter()` value. JSON mode carries event/platform/channel/document/outcome/
    seconds (docs/operations.md §7); `detail` (an error message) only goes in the text.
    """
    seconds = round(time.perf_counter() - started, 3)
    what = f"{outcome} {document} to {platform}:{channel}"
    if parts is not None:
        what += f" ({parts} message{'s' if parts != 1 else ''})"
    extra: dict[str, object] = {
        "event": "post",
        "platform": platform,
        "channel": channel,
        "document": document,
        "outcome": outcome,
        "seconds": seconds,
        **fields,
    }
    if parts is not None:
        extra["parts"] = parts
    level = logging.WARNING if outcome == "failed" else logging.INFO
    logger.log(level, "%s in %.1f s%s", what, seconds, f": {detail}" if detail else "", extra=extra)


def secret_values(env: Environment, config: Config) -> list[str]:
    """Every configured secret: tokens in the environment, the database password and
    Discord webhook URLs (their path is a token)."""
    values: list[str] = list(env.secret_values())
    for target in config.digest.targets:
        if target.webhook_url:
            values.append(target.webhook_url)
            values.append(target.webhook_url.rstrip("/").rsplit("/", 1)[-1])
    return values


def configure_logging(
    fmt: str, level: str, secrets: Iterable[str], stream: TextIO | None = None
) -> logging.Handler:
    """Replace the root handlers with one redacting handler; returns it (tests read it)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # Library chatter at INFO (every HTTP request, every APScheduler tick) drowns the
    # one-line-per-event log; keep them at WARNING unless DEBUG was asked for.
    quiet = logging.DEBUG if level == "DEBUG" else logging.WARNING
    for name in ("httpx", "httpcore", "apscheduler", "aiohttp.access", "discord", "slack_bolt"):
        logging.getLogger(name).setLevel(quiet)
    return handler
