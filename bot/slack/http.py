"""Slack HTTP mode entry point for `serve`: the route of `POST /slack/events`."""

from __future__ import annotations

from bot.platform import Route
from bot.slack.app import SlackBot, events_view

EVENTS_PATH = "/slack/events"


def events_route(bot: SlackBot) -> Route:
    """POST /slack/events handed to bolt (which verifies the signature); `serve` drains the
    bot's pending answers at shutdown."""
    return Route("POST", EVENTS_PATH, events_view(bot), work=bot)
