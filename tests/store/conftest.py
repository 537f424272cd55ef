"""The `store` fixture of tests/core/test_store.py: SQLite, and PostgreSQL when a server is
reachable (skipped otherwise)."""

from tests.core.test_store import store

__all__ = ["store"]
