"""The process's secrets, and the one function that hides every form of them.

A secret leaks in more shapes than its raw value: an exception quotes it escaped
(`Illegal header value b'Bearer ghp_…\\n'`), a JSON log line escapes it again, a URL
percent-encodes it. `forms(secret)` lists every shape, and `redact(text)` replaces each of
them, longest first, wherever text leaves the process (replies, stderr, logs, metrics
labels, stored errors).

Secrets are registered when the environment is read (bot.core.config.Environment), so every
entry point redacts without being told which variables hold secrets.
"""

from __future__ import annotations

import json
import sys
import threading
import unicodedata
from collections.abc import Iterable
from typing import TextIO
from urllib.parse import quote

REDACTED = "[redacted]"
# Shorter values would redact ordinary words and numbers all over the output.
MIN_SECRET_LENGTH = 6

_lock = threading.Lock()
_forms: list[str] = []


def forms(secret: str) -> set[str]:
    """Every shape `secret` takes in text: raw, repr-escaped, JSON-escaped, bytes repr
    (how httpx/h11 quote a header), percent-encoded, plus the same with the whitespace a
    pasted value brings (so an unstripped copy is caught whole)."""
    shapes: set[str] = set()
    for value in {secret, secret.strip()}:
        if not value:
            continue
        shapes.add(value)
        shapes.add(repr(value)[1:-1])
        shapes.add(json.dumps(value)[1:-1])
        shapes.add(json.dumps(value, ensure_ascii=False)[1:-1])
        shapes.add(repr(value.encode("utf-8", "backslashreplace"))[2:-1])
        shapes.add(quote(value, safe=""))
        # A JSON log line of a message that already held a repr: escaped twice.
        shapes.add(json.dumps(repr(value)[1:-1])[1:-1])
    return {s for s in shapes if len(s) >= MIN_SECRET_LENGTH}


def register(secrets: Iterable[str | None]) -> None:
    """Add secrets to the process-wide set `redact` hides."""
    new: set[str] = set()
    for secret in secrets:
        if secret and len(secret.strip()) >= MIN_SECRET_LENGTH:
            new |= forms(secret)
    if not new:
        return
    with _lock:
        merged = set(_forms) | new
        _forms[:] = sorted(merged, key=len, reverse=True)  # a secret inside another: whole


def registered() -> list[str]:
    with _lock:
        return list(_forms)


def redact(text: str, extra: Iterable[str] = ()) -> str:
    """`text` with every form of every registered secret (and of `extra`) replaced."""
    shapes = registered()
    if extra:
        more: set[str] = set()
        for secret in extra:
            if secret:
                more |= forms(secret)
        shapes = sorted(set(shapes) | more, key=len, reverse=True)
    for shape in shapes:
        if shape in text:
            text = text.replace(shape, REDACTED)
    return text


def control_characters(value: str) -> bool:
    """True when `value` holds a control character (a newline, a tab, an escape…)."""
    return any(unicodedata.category(ch) == "Cc" for ch in value)


class RedactingStream:
    """sys.stdout / sys.stderr (looked up at each write, so test runners' swaps apply) with
    every secret redacted from what is written."""

    def __init__(self, name: str) -> None:
        self._name = name

    @property
    def _stream(self) -> TextIO:
        stream: TextIO = getattr(sys, self._name)
        return stream

    def write(self, text: str) -> int:
        self._stream.write(redact(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return bool(getattr(self._stream, "isatty", lambda: False)())

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)
