"""Store access for the alerts: subscriptions, the sent ledger, webhook deliveries, the
poller's progress and the outbox of held alerts. Works on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from bot.alerts.filters import SubscriptionFilters, filters_from_json, filters_to_json
from bot.alerts.model import Subscription
from bot.alerts.tables import (
    AlertSentRow,
    AlertStateRow,
    HeldAlertRow,
    SubscriptionRow,
    WebhookDeliveryRow,
)
from bot.store.store import Store


@dataclass(frozen=True, slots=True)
class Held:
    id: int
    platform: str
    channel: str
    repo: str
    pr_number: int
    reason: str
    release_at: datetime
    attempts: int


def _subscription(row: SubscriptionRow) -> Subscription:
    return Subscription(
        id=row.id,
        platform=row.platform,
        channel=row.channel,
        modules=tuple(json.loads(row.modules)),
        filters=filters_from_json(row.filters),
        created_at=row.created_at,
        repo=row.repo,
        language=row.language,
        created_by=row.created_by,
        weekly=row.mode == "weekly",
    )


def _held(row: HeldAlertRow) -> Held:
    return Held(
        row.id,
        row.platform,
        row.channel,
        row.repo,
        row.pr_number,
        row.reason,
        row.release_at,
        row.attempts,
    )


class AlertStore:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.session = store.session

    def _insert(self, table):
        dialect = self.store.engine.dialect.name
        if dialect == "postgresql":
            return postgresql.insert(table)
        if dialect == "sqlite":
            return sqlite.insert(table)
        raise NotImplementedError(f"unsupported database {dialect!r}: use SQLite or PostgreSQL")

    # ------------------------------------------------------------------ subscriptions

    async def add_subscription(
        self,
        *,
        platform: str,
        channel: str,
        modules: Sequence[str],
        filters: SubscriptionFilters,
        created_by: str | None,
        now: datetime,
        repo: str | None = None,
        weekly: bool = False,
    ) -> Subscription:
        row = SubscriptionRow(
            platform=platform,
            channel=channel,
            repo=repo,
            modules=json.dumps(list(modules)),
            filters=filters_to_json(filters),
            language=filters.language,
            created_by=created_by,
            created_at=now,
            updated_at=now,
            mode="weekly" if weekly else "alert",
        )
        async with self.session.begin() as session:
            session.add(row)
            await session.flush()
            return _subscription(row)

    async def subscriptions(
        self, platform: str | None = None, channel: str | None = None
    ) -> list[Subscription]:
        query = select(SubscriptionRow).order_by(SubscriptionRow.id)
        if platform is not None:
            query = query.where(SubscriptionRow.platform == platform)
        if channel is not None:
            query = query.where(SubscriptionRow.channel == channel)
        async with self.session() as session:
            return [_subscription(r) for r in (await session.execute(query)).scalars()]

    async def delete_subscriptions(self, ids: Sequence[int]) -> None:
        if not ids:
            return
        async with self.session.begin() as session:
            await session.execute(delete(SubscriptionRow).where(SubscriptionRow.id.in_(ids)))
            # Their ledger rows can never be consulted again (ids are not reused).
            await session.execute(delete(AlertSentRow).where(AlertSentRow.subscription_id.in_(ids)))

    async def set_modules(self, sub_id: int, modules: Sequence[str], now: datetime) -> None:
        async with self.session.begin() as session:
            await session.execute(
                update(SubscriptionRow)
                .where(SubscriptionRow.id == sub_id)
                .values(modules=json.dumps(list(modules)), updated_at=now)
            )

    async def subscriptions_version(self) -> tuple[int, int, datetime | None]:
        """Changes whenever a subscription is added, removed or edited (ids never repeat)."""
        async with self.session() as session:
            row = (
                await session.execute(
                    select(
                        func.count(SubscriptionRow.id),
                        func.max(SubscriptionRow.id),
                        func.max(SubscriptionRow.updated_at),
                    )
                )
            ).one()
        count, top, changed = row
        return (int(count or 0), int(top or 0), changed)

    # ------------------------------------------------------------------ sent ledger

    async def claim(
        self,
        *,
        sub_ids: Sequence[int],
        repo: str,
        number: int,
        platform: str,
        channel: str,
        token: str,
        now: datetime,
        lease: timedelta,
    ) -> list[int]:
        """Claim (subscription, PR) pairs for sending; returns the ids this caller won.

        A pair is won when no row exists yet (the insert succeeds: the unique constraint
        makes that atomic across processes), or when the existing row is a claim whose
        lease ran out (its sender crashed between claiming and recording). Sent rows and
        live claims of others are never taken.
        """
        won: list[int] = []
        async with self.session.begin() as session:
            for sub_id in sub_ids:
                stmt = (
                    self._insert(AlertSentRow.__table__)
                    .values(
                        subscription_id=sub_id,
                        repo=repo,
                        pr_number=number,
                        platform=platform,
                        channel=channel,
                        state="claimed",
                        claim_token=token,
                        claimed_at=now,
                    )
                    .on_conflict_do_nothing(index_elements=["subscription_id", "repo", "pr_number"])
                )
                if (await session.execute(stmt)).rowcount == 1:
                    won.append(sub_id)
                    continue
                stale = await session.execute(
                    update(AlertSentRow)
                    .where(
                        AlertSentRow.subscription_id == sub_id,
                        AlertSentRow.repo == repo,
                        AlertSentRow.pr_number == number,
                        AlertSentRow.state == "claimed",
                        AlertSentRow.claimed_at < now - lease,
                    )
                    .values(claim_token=token, claimed_at=now)
                )
                if stale.rowcount == 1:
                    won.append(sub_id)
        return won

    async def mark_sent(self, token: str, now: datetime) -> None:
        async with self.session.begin() as session:
            await session.execute(
                update(AlertSentRow)
                .where(AlertSentRow.claim_token == token, AlertSentRow.state == "claimed")
                .values(state="sent", sent_at=now, claim_token=None)
            )

    async def release(self, token: str) -> None:
        """Give up claims after a failed send, so the next attempt (any source) may send."""
        async with self.session.begin() as session:
            await session.execute(
                delete(AlertSentRow).where(
                    AlertSentRow.claim_token == token, AlertSentRow.state == "claimed"
                )
            )

    async def handled(
        self,
        sub_ids: Sequence[int],
        repo: str,
        number: int,
        *,
        now: datetime,
        lease: timedelta,
    ) -> set[int]:
        """Subscriptions that sent this PR, or hold a live claim on it (an expired claim
        is a crashed sender's: the PR must be queued again so someone takes it over)."""
        if not sub_ids:
            return set()
        async with self.session() as session:
            rows = await session.execute(
                select(AlertSentRow.subscription_id).where(
                    AlertSentRow.subscription_id.in_(list(sub_ids)),
                    AlertSentRow.repo == repo,
                    AlertSentRow.pr_number == number,
                    or_(AlertSentRow.state == "sent", AlertSentRow.claimed_at >= now - lease),
                )
            )
            return {r for (r,) in rows}

    async def channel_has_sent(self, platform: str, channel: str, repo: str, number: int) -> bool:
        async with self.session() as session:
            found = await session.scalar(
                select(AlertSentRow.id)
                .where(
                    AlertSentRow.platform == platform,
                    AlertSentRow.channel == channel,
                    AlertSentRow.repo == repo,
                    AlertSentRow.pr_number == number,
                    AlertSentRow.state == "sent",
                )
                .limit(1)
            )
        return found is not None

    # ------------------------------------------------------------------ webhook deliveries

    async def claim_delivery(self, delivery_id: str, event: str, now: datetime) -> bool:
        """True the first time a delivery id is seen (atomic across processes)."""
        stmt = (
            self._insert(WebhookDeliveryRow.__table__)
            .values(delivery_id=delivery_id, event=event, received_at=now)
            .on_conflict_do_nothing(index_elements=["delivery_id"])
        )
        async with self.session.begin() as session:
            return (await session.execute(stmt)).rowcount == 1

    async def forget_delivery(self, delivery_id: str) -> None:
        async with self.session.begin() as session:
            await session.execute(
                delete(WebhookDeliveryRow).where(WebhookDeliveryRow.delivery_id == delivery_id)
            )

    async def prune_deliveries(self, before: datetime) -> None:
        async with self.session.begin() as session:
            await session.execute(
                delete(WebhookDeliveryRow).where(WebhookDeliveryRow.received_at < before)
            )

    # ------------------------------------------------------------------ poller state

    async def last_seen(self, repo: str) -> datetime | None:
        async with self.session() as session:
            row = await session.get(AlertStateRow, repo)
            return row.last_seen if row else None

    async def set_last_seen(self, repo: str, last_seen: datetime, now: datetime) -> None:
        stmt = self._insert(AlertStateRow.__table__).values(
            repo=repo, last_seen=last_seen, polled_at=now
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["repo"],
            set_={"last_seen": stmt.excluded.last_seen, "polled_at": stmt.excluded.polled_at},
        )
        async with self.session.begin() as session:
            await session.execute(stmt)

    # ------------------------------------------------------------------ held alerts

    async def hold(
        self,
        *,
        platform: str,
        channel: str,
        repo: str,
        number: int,
        reason: str,
        release_at: datetime,
        now: datetime,
    ) -> bool:
        """Queue a PR for a channel; False when it is already queued there."""
        stmt = (
            self._insert(HeldAlertRow.__table__)
            .values(
                platform=platform,
                channel=channel,
                repo=repo,
                pr_number=number,
                reason=reason,
                release_at=release_at,
                attempts=0,
                created_at=now,
            )
            .on_conflict_do_nothing(index_elements=["platform", "channel", "repo", "pr_number"])
        )
        async with self.session.begin() as session:
            return (await session.execute(stmt)).rowcount == 1

    async def open_batch(self, platform: str, channel: str, now: datetime) -> datetime | None:
        """The release time of the channel's batch window still open at `now`, if any."""
        async with self.session() as session:
            return await session.scalar(
                select(func.min(HeldAlertRow.release_at)).where(
                    HeldAlertRow.platform == platform,
                    HeldAlertRow.channel == channel,
                    HeldAlertRow.reason == "batch",
                    HeldAlertRow.release_at > now,
                )
            )

    async def due_channels(self, now: datetime) -> list[tuple[str, str]]:
        async with self.session() as session:
            rows = await session.execute(
                select(HeldAlertRow.platform, HeldAlertRow.channel)
                .where(HeldAlertRow.release_at <= now)
                .distinct()
            )
            return sorted((p, c) for p, c in rows)

    async def held(self, platform: str | None = None, channel: str | None = None) -> list[Held]:
        query = select(HeldAlertRow).order_by(HeldAlertRow.id)
        if platform is not None:
            query = query.where(
                and_(HeldAlertRow.platform == platform, HeldAlertRow.channel == channel)
            )
        async with self.session() as session:
            return [_held(r) for r in (await session.execute(query)).scalars()]

    async def reschedule(
        self, ids: Sequence[int], *, release_at: datetime, reason: str, failed: bool = False
    ) -> None:
        if not ids:
            return
        values: dict[str, object] = {"release_at": release_at, "reason": reason}
        if failed:
            values["attempts"] = HeldAlertRow.attempts + 1
        async with self.session.begin() as session:
            await session.execute(
                update(HeldAlertRow).where(HeldAlertRow.id.in_(list(ids))).values(**values)
            )

    async def drop_held(self, ids: Sequence[int]) -> None:
        if not ids:
            return
        async with self.session.begin() as session:
            await session.execute(delete(HeldAlertRow).where(HeldAlertRow.id.in_(list(ids))))
