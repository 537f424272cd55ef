"""Alembic environment: runs on the connection handed over by bot.store.migrate."""

from __future__ import annotations

from alembic import context

import bot.alerts.tables  # noqa: F401  (registers the alert tables on the metadata)
from bot.store.tables import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "run migrations through the bot (any vllm-bot command upgrades the schema) "
        "or bot.store.migrate.upgrade()"
    )
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
