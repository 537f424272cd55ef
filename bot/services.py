"""Kept while the parallel branches still import `Services`: the bot's composition root
is `bot.app.App` (remove this module once nothing imports it)."""

from bot.app import App

Services = App

__all__ = ["App", "Services"]
