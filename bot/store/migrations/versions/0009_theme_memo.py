"""theme memo: phrase tables and earlier weeks' theme detections kept between runs

Revision ID: 0009
Revises: 0008

A digest detects this week's themes against 8 history weeks, and last week's against its
own: every CLI run started cold and re-derived the same phrase tables and detections. The
rows are keyed by a hash of all their inputs (bot.digest.theme_memo), so they are never
updated, only added and expired.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "theme_memo",
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("scope", "key"),
    )
    op.create_index("ix_theme_memo_created_at", "theme_memo", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_theme_memo_created_at", table_name="theme_memo")
    op.drop_table("theme_memo")
