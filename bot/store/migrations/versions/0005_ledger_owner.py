"""ledger owners: claims record host, pid, start time and lease; failed sends keep an error

One claim/lease primitive (bot.store.ledger) serves `deliveries`, `alerts_sent` and
`webhook_deliveries`, so all get the same columns; `alerts_sent.claim_token` becomes
`claimed_by`.

Revision ID: 0005_ledger
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_ledger"
down_revision = "0004"
branch_labels = None
depends_on = None

_TABLES = ("deliveries", "alerts_sent")


def _owner_columns() -> list[sa.Column]:
    return [
        sa.Column("owner_host", sa.String(length=255), nullable=True),
        sa.Column("owner_pid", sa.Integer(), nullable=True),
        sa.Column("owner_started", sa.BigInteger(), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=300), nullable=True),
    ]


def upgrade() -> None:
    with op.batch_alter_table("alerts_sent") as batch:
        batch.alter_column("claim_token", new_column_name="claimed_by")
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            for column in _owner_columns():
                batch.add_column(column)
    with op.batch_alter_table("webhook_deliveries") as batch:
        # Every delivery recorded before this revision was handled: "sent".
        batch.add_column(
            sa.Column("state", sa.String(length=10), nullable=False, server_default="sent")
        )
        batch.add_column(sa.Column("claimed_by", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))
        for column in _owner_columns():
            batch.add_column(column)


def downgrade() -> None:
    with op.batch_alter_table("webhook_deliveries") as batch:
        for column in reversed(_owner_columns()):
            batch.drop_column(column.name)
        batch.drop_column("claimed_at")
        batch.drop_column("claimed_by")
        batch.drop_column("state")
    # The old schema knows no "failed" rows: they were never sent, so they go.
    for table in _TABLES:
        op.execute(f"DELETE FROM {table} WHERE state = 'failed'")
        with op.batch_alter_table(table) as batch:
            for column in reversed(_owner_columns()):
                batch.drop_column(column.name)
    with op.batch_alter_table("alerts_sent") as batch:
        batch.alter_column("claimed_by", new_column_name="claim_token")
