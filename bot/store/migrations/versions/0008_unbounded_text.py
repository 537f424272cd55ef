"""text from GitHub unbounded on PostgreSQL, as on SQLite

Revision ID: 0008
Revises: 0007

SQLite never enforces a VARCHAR length, PostgreSQL does: a login of 201 characters was
stored by one and aborted a whole import on the other. Logins, label names and branch names
come from GitHub (or an export) and have no length we can promise, so PostgreSQL stores
them as TEXT too; nothing changes on SQLite.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

# (table, column, the VARCHAR length it had)
COLUMNS = [
    ("pull_requests", "author", 200),
    ("pull_requests", "merged_by", 200),
    ("pull_requests", "base_ref", 255),
    ("pr_labels", "name", 255),
    ("contributors", "login", 200),
]


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column, _ in COLUMNS:
        op.alter_column(table, column, type_=sa.Text())


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column, length in COLUMNS:
        # Longer values are cut to fit the old type (the old schema could not hold them).
        op.alter_column(
            table,
            column,
            type_=sa.String(length=length),
            postgresql_using=f"left({column}, {length})",
        )
