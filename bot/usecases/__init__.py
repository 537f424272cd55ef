"""One home per use case: look up a PR, build a digest, post it, sync, build the archive,
change a channel's subscriptions, a release, what the bot knows about itself.

Each takes narrow dependencies (`bot.services.Services`: the settings, the store, a GitHub
client factory, the analyzer; or parts of it), never the composition root. The CLI
(bot.cli), the chat command layer (bot.commands: Slack, Discord, `vllm-bot chat`) and the
scheduler (bot.runtime.scheduler) are adapters over them: parse, call, render. Import the
modules themselves; this package imports nothing, so `vllm-bot --help` loads none of it.
"""
