"""The entry point `bot.runtime` looks up (`bot.discord.client:create_client`)."""

from bot.discord.app import create_client

__all__ = ["create_client"]
