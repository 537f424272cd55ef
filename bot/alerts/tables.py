"""Tables of the alerts (migration 0002). They share `bot.store.tables.Base` so Alembic's
metadata sees them once `bot/store/migrations/env.py` imports this module."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.store.tables import Base, LedgerOwner, UTCDateTime


class SubscriptionRow(Base):
    __tablename__ = "subscriptions"
    __table_args__ = (
        Index("ix_subscriptions_channel", "platform", "channel"),
        # Ids are shown to users (`unsubscribe 12`): never reuse one for a different row.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    platform: Mapped[str] = mapped_column(String(20))
    channel: Mapped[str] = mapped_column(String(200))
    repo: Mapped[str | None] = mapped_column(String(200))  # None: every watched repo
    modules: Mapped[str] = mapped_column(Text)  # JSON list of module ids
    filters: Mapped[str] = mapped_column(Text)  # JSON object, see bot.alerts.filters
    language: Mapped[str | None] = mapped_column(String(10))
    created_by: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # Changes in place (unsubscribe one module of several) must invalidate cached indexes.
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # "alert": a message per matching PR; "weekly": one module digest a week instead
    # (migration 0006; earlier rows were all alerts).
    mode: Mapped[str] = mapped_column(String(10), default="alert", server_default="alert")


class AlertSentRow(LedgerOwner, Base):
    """One row per (subscription, PR): a claim while sending, a record once sent."""

    __tablename__ = "alerts_sent"
    __table_args__ = (
        UniqueConstraint("subscription_id", "repo", "pr_number", name="uq_alerts_sent"),
        Index("ix_alerts_sent_channel_pr", "platform", "channel", "repo", "pr_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subscription_id: Mapped[int] = mapped_column(Integer)
    repo: Mapped[str] = mapped_column(String(200))
    pr_number: Mapped[int] = mapped_column(Integer)
    platform: Mapped[str] = mapped_column(String(20))
    channel: Mapped[str] = mapped_column(String(200))
    state: Mapped[str] = mapped_column(String(10))  # "claimed" | "sent" | "failed"
    claimed_by: Mapped[str | None] = mapped_column(String(64))  # claim_token before 0005
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime())
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class WebhookDeliveryRow(LedgerOwner, Base):
    """X-GitHub-Delivery ids being or already handled, so a redelivery is a no-op (unless
    the process handling it died: bot.store.ledger takes it over)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (UniqueConstraint("delivery_id", name="uq_webhook_deliveries"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    delivery_id: Mapped[str] = mapped_column(String(100))
    event: Mapped[str] = mapped_column(String(100))
    received_at: Mapped[datetime] = mapped_column(UTCDateTime())
    # The ledger's (migration 0005): "claimed" while being processed, "sent" once handled
    # (rows from before 0005 were handled, hence the server default).
    state: Mapped[str] = mapped_column(String(10), default="sent", server_default="sent")
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class AlertStateRow(Base):
    """The poller's progress per repository."""

    __tablename__ = "alert_state"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime())  # end of the last polled window
    polled_at: Mapped[datetime] = mapped_column(UTCDateTime())


class HeldAlertRow(Base):
    """The outbox: matched PRs waiting for their batch window, quiet hours or a retry."""

    __tablename__ = "held_alerts"
    __table_args__ = (
        UniqueConstraint("platform", "channel", "repo", "pr_number", name="uq_held_alerts"),
        Index("ix_held_alerts_release", "release_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    platform: Mapped[str] = mapped_column(String(20))
    channel: Mapped[str] = mapped_column(String(200))
    repo: Mapped[str] = mapped_column(String(200))
    pr_number: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(10))  # "batch" | "quiet" | "retry"
    release_at: Mapped[datetime] = mapped_column(UTCDateTime())
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
