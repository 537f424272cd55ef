"""The running bot's shared services: config, environment, store, GitHub and analyzers.

The CLI, the command layer and `serve` all start one `Services` and close it at the end,
so every entry point sees the same configuration, store and clients.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import Config, Environment, database_url, load_config
from bot.errors import ConfigError
from bot.store import Store

if TYPE_CHECKING:
    from bot.analysis import Analyzer
    from bot.discord.poster import DiscordRestPoster
    from bot.github.client import GitHubClient

log = logging.getLogger(__name__)


@dataclass
class Services:
    config: Config
    env: Environment
    store: Store
    _github: GitHubClient | None = None
    _analyzers: dict[str, Analyzer] = field(default_factory=dict)
    _slack_poster: Any = None
    _discord_poster: Any = None
    # The command layer reads `subscriptions`; both come from bot.alerts at start.
    subscriptions: Any = None
    _alerts_runtime: Any = None

    @classmethod
    async def start(cls, config_path: str | Path | None = None) -> Services:
        env = Environment()
        config = load_config(config_path, env)
        store = await Store.open(database_url(env))
        services = cls(config=config, env=env, store=store)
        from bot.alerts.wiring import runtime

        services.subscriptions = (await runtime(services)).subscriptions
        return services

    async def __aenter__(self) -> Services:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def github_if_started(self) -> GitHubClient | None:
        """The GitHub client when something has used it (metrics must not start one)."""
        return self._github

    def github(self) -> GitHubClient:
        if self._github is None:
            from bot.github import github_client

            self._github = github_client(self.config, self.env)
        return self._github

    def slack_poster(self) -> Any:
        """One SlackPoster per process, so the one-message-per-second pacing is shared."""
        if self._slack_poster is None:
            if self.env.slack_bot_token is None:
                raise ConfigError(
                    "SLACK_BOT_TOKEN is not set: create a Slack app and export its bot token "
                    "(see docs/slack.md)"
                )
            from bot.slack.poster import SlackPoster, slack_client

            client = slack_client(
                self.env.slack_bot_token.get_secret_value(), self.env.slack_api_url
            )
            self._slack_poster = SlackPoster(client)
        return self._slack_poster

    def discord_poster(self) -> DiscordRestPoster:
        """One Discord REST connection per process (logged in on first post), shared by
        digests and alerts so discord.py's rate-limit buckets are too."""
        if self._discord_poster is None:
            from bot.discord.poster import DiscordRestPoster

            # Checks DISCORD_BOT_TOKEN when it logs in, with the fix in its error.
            self._discord_poster = DiscordRestPoster(self.env)
        return self._discord_poster

    async def analyzer(self, repo: str | None = None, *, offline: bool = False) -> Analyzer:
        """The analyzer for `repo`'s rule set ("auto" reads the repo's labelling rules once;
        `offline` builds them from stored file paths instead, without caching the result)."""
        repo_config = self.config.repo(repo)
        cached = self._analyzers.get(repo_config.name)
        if cached is not None:
            return cached
        from bot.analysis import Analyzer, RuleSetError, load_ruleset

        if repo_config.modules == "auto":
            ruleset = await self._auto_ruleset(repo_config.name, offline)
        else:
            try:
                ruleset = load_ruleset(repo_config.modules)
            except RuleSetError as exc:
                raise ConfigError(str(exc)) from None
        analyzer = Analyzer(ruleset)
        if not (offline and repo_config.modules == "auto"):
            self._analyzers[repo_config.name] = analyzer
        return analyzer

    async def _auto_ruleset(self, repo: str, offline: bool):
        """Rules from the repo's own labeler/Mergify files (cached in the store for a day);
        from stored file paths when GitHub cannot be asked and nothing is cached."""
        from bot.analysis.auto_rules import build_auto_ruleset
        from bot.errors import GitHubError
        from bot.github.repo_files import cached_repo_snapshot

        try:
            snapshot = await cached_repo_snapshot(self.github(), repo, self.store, offline=offline)
        except GitHubError as exc:
            log.warning("labelling rules of %s unavailable (%s); using generic rules", repo, exc)
            snapshot = None
        labels = await self.store.label_names(repo)
        subfolders = await self.store.subfolders(repo)
        if snapshot is None:
            folders = await self.store.top_level_dirs(repo)
            return build_auto_ruleset(
                None, None, folders, labels=labels, repo=repo, subfolders=subfolders
            )
        return build_auto_ruleset(
            snapshot.files.get(".github/labeler.yml"),
            snapshot.files.get(".github/mergify.yml"),
            snapshot.top_level_dirs,
            labels=labels,
            repo=repo,
            subfolders=subfolders,
        )

    async def close(self) -> None:
        if self._alerts_runtime is not None:
            await self._alerts_runtime.stop()
        if self._github is not None:
            await self._github.aclose()
        if self._discord_poster is not None:
            await self._discord_poster.close()
        await self.store.close()
