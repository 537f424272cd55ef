"""The delivery aggregate: which parts of a document are posted to which channel
(`deliveries`, one row per part), claimed and recorded through the shared claim/lease
primitive (`bot.store.ledger`) so each part is posted exactly once (`bot.delivery`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, delete, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.store.ledger import FAILED, LEASE, SENT, Claim, ClaimLedger, Owner
from bot.store.tables import deliveries

_KEY = ("document", "platform", "channel", "part")


@dataclass(frozen=True, slots=True)
class Delivery:
    part: int
    parts: int
    message_id: str | None
    thread_id: str | None


def _key(document: str, platform: str, channel: str, part: int) -> dict[str, str | int]:
    return {"document": document, "platform": platform, "channel": channel, "part": part}


def _of(document: str, platform: str, channel: str) -> list[ColumnElement[bool]]:
    """Every part's row of `document` in `channel`."""
    return [
        deliveries.c.document == document,
        deliveries.c.platform == platform,
        deliveries.c.channel == channel,
    ]


class Deliveries:
    def __init__(self, session: async_sessionmaker[AsyncSession], engine: AsyncEngine) -> None:
        self.session = session
        self.ledger = ClaimLedger(engine, session, deliveries, _KEY)

    async def sent(self, document: str, platform: str, channel: str) -> dict[int, Delivery]:
        """The parts of `document` posted to `channel` (sent ones only: a claim is a part
        some run is still posting, or was when it crashed)."""
        async with self.session() as session:
            rows = await session.execute(
                select(deliveries).where(
                    *_of(document, platform, channel), deliveries.c.state == SENT
                )
            )
            return {r.part: Delivery(r.part, r.parts, r.message_id, r.thread_id) for r in rows}

    async def claim(
        self,
        document: str,
        platform: str,
        channel: str,
        part: int,
        parts: int,
        *,
        owner: Owner,
        lease: timedelta = LEASE,
        now: datetime | None = None,
    ) -> Claim:
        """Claim `part` for `owner` before posting it (bot.store.ledger: NEW, DOUBT when an
        earlier attempt died or failed and may have posted it, BUSY, DONE)."""
        now = now or datetime.now(UTC)
        return await self.ledger.claim(
            _key(document, platform, channel, part),
            owner,
            lease=lease,
            values={"parts": parts, "posted_at": now},
            now=now,
        )

    async def fail(
        self,
        document: str,
        platform: str,
        channel: str,
        part: int,
        *,
        owner: Owner,
        error: BaseException | str,
        settle: timedelta | None = None,
    ) -> None:
        """`owner`'s send of `part` raised: keep the error (redacted, short) and let the next
        run take the part, at once or after `settle`, reconciling first (the post may have
        gone through)."""
        await self.ledger.fail(_key(document, platform, channel, part), owner, error, settle=settle)

    async def release(
        self, document: str, platform: str, channel: str, part: int, *, owner: Owner
    ) -> None:
        """Drop `owner`'s claim on a part it never started posting. A claim another run
        has taken over meanwhile is left alone."""
        await self.ledger.release(_key(document, platform, channel, part), owner)

    async def errors(self, document: str, platform: str, channel: str) -> dict[int, str]:
        """The last error of each part whose send failed (and is not posted yet)."""
        async with self.session() as session:
            rows = await session.execute(
                select(deliveries.c.part, deliveries.c.last_error).where(
                    *_of(document, platform, channel), deliveries.c.state == FAILED
                )
            )
            return {part: error or "" for part, error in rows}

    async def record(
        self,
        document: str,
        platform: str,
        channel: str,
        part: int,
        parts: int,
        message_id: str | None,
        thread_id: str | None,
    ) -> None:
        """Mark `part` sent, whether or not this run's claim is still there: the message
        exists either way, and a run that took the claim over finds the part done."""
        await self.ledger.record(
            _key(document, platform, channel, part),
            {
                "parts": parts,
                "message_id": message_id,
                "thread_id": thread_id,
                "posted_at": datetime.now(UTC),
            },
        )

    async def forget(self, document: str, platform: str, channel: str) -> None:
        """Used by --force: the next run posts the document again from part 0 (claims of a
        run posting it right now go too: --force means "post it again", whatever runs)."""
        async with self.session.begin() as session:
            await session.execute(delete(deliveries).where(*_of(document, platform, channel)))
