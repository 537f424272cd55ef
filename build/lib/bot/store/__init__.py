"""The local store: SQLAlchemy 2 async over SQLite (default) or PostgreSQL."""

from bot.store.store import Store, SyncWindow

__all__ = ["Store", "SyncWindow"]
