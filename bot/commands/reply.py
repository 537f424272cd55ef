"""The neutral answer to a command; each platform adapter renders it its own way."""

from __future__ import annotations

from dataclasses import dataclass

from bot.document import Document
from bot.secrets import redact


@dataclass(frozen=True, slots=True)
class Reply:
    """Either a short text or a Document (with `text` as its one-line fallback).

    `ephemeral`: only the person who typed the command sees it.
    `post_to_channel`: the adapter posts `document` in the channel through the delivery
    ledger (`bot.delivery.deliver`) and tells the user how that went.
    `ok`: False for errors, so `vllm-bot chat` can exit non-zero and adapters log them.
    `runtime`: the error is a failure on our side or GitHub's (exit 1), not bad input (2).
    """

    text: str = ""
    document: Document | None = None
    ephemeral: bool = True
    post_to_channel: bool = False
    ok: bool = True
    runtime: bool = False

    def __post_init__(self) -> None:
        # Error texts quote exceptions, and an exception can quote a token (an HTTP
        # library naming a bad header): no reply leaves with a secret in it.
        object.__setattr__(self, "text", redact(self.text))

    @classmethod
    def error(cls, text: str, *, runtime: bool = False) -> Reply:
        return cls(text=text, ok=False, runtime=runtime)

    @property
    def exit_code(self) -> int:
        """CONTRACT exit status for `vllm-bot chat`: 0 ok, 2 bad input, 1 runtime failure."""
        return 0 if self.ok else (1 if self.runtime else 2)
