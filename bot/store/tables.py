"""Table definitions. Schema changes go through Alembic migrations in migrations/versions.

SQLAlchemy Core tables, not ORM classes: the store reads and writes plain rows, and
declaring and configuring mapped classes cost the bot's start-up more than anything else
left in it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect

# Every table of the bot, the alerts' (bot.alerts.tables) included: Alembic's target.
metadata = MetaData()


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite drops the offset otherwise)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use timezone-aware values")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def id_column() -> Column[int]:
    """The surrogate key most tables have (a fresh Column: one belongs to one table)."""
    return Column("id", Integer, primary_key=True, autoincrement=True)


def ledger_owner() -> list[Column[Any]]:
    """A claim's owner and lease, and the last failed attempt's error (redacted, one line):
    the columns bot.store.ledger decides takeovers with (migration 0005). Every ledger
    table (deliveries, alerts_sent, webhook_deliveries) has them; fresh objects per call,
    as a Column belongs to one table."""
    return [
        Column("owner_host", String(255)),
        Column("owner_pid", Integer),
        Column("owner_started", BigInteger),
        Column("lease_until", UTCDateTime()),
        Column("last_error", String(300)),
    ]


def _pr_id() -> Column[int]:
    """A PR's file or label row: gone with its PR, and looked up by it."""
    return Column(
        "pr_id",
        Integer,
        ForeignKey("pull_requests.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )


pull_requests = Table(
    "pull_requests",
    metadata,
    id_column(),
    Column("repo", String(200), nullable=False),
    Column("number", Integer, nullable=False),
    Column("title", Text, nullable=False),
    Column("body", Text, nullable=False, default=""),
    Column("url", Text, nullable=False),
    # Text: any length on every database (migration 0008).
    Column("author", Text),
    Column("state", String(10), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("merged_at", UTCDateTime()),
    Column("closed_at", UTCDateTime()),
    Column("additions", Integer, nullable=False, default=0),
    Column("deletions", Integer, nullable=False, default=0),
    Column("changed_files", Integer, nullable=False, default=0),
    Column("files_known", Boolean, nullable=False, default=True),
    Column("review_count", Integer, nullable=False, default=0),
    Column("comment_count", Integer, nullable=False, default=0),
    Column("merged_by", Text),
    Column("base_ref", Text),
    Column("fetched_at", UTCDateTime()),
    UniqueConstraint("repo", "number", name="uq_pull_requests_repo_number"),
    Index("ix_pull_requests_repo_merged_at", "repo", "merged_at"),
)

pr_files = Table(
    "pr_files",
    metadata,
    id_column(),
    _pr_id(),
    Column("path", Text, nullable=False),
    Column("additions", Integer, nullable=False, default=0),
    Column("deletions", Integer, nullable=False, default=0),
    Column("change_type", String(20)),
)

pr_labels = Table(
    "pr_labels",
    metadata,
    id_column(),
    _pr_id(),
    Column("name", Text, nullable=False),
)

# A cached analysis of one PR version under one rule set (see bot.analysis.cache).
pr_analyses = Table(
    "pr_analyses",
    metadata,
    Column("pr_id", Integer, ForeignKey("pull_requests.id", ondelete="CASCADE"), primary_key=True),
    Column("ruleset_key", String(80), primary_key=True),
    Column("data", Text, nullable=False),
)

# A theme-detection fact kept between processes (see bot.digest.theme_memo): a title's
# phrase table or an earlier week's detection, under a key that hashes every input and the
# detection code, so a stale row is never read, only left to expire.
theme_memo = Table(
    "theme_memo",
    metadata,
    Column("scope", String(200), primary_key=True),  # the repository
    Column("key", String(64), primary_key=True),
    Column("data", Text, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False, index=True),
)

# A window of merged PRs fetched from GitHub; complete only when every page arrived.
sync_windows = Table(
    "sync_windows",
    metadata,
    id_column(),
    Column("repo", String(200), nullable=False),
    Column("start", UTCDateTime(), nullable=False),
    Column("end", UTCDateTime(), nullable=False),
    Column("complete", Boolean, nullable=False, default=False),
    Column("pr_count", Integer, nullable=False, default=0),
    # What GitHub said when the window was last confirmed (issueCount and newest update),
    # so a re-sync can confirm "nothing changed" with one small request.
    Column("fingerprint", Text),
    Column("synced_at", UTCDateTime()),
    Column("checked_at", UTCDateTime()),
    UniqueConstraint("repo", "start", "end", name="uq_sync_windows"),
)

# Conditional-request cache for GitHub REST (ETag / If-None-Match).
http_cache = Table(
    "http_cache",
    metadata,
    Column("url", String(2000), primary_key=True),
    Column("etag", String(255), nullable=False),
    Column("body", Text, nullable=False),
    Column("link", Text),  # the Link header, for pagination
    Column("fetched_at", UTCDateTime(), nullable=False),
)

# Whether an author had merged PRs before a given time (first-time contributors).
contributors = Table(
    "contributors",
    metadata,
    id_column(),
    Column("repo", String(200), nullable=False),
    Column("login", Text, nullable=False),
    Column("first_merged_at", UTCDateTime()),
    UniqueConstraint("repo", "login", name="uq_contributors"),
)

# The delivery ledger: one row per part, so restarts resume and re-runs are no-ops.
# A runner inserts the row as "claimed" before it posts the part (the unique key lets only
# one runner win) and turns it "sent" with the message id afterwards (see bot.delivery).
deliveries = Table(
    "deliveries",
    metadata,
    id_column(),
    Column("document", String(500), nullable=False),  # e.g. digest:vllm-project/vllm:2026-W23:en
    Column("platform", String(20), nullable=False),
    Column("channel", String(200), nullable=False),
    Column("part", Integer, nullable=False),
    Column("parts", Integer, nullable=False),
    Column("message_id", String(200)),  # Slack ts / Discord message id
    Column("thread_id", String(200)),
    Column("posted_at", UTCDateTime(), nullable=False),
    Column("attempt", BigInteger, nullable=False, default=1),
    # "claimed" while a runner posts the part, "sent" once the platform returned its id,
    # "failed" after a send that raised (the next run reconciles, then retries).
    # Rows from before migration 0004 were all sent, hence the server default.
    Column("state", String(10), nullable=False, default="sent", server_default="sent"),
    Column("claimed_by", String(64)),  # the claiming run's token
    Column("claimed_at", UTCDateTime()),
    *ledger_owner(),
    UniqueConstraint("document", "platform", "channel", "part", name="uq_deliveries"),
)

# A release's membership: the PRs GitHub's compare lists between its base tag and its tag
# (ancestry, not dates), so a release digest needs no second compare.
releases = Table(
    "releases",
    metadata,
    Column("repo", String(200), primary_key=True),
    Column("tag", String(200), primary_key=True),
    Column("base", String(200), primary_key=True),
    Column("base_date", UTCDateTime()),
    Column("head_date", UTCDateTime()),
    # JSON: {"entries": [[reported, picked_as | null], ...], "commits": N, "unmapped": [sha],
    # "between": [tag] | null, "url": release page | null}
    Column("data", Text, nullable=False),
    Column("fetched_at", UTCDateTime(), nullable=False),
)
