"""The local store: SQLAlchemy 2 async over SQLite (default) or PostgreSQL."""

from bot.store.store import Store
from bot.store.windows import SyncWindow

__all__ = ["Store", "SyncWindow"]
