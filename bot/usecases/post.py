"""Post a built digest (or any document) to chat targets through the delivery ledger.

Called by `vllm-bot digest --post` (bot.cli). `/vllm digest post` and the scheduler post
one document to one channel through `bot.posting` directly (the chat adapter renders the
reply; the scheduler retries a failed job).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.errors import BotError, MessageError
from bot.core.messages import Text
from bot.platform import Platform, PostingServices, target_name
from bot.posting import post_digest, post_document

if TYPE_CHECKING:
    from bot.core.document import Document
    from bot.delivery import DeliveryResult
    from bot.digest.pipeline import BuiltDigest


@dataclass(frozen=True, slots=True)
class Posted:
    """One target's outcome: its delivery, or the error that stopped it."""

    target: str
    result: DeliveryResult | None = None
    error: BotError | None = None

    def line(self) -> str:
        if self.result is not None:
            return self.result.summary_line()
        return f"{self.target}: not posted: {self.error}"


def check_postable(built: BuiltDigest) -> None:
    """Refuse to post a window the store does not hold (an empty digest every time)."""
    digest = built.digest
    if digest.totals.merged == 0 and not digest.complete:
        raise MessageError("error.post.not_stored", week=digest.week, repo=digest.repo)


async def _each(
    targets: Sequence[tuple[Platform, str]],
    post: Callable[[Platform, str], Awaitable[DeliveryResult]],
) -> list[Posted]:
    """Post to every target even when one fails; one target's failure is raised as it is,
    several targets' are returned (`failures` says them as one error)."""
    outcomes: list[Posted] = []
    for platform, channel in targets:
        name = target_name(platform.name, channel)
        try:
            result = await post(platform, channel)
        except BotError as exc:
            if len(targets) == 1:
                raise
            outcomes.append(Posted(name, error=exc))
            continue
        outcomes.append(Posted(name, result=result))
    return outcomes


async def post_built(
    services: PostingServices,
    built: BuiltDigest,
    targets: Sequence[tuple[Platform, str]],
    *,
    force: bool = False,
) -> list[Posted]:
    """A built digest (with its trends chart where the target takes one) to every target."""
    check_postable(built)
    return await _each(
        targets,
        lambda platform, channel: post_digest(services, built, platform, channel, force=force),
    )


async def post_built_document(
    services: PostingServices,
    document: Document,
    targets: Sequence[tuple[Platform, str]],
    *,
    force: bool = False,
) -> list[Posted]:
    """A document without a chart (a release's notes) to every target."""
    deliveries = services.store.deliveries
    return await _each(
        targets,
        lambda platform, channel: post_document(
            deliveries, platform, document, channel, force=force
        ),
    )


def failures(outcomes: Sequence[Posted]) -> BotError | None:
    """One error naming how many targets were not posted (each is in its own line)."""
    failed = [o for o in outcomes if o.error is not None]
    if not failed:
        return None
    counts = {"failed": str(len(failed)), "total": str(len(outcomes))}
    return BotError(Text("error.post.failed", counts))
