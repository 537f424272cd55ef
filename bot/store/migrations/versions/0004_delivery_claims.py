"""delivery claims: a part is claimed before it is posted

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deliveries") as batch:
        # Every row written before this revision was recorded after its send: "sent".
        batch.add_column(
            sa.Column("state", sa.String(length=10), nullable=False, server_default="sent")
        )
        batch.add_column(sa.Column("claimed_by", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # The old schema reads every row as posted: claims of parts never sent must go first.
    op.execute("DELETE FROM deliveries WHERE state = 'claimed'")
    with op.batch_alter_table("deliveries") as batch:
        batch.drop_column("claimed_at")
        batch.drop_column("claimed_by")
        batch.drop_column("state")
