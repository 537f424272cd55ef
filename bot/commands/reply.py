"""The neutral answer to a command; each platform adapter renders it its own way."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.core.document import Document
from bot.core.secrets import redact


class ReplyStatus(Enum):
    """How a command went; decides the exit status, the metrics and who sees the reply."""

    OK = "ok"
    USER_ERROR = "user_error"  # bad input: the user can fix it (exit 2)
    FAILED = "failed"  # our side or GitHub's (exit 1)


@dataclass(frozen=True, slots=True)
class Reply:
    """Either a short text or a Document (with `text` as its one-line fallback).

    `public`: a successful reply the whole channel sees; errors are always private.
    `post_to_channel`: the adapter posts `document` in the channel through the delivery
    ledger (`bot.delivery.deliver`) and tells the user how that went.
    """

    text: str = ""
    document: Document | None = None
    status: ReplyStatus = ReplyStatus.OK
    public: bool = False
    post_to_channel: bool = False

    def __post_init__(self) -> None:
        # Error texts quote exceptions, and an exception can quote a token (an HTTP
        # library naming a bad header): no reply leaves with a secret in it.
        object.__setattr__(self, "text", redact(self.text))

    @classmethod
    def user_error(cls, text: str) -> Reply:
        return cls(text=text, status=ReplyStatus.USER_ERROR)

    @classmethod
    def failed(cls, text: str) -> Reply:
        return cls(text=text, status=ReplyStatus.FAILED)

    @classmethod
    def error(cls, text: str, *, runtime: bool = False) -> Reply:
        return cls.failed(text) if runtime else cls.user_error(text)

    @property
    def ok(self) -> bool:
        return self.status is ReplyStatus.OK

    @property
    def runtime(self) -> bool:
        """A failure on our side or GitHub's, not bad input."""
        return self.status is ReplyStatus.FAILED

    @property
    def ephemeral(self) -> bool:
        """Only the person who typed the command sees it: every error, and private answers."""
        return not self.ok or not self.public

    @property
    def exit_code(self) -> int:
        """CONTRACT exit status for `vllm-bot chat`: 0 ok, 2 bad input, 1 runtime failure."""
        return {ReplyStatus.OK: 0, ReplyStatus.USER_ERROR: 2, ReplyStatus.FAILED: 1}[self.status]
