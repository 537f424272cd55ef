"""What a use case may ask of the running process: the settings, the store, a GitHub
client and the analyzer, and nothing else of the composition root.

`bot.app.App` (an adapter) is the one implementation; the digest, release and posting
pipelines take a `Services` so they never import the App, and import-linter's
"bot.app only in the adapters" contract holds without excluding TYPE_CHECKING imports.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from bot.analysis.analyzer import Analyzer
    from bot.core.config import Config
    from bot.github.client import GitHubClient
    from bot.github.source import SyncProgress
    from bot.store import Store

# How a pipeline shows long GitHub work without naming a terminal library: a label in,
# a progress reporter (entered while the work runs) out. The CLI's is a rich bar.
ProgressFactory: TypeAlias = "Callable[[str], AbstractContextManager[SyncProgress]]"
# Where a pipeline says what the person running it should know (a warning, a note);
# None: the log.
Say: TypeAlias = Callable[[str], None]


class Services(ABC):
    """The settings read, the store, a GitHub client factory and the analyzer."""

    config: Config
    store: Store

    @abstractmethod
    def github(self) -> GitHubClient:
        """The process's GitHub client, started on first use."""

    @abstractmethod
    async def analyzer(self, repo: str | None = None, *, offline: bool = False) -> Analyzer:
        """The analyzer for `repo`'s rule set."""

    def rules_changed(self, repo: str) -> None:  # noqa: B027 - optional hook
        """`repo`'s labelling rules were refreshed with new content: a cached analyzer of
        it is stale."""
