"""The alerts' repositories, one per aggregate: subscriptions, alert sends (the sent
ledger), GitHub webhook deliveries, the poller's cursors and the outbox of held alerts.
Each reads and writes only its own tables. Works on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Row, and_, delete, func, insert, select, update
from sqlalchemy.engine import CursorResult, RowMapping

from bot.alerts.filters import SubscriptionFilters, filters_from_json, filters_to_json
from bot.alerts.model import Subscription
from bot.alerts.tables import (
    alert_state,
    alerts_sent,
    held_alerts,
    subscriptions,
    webhook_deliveries,
)
from bot.store.ledger import LEASE, ClaimLedger, Outcome, Owner
from bot.store.sql import upsert
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


# --- releases: a channel's release subscription is a row of this mode ---
RELEASES_MODE = "releases"


def _subscription(row: RowMapping | Mapping[str, Any]) -> Subscription:
    return Subscription(
        id=row["id"],
        platform=row["platform"],
        channel=row["channel"],
        modules=tuple(json.loads(row["modules"])),
        filters=filters_from_json(row["filters"]),
        created_at=row["created_at"],
        repo=row["repo"],
        language=row["language"],
        created_by=row["created_by"],
        weekly=row["mode"] == "weekly",
        releases=row["mode"] == RELEASES_MODE,
    )


def _held(row: Row[Any]) -> Held:
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


class Subscriptions:
    """Table `subscriptions`; deleting one also deletes its `alerts_sent` rows."""

    def __init__(self, store: Store) -> None:
        self.session = store.session

    async def add(
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
        releases: bool = False,
    ) -> Subscription:
        values = {
            "platform": platform,
            "channel": channel,
            "repo": repo,
            "modules": json.dumps(list(modules)),
            "filters": filters_to_json(filters),
            "language": filters.language,
            "created_by": created_by,
            "created_at": now,
            "updated_at": now,
            "mode": RELEASES_MODE if releases else "weekly" if weekly else "alert",
        }
        async with self.session.begin() as session:
            sub_id = (
                await session.execute(
                    insert(subscriptions).values(values).returning(subscriptions.c.id)
                )
            ).scalar_one()
        # As given, not as read back: `created_at` keeps the caller's time zone.
        return _subscription({"id": sub_id, **values})

    async def find(
        self, platform: str | None = None, channel: str | None = None
    ) -> list[Subscription]:
        query = select(subscriptions).order_by(subscriptions.c.id)
        if platform is not None:
            query = query.where(subscriptions.c.platform == platform)
        if channel is not None:
            query = query.where(subscriptions.c.channel == channel)
        async with self.session() as session:
            return [_subscription(r._mapping) for r in await session.execute(query)]

    async def delete(self, ids: Sequence[int]) -> None:
        if not ids:
            return
        async with self.session.begin() as session:
            await session.execute(delete(subscriptions).where(subscriptions.c.id.in_(ids)))
            # A cascade, in the same transaction: the ledger rows of a deleted subscription
            # can never be consulted again (ids are not reused).
            await session.execute(delete(alerts_sent).where(alerts_sent.c.subscription_id.in_(ids)))

    async def set_modules(self, sub_id: int, modules: Sequence[str], now: datetime) -> None:
        async with self.session.begin() as session:
            await session.execute(
                update(subscriptions)
                .where(subscriptions.c.id == sub_id)
                .values(modules=json.dumps(list(modules)), updated_at=now)
            )

    async def version(self) -> tuple[int, int, datetime | None]:
        """Changes whenever a subscription is added, removed or edited (ids never repeat)."""
        async with self.session() as session:
            row = (
                await session.execute(
                    select(
                        func.count(subscriptions.c.id),
                        func.max(subscriptions.c.id),
                        func.max(subscriptions.c.updated_at),
                    )
                )
            ).one()
        count, top, changed = row
        return (int(count or 0), int(top or 0), changed)


class AlertSends:
    """Table `alerts_sent`: one ledger row per (subscription, PR)."""

    def __init__(self, store: Store) -> None:
        self.session = store.session
        self.ledger = ClaimLedger(
            store.engine, store.session, alerts_sent, ("subscription_id", "repo", "pr_number")
        )

    async def claim(
        self,
        *,
        sub_ids: Sequence[int],
        repo: str,
        number: int,
        platform: str,
        channel: str,
        owner: Owner,
        now: datetime,
        lease: timedelta = LEASE,
    ) -> list[int]:
        """Claim (subscription, PR) pairs for sending; returns the ids this caller won.

        The one ledger primitive (bot.store.ledger) decides: a pair is won when no row
        exists yet, when its last send failed, or when its claim's owner is gone (a dead
        pid on this host, an expired lease elsewhere). Sent rows and live claims of others
        are never taken. The send itself goes through the delivery ledger, which checks
        the platform before posting a part an earlier attempt may have posted.
        """
        won: list[int] = []
        for sub_id in sub_ids:
            claim = await self.ledger.claim(
                {"subscription_id": sub_id, "repo": repo, "pr_number": number},
                owner,
                lease=lease,
                values={"platform": platform, "channel": channel},
                now=now,
            )
            if claim.outcome in (Outcome.NEW, Outcome.DOUBT):
                won.append(sub_id)
        return won

    async def mark_sent(self, owner: Owner, now: datetime) -> None:
        await self.ledger.record(None, {"sent_at": now}, owner=owner)

    async def fail(self, owner: Owner, error: BaseException | str) -> None:
        """A failed send: the claims stay as failed rows with the (redacted) error, and the
        next attempt, from either source, takes them at once."""
        await self.ledger.fail(None, owner, error)

    async def handled(
        self,
        sub_ids: Sequence[int],
        repo: str,
        number: int,
        *,
        now: datetime,
        lease: timedelta = LEASE,
    ) -> set[int]:
        """Subscriptions that sent this PR, or hold a live claim on it (a gone owner's
        claim is not: the PR must be queued again so someone takes it over)."""
        if not sub_ids:
            return set()
        async with self.session() as session:
            rows = await session.execute(
                select(alerts_sent).where(
                    alerts_sent.c.subscription_id.in_(list(sub_ids)),
                    alerts_sent.c.repo == repo,
                    alerts_sent.c.pr_number == number,
                )
            )
            return {r.subscription_id for r in await self.ledger.live(list(rows), now)}

    async def channel_has_sent(self, platform: str, channel: str, repo: str, number: int) -> bool:
        async with self.session() as session:
            found = await session.scalar(
                select(alerts_sent.c.id)
                .where(
                    alerts_sent.c.platform == platform,
                    alerts_sent.c.channel == channel,
                    alerts_sent.c.repo == repo,
                    alerts_sent.c.pr_number == number,
                    alerts_sent.c.state == "sent",
                )
                .limit(1)
            )
        return found is not None


class WebhookDeliveries:
    """Table `webhook_deliveries`: X-GitHub-Delivery ids being or already handled."""

    def __init__(self, store: Store) -> None:
        self.session = store.session
        self.ledger = ClaimLedger(store.engine, store.session, webhook_deliveries, ("delivery_id",))

    async def claim(self, delivery_id: str, event: str, now: datetime) -> bool:
        """True when this process should handle the delivery id: the first time it is
        seen, or when the process that was handling it is gone (the one ledger primitive,
        atomic across processes)."""
        claim = await self.ledger.claim(
            {"delivery_id": delivery_id},
            Owner.current(),
            values={"event": event, "received_at": now},
            now=now,
        )
        return claim.outcome in (Outcome.NEW, Outcome.DOUBT)

    async def finish(self, delivery_id: str) -> None:
        """The delivery is handled: a redelivery is a no-op from now on."""
        await self.ledger.record({"delivery_id": delivery_id}, upsert=False)

    async def forget(self, delivery_id: str) -> None:
        async with self.session.begin() as session:
            await session.execute(
                delete(webhook_deliveries).where(webhook_deliveries.c.delivery_id == delivery_id)
            )

    async def prune(self, before: datetime) -> None:
        async with self.session.begin() as session:
            await session.execute(
                delete(webhook_deliveries).where(webhook_deliveries.c.received_at < before)
            )


class PollCursors:
    """Table `alert_state`: how far the poller has read each repository."""

    def __init__(self, store: Store) -> None:
        self.session = store.session
        self.engine = store.engine

    async def last_seen(self, repo: str) -> datetime | None:
        async with self.session() as session:
            last_seen: datetime | None = await session.scalar(
                select(alert_state.c.last_seen).where(alert_state.c.repo == repo)
            )
            return last_seen

    async def set_last_seen(self, repo: str, last_seen: datetime, now: datetime) -> None:
        stmt = upsert(self.engine, alert_state).values(
            repo=repo, last_seen=last_seen, polled_at=now
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["repo"],
            set_={"last_seen": stmt.excluded.last_seen, "polled_at": stmt.excluded.polled_at},
        )
        async with self.session.begin() as session:
            await session.execute(stmt)


class Outbox:
    """Table `held_alerts`: matched PRs waiting for their batch window, quiet hours or a
    retry, one row per channel and PR."""

    def __init__(self, store: Store) -> None:
        self.session = store.session
        self.engine = store.engine

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
            upsert(self.engine, held_alerts)
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
            # An INSERT's result is a CursorResult (rowcount); the stubs type every
            # statement's as Result.
            result = cast("CursorResult[Any]", await session.execute(stmt))
            return result.rowcount == 1

    async def open_batch(self, platform: str, channel: str, now: datetime) -> datetime | None:
        """The release time of the channel's batch window still open at `now`, if any."""
        async with self.session() as session:
            release_at: datetime | None = await session.scalar(
                select(func.min(held_alerts.c.release_at)).where(
                    held_alerts.c.platform == platform,
                    held_alerts.c.channel == channel,
                    held_alerts.c.reason == "batch",
                    held_alerts.c.release_at > now,
                )
            )
        return release_at

    async def due_channels(self, now: datetime) -> list[tuple[str, str]]:
        async with self.session() as session:
            rows = await session.execute(
                select(held_alerts.c.platform, held_alerts.c.channel)
                .where(held_alerts.c.release_at <= now)
                .distinct()
            )
            return sorted((p, c) for p, c in rows)

    async def held(self, platform: str | None = None, channel: str | None = None) -> list[Held]:
        query = select(held_alerts).order_by(held_alerts.c.id)
        if platform is not None:
            query = query.where(
                and_(held_alerts.c.platform == platform, held_alerts.c.channel == channel)
            )
        async with self.session() as session:
            return [_held(r) for r in await session.execute(query)]

    async def reschedule(
        self, ids: Sequence[int], *, release_at: datetime, reason: str, failed: bool = False
    ) -> None:
        if not ids:
            return
        values: dict[str, object] = {"release_at": release_at, "reason": reason}
        if failed:
            values["attempts"] = held_alerts.c.attempts + 1
        async with self.session.begin() as session:
            await session.execute(
                update(held_alerts).where(held_alerts.c.id.in_(list(ids))).values(**values)
            )

    async def drop(self, ids: Sequence[int]) -> None:
        if not ids:
            return
        async with self.session.begin() as session:
            await session.execute(delete(held_alerts).where(held_alerts.c.id.in_(list(ids))))


class AlertStore:
    """The alert repositories over one store, each built once: the pipeline holds one,
    and the webhook receiver and poller it feeds share it."""

    def __init__(self, store: Store) -> None:
        self.subscriptions = Subscriptions(store)
        self.sends = AlertSends(store)
        self.webhooks = WebhookDeliveries(store)
        self.cursors = PollCursors(store)
        self.outbox = Outbox(store)
