"""GitHub ingestion: one HTTP client, GraphQL (with a token) or REST (without) sources."""

from __future__ import annotations

import asyncio

from bot.core.config import Config, Environment
from bot.github.client import GitHubClient, Notice, RateLimit, Sleep

__all__ = ["GitHubClient", "RateLimit", "github_client"]


def github_client(
    config: Config,
    env: Environment,
    *,
    notice: Notice | None = None,
    sleep: Sleep | None = None,
) -> GitHubClient:
    """The client for this configuration: GraphQL when GITHUB_TOKEN is set, REST otherwise.

    `notice` receives the one-time "unauthenticated: 60 requests/hour" message (default: the
    log); `sleep` is injectable so callers and tests control waiting.
    """
    token = env.github_token.get_secret_value() if env.github_token else None
    return GitHubClient(
        token=token,
        api_url=env.github_api_url,
        graphql_url=env.github_graphql_url,
        timeout=config.github.timeout_seconds,
        max_retries=config.github.max_retries,
        page_size=config.github.page_size,
        freshness_minutes=config.github.freshness_minutes,
        notice=notice,
        sleep=asyncio.sleep if sleep is None else sleep,
    )
