"""Table definitions. Schema changes go through Alembic migrations in migrations/versions."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


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


class Base(DeclarativeBase):
    pass


class PullRequestRow(Base):
    __tablename__ = "pull_requests"
    __table_args__ = (
        UniqueConstraint("repo", "number", name="uq_pull_requests_repo_number"),
        Index("ix_pull_requests_repo_merged_at", "repo", "merged_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    repo: Mapped[str] = mapped_column(String(200))
    number: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text, default="")
    url: Mapped[str] = mapped_column(Text)
    # Text: any length on every database (migration 0008).
    author: Mapped[str | None] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    merged_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    additions: Mapped[int] = mapped_column(Integer, default=0)
    deletions: Mapped[int] = mapped_column(Integer, default=0)
    changed_files: Mapped[int] = mapped_column(Integer, default=0)
    files_known: Mapped[bool] = mapped_column(Boolean, default=True)
    review_count: Mapped[int] = mapped_column(Integer, default=0)
    comment_count: Mapped[int] = mapped_column(Integer, default=0)
    merged_by: Mapped[str | None] = mapped_column(Text)
    base_ref: Mapped[str | None] = mapped_column(Text)
    fetched_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class PRFileRow(Base):
    __tablename__ = "pr_files"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pr_id: Mapped[int] = mapped_column(
        ForeignKey("pull_requests.id", ondelete="CASCADE"), index=True
    )
    path: Mapped[str] = mapped_column(Text)
    additions: Mapped[int] = mapped_column(Integer, default=0)
    deletions: Mapped[int] = mapped_column(Integer, default=0)
    change_type: Mapped[str | None] = mapped_column(String(20))


class PRLabelRow(Base):
    __tablename__ = "pr_labels"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pr_id: Mapped[int] = mapped_column(
        ForeignKey("pull_requests.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(Text)


class PRAnalysisRow(Base):
    """A cached analysis of one PR version under one rule set (see bot.analysis.cache)."""

    __tablename__ = "pr_analyses"

    pr_id: Mapped[int] = mapped_column(
        ForeignKey("pull_requests.id", ondelete="CASCADE"), primary_key=True
    )
    ruleset_key: Mapped[str] = mapped_column(String(80), primary_key=True)
    data: Mapped[str] = mapped_column(Text)


class ThemeMemoRow(Base):
    """A theme-detection fact kept between processes (see bot.digest.theme_memo): a
    title's phrase table or an earlier week's detection, under a key that hashes every
    input and the detection code, so a stale row is never read, only left to expire."""

    __tablename__ = "theme_memo"

    scope: Mapped[str] = mapped_column(String(200), primary_key=True)  # the repository
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    data: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class SyncWindowRow(Base):
    """A window of merged PRs fetched from GitHub; complete only when every page arrived."""

    __tablename__ = "sync_windows"
    __table_args__ = (UniqueConstraint("repo", "start", "end", name="uq_sync_windows"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    repo: Mapped[str] = mapped_column(String(200))
    start: Mapped[datetime] = mapped_column(UTCDateTime())
    end: Mapped[datetime] = mapped_column(UTCDateTime())
    complete: Mapped[bool] = mapped_column(Boolean, default=False)
    pr_count: Mapped[int] = mapped_column(Integer, default=0)
    # What GitHub said when the window was last confirmed (issueCount and newest update),
    # so a re-sync can confirm "nothing changed" with one small request.
    fingerprint: Mapped[str | None] = mapped_column(Text)
    synced_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    checked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class HTTPCacheRow(Base):
    """Conditional-request cache for GitHub REST (ETag / If-None-Match)."""

    __tablename__ = "http_cache"

    url: Mapped[str] = mapped_column(String(2000), primary_key=True)
    etag: Mapped[str] = mapped_column(String(255))
    body: Mapped[str] = mapped_column(Text)
    link: Mapped[str | None] = mapped_column(Text)  # the Link header, for pagination
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ContributorRow(Base):
    """Whether an author had merged PRs before a given time (first-time contributors)."""

    __tablename__ = "contributors"
    __table_args__ = (UniqueConstraint("repo", "login", name="uq_contributors"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    repo: Mapped[str] = mapped_column(String(200))
    login: Mapped[str] = mapped_column(Text)
    first_merged_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class LedgerOwner:
    """A claim's owner and lease, and the last failed attempt's error (redacted, one line):
    the columns bot.store.ledger decides takeovers with (migration 0005). Every ledger
    table (deliveries, alerts_sent, webhook_deliveries) has them."""

    owner_host: Mapped[str | None] = mapped_column(String(255))
    owner_pid: Mapped[int | None] = mapped_column(Integer)
    owner_started: Mapped[int | None] = mapped_column(BigInteger)
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    last_error: Mapped[str | None] = mapped_column(String(300))


class DeliveryRow(LedgerOwner, Base):
    """The delivery ledger: one row per part, so restarts resume and re-runs are no-ops.

    A runner inserts the row as "claimed" before it posts the part (the unique key lets only
    one runner win) and turns it "sent" with the message id afterwards (see bot.delivery).
    """

    __tablename__ = "deliveries"
    __table_args__ = (
        UniqueConstraint("document", "platform", "channel", "part", name="uq_deliveries"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    document: Mapped[str] = mapped_column(String(500))  # e.g. digest:vllm-project/vllm:2026-W23:en
    platform: Mapped[str] = mapped_column(String(20))
    channel: Mapped[str] = mapped_column(String(200))
    part: Mapped[int] = mapped_column(Integer)
    parts: Mapped[int] = mapped_column(Integer)
    message_id: Mapped[str | None] = mapped_column(String(200))  # Slack ts / Discord message id
    thread_id: Mapped[str | None] = mapped_column(String(200))
    posted_at: Mapped[datetime] = mapped_column(UTCDateTime())
    attempt: Mapped[int] = mapped_column(BigInteger, default=1)
    # "claimed" while a runner posts the part, "sent" once the platform returned its id,
    # "failed" after a send that raised (the next run reconciles, then retries).
    # Rows from before migration 0004 were all sent, hence the server default.
    state: Mapped[str] = mapped_column(String(10), default="sent", server_default="sent")
    claimed_by: Mapped[str | None] = mapped_column(String(64))  # the claiming run's token
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class ReleaseRow(Base):
    """A release's membership: the PRs GitHub's compare lists between its base tag and its
    tag (ancestry, not dates), so a release digest needs no second compare."""

    __tablename__ = "releases"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    tag: Mapped[str] = mapped_column(String(200), primary_key=True)
    base: Mapped[str] = mapped_column(String(200), primary_key=True)
    base_date: Mapped[datetime | None] = mapped_column(UTCDateTime())
    head_date: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # JSON: {"entries": [[reported, picked_as | null], ...], "commits": N, "unmapped": [sha],
    # "between": [tag] | null, "url": release page | null}
    data: Mapped[str] = mapped_column(Text)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime())
