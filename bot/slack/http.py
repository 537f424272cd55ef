"""Slack HTTP mode entry point for `serve`: the handler of `POST /slack/events`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.slack.app import SlackBot, build_slack_bot, events_view

if TYPE_CHECKING:
    from bot.app import App


def bot_handler(bot: SlackBot) -> Any:
    """An aiohttp handler that hands Slack's request to bolt (which verifies the signature)."""

    events = events_view(bot)
    # serve drains the bot's pending answers at shutdown (bot.runtime.integrations._work_of).
    events.bot = bot  # type: ignore[attr-defined]
    return events


def events_handler(services: App) -> Any:
    """`(services) -> aiohttp handler` for POST /slack/events (see bot.runtime.integrations)."""
    return bot_handler(build_slack_bot(services))
