"""releases: the PRs between two release tags

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "releases",
        sa.Column("repo", sa.String(length=200), nullable=False),
        sa.Column("tag", sa.String(length=200), nullable=False),
        sa.Column("base", sa.String(length=200), nullable=False),
        sa.Column("base_date", sa.DateTime(timezone=True), nullable=True),
        sa.Column("head_date", sa.DateTime(timezone=True), nullable=True),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("repo", "tag", "base"),
    )


def downgrade() -> None:
    op.drop_table("releases")
