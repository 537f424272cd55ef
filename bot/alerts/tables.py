"""Tables of the alerts (migration 0002). They share `bot.store.tables.metadata` so
Alembic sees them once `bot/store/migrations/env.py` imports this module."""

from __future__ import annotations

from sqlalchemy import Column, Index, Integer, String, Table, Text, UniqueConstraint

from bot.store.tables import UTCDateTime, id_column, ledger_owner, metadata

subscriptions = Table(
    "subscriptions",
    metadata,
    id_column(),
    Column("platform", String(20), nullable=False),
    Column("channel", String(200), nullable=False),
    Column("repo", String(200)),  # None: every watched repo
    Column("modules", Text, nullable=False),  # JSON list of module ids
    Column("filters", Text, nullable=False),  # JSON object, see bot.alerts.filters
    Column("language", String(10)),
    Column("created_by", String(200)),
    Column("created_at", UTCDateTime(), nullable=False),
    # Changes in place (unsubscribe one module of several) must invalidate cached indexes.
    Column("updated_at", UTCDateTime(), nullable=False),
    # "alert": a message per matching PR; "weekly": one module digest a week instead
    # (migration 0006; earlier rows were all alerts).
    Column("mode", String(10), nullable=False, default="alert", server_default="alert"),
    Index("ix_subscriptions_channel", "platform", "channel"),
    # Ids are shown to users (`unsubscribe 12`): never reuse one for a different row.
    sqlite_autoincrement=True,
)

# One row per (subscription, PR): a claim while sending, a record once sent.
alerts_sent = Table(
    "alerts_sent",
    metadata,
    id_column(),
    Column("subscription_id", Integer, nullable=False),
    Column("repo", String(200), nullable=False),
    Column("pr_number", Integer, nullable=False),
    Column("platform", String(20), nullable=False),
    Column("channel", String(200), nullable=False),
    Column("state", String(10), nullable=False),  # "claimed" | "sent" | "failed"
    Column("claimed_by", String(64)),  # claim_token before 0005
    Column("claimed_at", UTCDateTime(), nullable=False),
    Column("sent_at", UTCDateTime()),
    *ledger_owner(),
    UniqueConstraint("subscription_id", "repo", "pr_number", name="uq_alerts_sent"),
    Index("ix_alerts_sent_channel_pr", "platform", "channel", "repo", "pr_number"),
)

# X-GitHub-Delivery ids being or already handled, so a redelivery is a no-op (unless the
# process handling it died: bot.store.ledger takes it over).
webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    id_column(),
    Column("delivery_id", String(100), nullable=False),
    Column("event", String(100), nullable=False),
    Column("received_at", UTCDateTime(), nullable=False),
    # The ledger's (migration 0005): "claimed" while being processed, "sent" once handled
    # (rows from before 0005 were handled, hence the server default).
    Column("state", String(10), nullable=False, default="sent", server_default="sent"),
    Column("claimed_by", String(64)),
    Column("claimed_at", UTCDateTime()),
    *ledger_owner(),
    UniqueConstraint("delivery_id", name="uq_webhook_deliveries"),
)

# The poller's progress per repository.
alert_state = Table(
    "alert_state",
    metadata,
    Column("repo", String(200), primary_key=True),
    Column("last_seen", UTCDateTime(), nullable=False),  # end of the last polled window
    Column("polled_at", UTCDateTime(), nullable=False),
)

# The outbox: matched PRs waiting for their batch window, quiet hours or a retry.
held_alerts = Table(
    "held_alerts",
    metadata,
    id_column(),
    Column("platform", String(20), nullable=False),
    Column("channel", String(200), nullable=False),
    Column("repo", String(200), nullable=False),
    Column("pr_number", Integer, nullable=False),
    Column("reason", String(10), nullable=False),  # "batch" | "quiet" | "retry"
    Column("release_at", UTCDateTime(), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("created_at", UTCDateTime(), nullable=False),
    UniqueConstraint("platform", "channel", "repo", "pr_number", name="uq_held_alerts"),
    Index("ix_held_alerts_release", "release_at"),
)
