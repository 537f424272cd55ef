"""Slack HTTP mode entry point for `serve`: the handler of `POST /slack/events`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request

from bot.slack.app import SlackBot, build_slack_bot

if TYPE_CHECKING:
    from bot.services import Services


def bot_handler(bot: SlackBot) -> Any:
    """An aiohttp handler that hands Slack's request to bolt (which verifies the signature)."""

    async def events(request: web.Request) -> web.Response:
        bolt_response = await bot.app.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(bolt_response)

    # serve drains the bot's pending answers at shutdown (bot.runtime.integrations._work_of).
    events.bot = bot  # type: ignore[attr-defined]
    return events


def events_handler(services: Services) -> Any:
    """`(services) -> aiohttp handler` for POST /slack/events (see bot.runtime.integrations)."""
    return bot_handler(build_slack_bot(services))
