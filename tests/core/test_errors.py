"""One error hierarchy: transient or permanent, with the service it came from."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.errors import (
    BotError,
    ConfigError,
    GitHubAuthError,
    GitHubUnavailable,
    GitHubUnreachable,
    PermanentError,
    RateLimitExhausted,
    StoreError,
    TransientError,
    UsageError,
)
from bot.core.metrics import error_kind
from bot.discord.poster import DiscordPostError, DiscordUnavailable
from bot.slack.poster import SlackPostError, SlackUnavailable


@pytest.mark.parametrize(
    ("error", "base", "service"),
    [
        (GitHubUnavailable("GitHub answered 502"), TransientError, "github"),
        (GitHubUnreachable("connection refused"), TransientError, "github"),
        (RateLimitExhausted("rate limit", reset_at=1.0), TransientError, "github"),
        (GitHubAuthError("401"), PermanentError, "github"),
        (SlackUnavailable("slack 503"), TransientError, "slack"),
        (
            SlackPostError("not_in_channel", error="not_in_channel", channel="C1"),
            PermanentError,
            "slack",
        ),
        (DiscordUnavailable("discord 503"), TransientError, "discord"),
        (
            DiscordPostError("missing access", channel="1", status=403, code=50001),
            PermanentError,
            "discord",
        ),
        (ConfigError("bad config"), PermanentError, None),
    ],
)
def test_each_client_error_is_transient_or_permanent_and_names_its_service(
    error: BotError, base: type[BotError], service: str | None
) -> None:
    assert isinstance(error, base)
    assert not isinstance(error, TransientError if base is PermanentError else PermanentError)
    assert error.service == service


def test_metrics_tell_platform_errors_apart_by_class() -> None:
    assert error_kind(SlackUnavailable("x")) == "slack"
    assert error_kind(DiscordPostError("x", channel="1", status=403, code=50001)) == "discord"
    assert error_kind(RateLimitExhausted("x")) == "github_rate_limit"
    assert error_kind(GitHubUnavailable("x")) == "github"
    assert error_kind(UsageError("x")) == "usage"
    assert error_kind(BotError("x", service="slack")) == "slack"
    assert error_kind(RuntimeError("x")) == "internal"


def test_errors_are_classified_by_the_bots_classes_not_by_library() -> None:
    # Each client maps its library's errors at its boundary; one left unmapped is a bug
    # there, counted as internal rather than guessed from the package that defines it.
    import discord
    from slack_sdk.errors import SlackApiError

    assert error_kind(SlackApiError("boom", {"ok": False})) == "internal"
    assert error_kind(discord.ClientException("boom")) == "internal"
    assert error_kind(StoreError("database is locked")) == "store"


def test_usage_errors_exit_2_and_others_1() -> None:
    assert ConfigError("x").exit_code == 2
    assert GitHubUnavailable("x").exit_code == 1
    assert BotError("x", hint="set GITHUB_TOKEN").hint == "set GITHUB_TOKEN"
    assert str(BotError("the message", hint="h")) == "the message"


async def test_the_store_maps_database_errors_to_store_error(tmp_path: Path) -> None:
    from sqlalchemy import text

    from bot.store import Store

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite3'}")
    try:
        async with store.engine.connect() as connection:
            with pytest.raises(StoreError, match="no such table") as caught:
                await connection.execute(text("SELECT * FROM no_such_table"))
    finally:
        await store.close()
    assert error_kind(caught.value) == "store"
    assert "OperationalError" in type(caught.value.__cause__).__name__


def test_every_error_the_product_defines_is_a_bot_error() -> None:
    import importlib
    import inspect
    import pkgutil

    import bot
    import formatters

    outside = set()
    for package in (bot, formatters):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if ".migrations" in info.name or info.name.endswith(".__main__"):
                continue  # Alembic's scripts run inside Alembic; __main__ runs the CLI
            module = importlib.import_module(info.name)
            for name, cls in inspect.getmembers(module, inspect.isclass):
                if (
                    cls.__module__ == info.name
                    and issubclass(cls, Exception)
                    and not name.startswith("_")
                    and not issubclass(cls, BotError)
                ):
                    outside.add(f"{info.name}.{name}")
    assert outside == set()
