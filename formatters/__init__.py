"""Platform payloads for Documents: Slack Block Kit and Discord embeds.

Both renderers return a list of payloads in posting order. Threading is positional:
payload 0 is the summary posted in the channel, every later payload is a reply in the
thread of payload 0 (Slack: ``thread_ts`` of payload 0's ``ts``; Discord: a thread
started from payload 0). The payloads contain nothing else, so ``digest --format slack``
can print them as they will be sent. Validate before posting with ``formatters.validate``.
"""

from formatters.discord import discord_thread_name, render_discord
from formatters.slack import render_slack
from formatters.validate import validate_discord_message, validate_slack_message

__all__ = [
    "discord_thread_name",
    "render_discord",
    "render_slack",
    "validate_discord_message",
    "validate_slack_message",
]
