"""The one command layer behind `/vllm` on Slack, Discord and `vllm-bot chat`.

Every command is declared once in `bot.commands.registry`; the text parser, help, usage
lines and the Discord app-command group are generated from it. Every adapter answers
through one driver (`bot.commands.driver.drive`): a parse error or a cached answer goes
into the acknowledgement, anything slower is acknowledged with a progress line and
followed up. Adapters render the neutral `Reply` (text or Document) for their platform.
The answers themselves are the use cases' (bot.usecases), reached through `Context.backend`.
"""

from bot.commands.context import Backend, Context, channel_language
from bot.commands.dispatch import cached_reply, dispatch, handle, quick_reply
from bot.commands.registry import (
    COMMANDS,
    USAGE,
    Argument,
    CommandSpec,
    help_text,
    parse,
    progress_text,
)
from bot.commands.reply import Reply, ReplyStatus
from bot.commands.syntax import (
    Command,
    CommandError,
    DigestCommand,
    HelpCommand,
    ModulesCommand,
    PrCommand,
    SubscribeCommand,
    SubscriptionsCommand,
    UnsubscribeCommand,
    VersionCommand,
    parse_pr_ref,
)
from bot.core.filters import SubscriptionFilters

# The English text of "not available", for callers that compare against it.
NOT_AVAILABLE = "subscriptions are not available yet"

__all__ = [
    "COMMANDS",
    "NOT_AVAILABLE",
    "USAGE",
    "Argument",
    "Backend",
    "Command",
    "CommandError",
    "CommandSpec",
    "Context",
    "DigestCommand",
    "HelpCommand",
    "ModulesCommand",
    "PrCommand",
    "Reply",
    "ReplyStatus",
    "SubscribeCommand",
    "SubscriptionFilters",
    "SubscriptionsCommand",
    "UnsubscribeCommand",
    "VersionCommand",
    "cached_reply",
    "channel_language",
    "dispatch",
    "handle",
    "help_text",
    "parse",
    "parse_pr_ref",
    "progress_text",
    "quick_reply",
]
