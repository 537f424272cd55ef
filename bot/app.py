"""The running bot's composition root: config, environment, store and the clients built
from them.

Every entry point (the CLI, the command layer, `serve`) starts one `App` and closes it at
the end, so all see the same configuration, store and clients. `App.start()` opens the
store and nothing else; a client, the analyzers and the alerts runtime are built the first
time something asks for them, so a command builds only what it uses (a PR lookup from the
store never imports the alerts, a platform client or the scheduler).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bot import discord as discord_platform
from bot import slack as slack_platform
from bot.core.config import (
    Config,
    Environment,
    database_url,
    default_store_is_new,
    load_config,
)
from bot.core.errors import ConfigError, english
from bot.core.messages import Text
from bot.core.notices import due_today
from bot.core.settings import AlertSettings
from bot.platform import Platforms, PostingServices
from bot.store import Store
from bot.store.store import store_location

if TYPE_CHECKING:
    from discord.http import HTTPClient

    from bot.alerts.subscriptions import SubscriptionService
    from bot.alerts.wiring import AlertsRuntime
    from bot.analysis.analyzer import Analyzer
    from bot.analysis.rules import RuleSet
    from bot.discord.poster import DiscordRestPoster
    from bot.github.client import GitHubClient
    from bot.platform import Platform
    from bot.slack.poster import SlackPoster

log = logging.getLogger(__name__)


def _daily(key: str) -> Callable[[str], None]:
    """A notice logged once a day (bot.core.notices), not on every command."""

    def notice(text: str) -> None:
        if due_today(key):
            log.warning("%s (said once a day)", text)

    return notice


def chat_platforms() -> list[type[Platform]]:
    """Each chat platform's class, in the order `serve`, `doctor` and /readyz report them:
    what running it takes (tokens, checks, readiness, what serve runs) is asked of the
    class, before any client exists (`bot.platform.Platform`)."""
    # Lazy: the platforms' SDKs load only for serve, doctor and commands that post.
    from bot.discord.platform import DiscordPlatform
    from bot.slack.platform import SlackPlatform

    return [SlackPlatform, DiscordPlatform]


@dataclass
class App(PostingServices):
    config: Config
    env: Environment
    store: Store
    _github: GitHubClient | None = None
    _analyzers: dict[str, Analyzer] = field(default_factory=dict)
    _slack_poster: SlackPoster | None = None
    _discord_poster: DiscordRestPoster | None = None
    _alerts: AlertsRuntime | None = None
    _subscriptions: SubscriptionService | None = None
    _platforms: Platforms | None = None
    new_store: bool = False  # this run created the default store (the first run)

    @classmethod
    async def start(cls, config_path: str | Path | None = None) -> App:
        env = Environment()
        config = load_config(config_path, env)
        new = default_store_is_new(env)
        store = await Store.open(database_url(env))
        return cls(config=config, env=env, store=store, new_store=new)

    def store_location(self) -> str:
        """Where the store is, as the first run says it."""
        return store_location(self.store.engine.url)

    async def __aenter__(self) -> App:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ clients

    @property
    def github_if_started(self) -> GitHubClient | None:
        """The GitHub client when something has used it (metrics must not start one)."""
        return self._github

    def github(self) -> GitHubClient:
        if self._github is None:
            # Lazy: the GitHub client (~85 ms: httpx) stays off store-only commands.
            from bot.github import github_client

            self._github = github_client(self.config, self.env, notice=_daily("github-token"))
            if self.env.github_token_source and due_today("github-token-source"):
                log.warning(
                    "GITHUB_TOKEN is not set: using the GitHub CLI's token (%s)",
                    self.env.github_token_source,
                )
        return self._github

    def slack_poster(self) -> SlackPoster:
        """One SlackPoster per process, so the one-message-per-second pacing is shared."""
        if self._slack_poster is None:
            if self.env.slack_bot_token is None:
                raise ConfigError(Text("error.slack.no_token"))
            # Lazy: slack-sdk (~120 ms) only for commands and serve instances that post.
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
            # Lazy: discord.py (~200 ms) only for commands and serve instances that post.
            from bot.discord.poster import DiscordRestPoster

            # Checks DISCORD_BOT_TOKEN when it logs in, with the fix in its error.
            self._discord_poster = DiscordRestPoster(self.env)
        return self._discord_poster

    # ------------------------------------------------------------------ platforms

    @property
    def platforms(self) -> Platforms:
        """Every place a document can be posted, by name (`bot.platform`). Each platform
        is built the first time it is asked for, and its client on its first post."""
        if self._platforms is None:
            registry = Platforms()
            registry.register(slack_platform.NAME, self._slack_platform)
            registry.register(discord_platform.NAME, self._discord_platform)
            registry.register_local("terminal", self._terminal_platform)
            self._platforms = registry
        return self._platforms

    def _slack_platform(self) -> Platform:
        # Lazy: the Slack platform (~270 ms) only for commands and serve instances that post.
        from bot.slack.platform import SlackPlatform

        missing = None
        if self.env.slack_bot_token is None:
            missing = "SLACK_BOT_TOKEN is not set (see docs/slack.md)"
        return SlackPlatform(self.slack_poster, missing=missing)

    def _discord_platform(self) -> Platform:
        # Lazy: the Discord platform (~410 ms) only for commands and serve that post.
        from bot.discord.platform import DiscordPlatform

        def http() -> Awaitable[HTTPClient]:
            # The process's one REST connection, shared with alerts (rate-limit buckets).
            return self.discord_poster().http()

        return DiscordPlatform(self.config, http, env=self.env)

    def _terminal_platform(self) -> Platform:
        # Lazy: like the other platforms, bot.terminal is built only when a command posts to it.
        from bot.terminal import TerminalPlatform

        return TerminalPlatform()

    # ------------------------------------------------------------------ alerts

    def alerts(self) -> AlertsRuntime:
        """The process's alerts runtime (pipeline, poller, subscriptions), built on first
        use. Building it starts nothing: only `serve` runs its flush loop."""
        if self._alerts is None:
            # Lazy: the alert pipeline and its matching index are off every command's
            # start-up but the subscription commands and serve.
            from bot.alerts.wiring import build_runtime

            self._alerts = build_runtime(self)
        return self._alerts

    @property
    def subscriptions(self) -> SubscriptionService:
        """The command layer's subscription service. Every command asks for it (to read its
        channel's language), so it is built over the store alone: the module catalogue on
        the first change, the alerts runtime never. A change still reaches a running alert
        pipeline, whose subscription index it invalidates."""
        if self._alerts is not None:
            return self._alerts.subscriptions
        if self._subscriptions is None:
            # Lazy: the alerts' store code (~36 ms) is for chat commands and serve only.
            from bot.alerts.subscriptions import SubscriptionService
            from bot.analysis.catalogue import catalogue_of

            self._subscriptions = SubscriptionService(
                self.store,
                AlertSettings.from_config(self.config),
                lambda: catalogue_of(self.config),
                on_change=self._subscriptions_changed,
            )
        return self._subscriptions

    def _subscriptions_changed(self) -> None:
        if self._alerts is not None:
            self._alerts.pipeline.invalidate()

    # ------------------------------------------------------------------ analysis

    async def analyzer(self, repo: str | None = None, *, offline: bool = False) -> Analyzer:
        """The analyzer for `repo`'s rule set. "auto" is built from the stored snapshot of
        the repository's labelling rules and the stored PRs' folders, never a GitHub
        request (`sync` and `serve` refresh the snapshot: `refresh_labelling_rules`), so
        `offline` changes nothing any more."""
        repo_config = self.config.repo(repo)
        cached = self._analyzers.get(repo_config.name)
        if cached is not None:
            return cached
        # Lazy: the rule engine (~50 ms) only for commands that analyse (not import, sync).
        from bot.analysis.analyzer import Analyzer
        from bot.analysis.rules import RuleSetError, load_ruleset

        if repo_config.modules == "auto":
            ruleset = await self._auto_ruleset(repo_config.name)
        else:
            try:
                ruleset = load_ruleset(repo_config.modules)
            except RuleSetError as exc:
                raise ConfigError(str(exc)) from None
        analyzer = Analyzer(ruleset)
        self._analyzers[repo_config.name] = analyzer
        return analyzer

    def rules_changed(self, repo: str) -> None:
        self._analyzers.pop(repo, None)

    async def _auto_ruleset(self, repo: str) -> RuleSet:
        """Rules from the stored snapshot of the repo's labeler/Mergify files; generic rules
        and the stored folders alone before the first snapshot (said once a day)."""
        # Lazy: the auto rule builder only for modules = "auto".
        from bot.analysis.auto_rules import build_auto_ruleset

        stored = await self.store.http_cache.snapshot(repo)
        labels = await self.store.prs.label_names(repo)
        folders = await self.store.prs.folders(repo)
        if stored is None:
            failure = await self.store.http_cache.snapshot_failure(repo)
            notice = _daily(f"auto-rules:{repo}")
            if failure is not None:
                notice(english("notice.auto_rules.failed", repo=repo, reason=failure.reason))
            else:
                notice(english("notice.auto_rules.missing", repo=repo))
            return build_auto_ruleset(
                None,
                None,
                folders.tops,
                labels=labels,
                repo=repo,
                subfolders=folders.subfolders,
                folder_prs=folders.prs,
            )
        snapshot = stored[0]
        return build_auto_ruleset(
            snapshot.files.get(".github/labeler.yml"),
            snapshot.files.get(".github/mergify.yml"),
            snapshot.top_level_dirs,
            labels=labels,
            repo=repo,
            subfolders=folders.subfolders,
            folder_prs=folders.prs,
        )

    async def close(self) -> None:
        if self._platforms is not None:
            await self._platforms.close()
        if self._alerts is not None:
            await self._alerts.stop()
        if self._github is not None:
            await self._github.aclose()
        if self._discord_poster is not None:
            await self._discord_poster.close()
        await self.store.close()
