"""The neutral answer to a command; each platform adapter renders it its own way."""

from __future__ import annotations

from dataclasses import dataclass

from bot.document import Document


@dataclass(frozen=True, slots=True)
class Reply:
    """Either a short text or a Document (with `text` as its one-line fallback).

    `ephemeral`: only the person who typed the command sees it.
    `post_to_channel`: the adapter posts `document` in the channel through the delivery
    ledger (`bot.delivery.deliver`) and tells the user how that went.
    `ok`: False for errors, so `vllm-bot chat` can exit 2 and adapters can log them.
    """

    text: str = ""
    document: Document | None = None
    ephemeral: bool = True
    post_to_channel: bool = False
    ok: bool = True

    @classmethod
    def error(cls, text: str) -> Reply:
        return cls(text=text, ok=False)
