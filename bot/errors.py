"""Errors the user sees as one clear line. Exit status follows CONTRACT."""

from __future__ import annotations


class BotError(Exception):
    """Base class: the message is shown to the user as it is."""

    exit_code = 1


class UsageError(BotError):
    """Bad usage, bad config or bad input (exit 2)."""

    exit_code = 2


class ConfigError(UsageError):
    pass


class NotFoundError(UsageError):
    """The thing asked for does not exist (unknown repo, PR not found)."""


class GitHubError(BotError):
    """GitHub failed in a way retrying did not fix (exit 1)."""


class GitHubUnavailable(GitHubError):
    """GitHub unreachable or answering 5xx after bounded retries."""


class GitHubAuthError(GitHubError):
    """401: token missing scopes, expired or wrong."""


class RateLimitExhausted(GitHubError):
    def __init__(self, message: str, reset_at: float | None = None) -> None:
        super().__init__(message)
        self.reset_at = reset_at
