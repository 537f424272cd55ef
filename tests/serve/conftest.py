"""Helpers for the serve tests: a config, a real SQLite store and a App stand-in."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.core.config import Config, Environment
from bot.store import Store
from tests.fakes.backend import bench, github_server, migrated_store
from tests.serve.fakes import FakeAPIs


def make_config(**overrides: Any) -> Config:
    data: dict[str, Any] = {
        "timezone": "Europe/Berlin",
        "repos": [{"name": "vllm-project/vllm"}],
        "server": {"host": "127.0.0.1", "port": 0},
    }
    data.update(overrides)
    return Config.model_validate(data)


@dataclass
class FakeServices:
    """What serve and doctor use of `bot.app.App`."""

    config: Config
    store: Store
    env: Environment = field(default_factory=Environment)
    _github: Any = None

    @property
    def github_if_started(self) -> Any:
        return self._github


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'serve.sqlite3'}")
    yield store
    await store.close()


@pytest.fixture
async def fake_apis(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeAPIs]:
    apis = await FakeAPIs().start()
    for name, value in apis.env().items():
        monkeypatch.setenv(name, value)
    yield apis
    await apis.close()


@pytest.fixture(autouse=True)
def _restore_root_logging() -> Iterator[None]:
    # serve_forever installs its own root handler; later tests must get pytest's back.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    for handler in handlers:
        if handler not in root.handlers:
            root.addHandler(handler)
    root.setLevel(level)


__all__ = ["bench", "github_server", "migrated_store"]
