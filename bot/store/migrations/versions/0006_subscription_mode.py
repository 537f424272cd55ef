"""subscription mode: per-PR alerts or a weekly module digest

Revision ID: 0006
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
# Written next to a parallel 0005 (delivery ledger owners): once both are merged this
# line says "0005", keeping one head.
down_revision = "0005_ledger"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("subscriptions") as batch:
        # Every subscription made before this revision asked for per-PR alerts.
        batch.add_column(
            sa.Column("mode", sa.String(length=10), nullable=False, server_default="alert")
        )


def downgrade() -> None:
    # The old schema would alert a weekly subscription per PR: drop those rather than
    # silently changing what the channel asked for.
    op.execute("DELETE FROM subscriptions WHERE mode = 'weekly'")
    with op.batch_alter_table("subscriptions") as batch:
        batch.drop_column("mode")
