"""The one command layer behind `/vllm` on Slack, Discord and `vllm-bot chat`.

    # a parse error or a cached answer goes straight into the acknowledgement
    command, reply = await quick_reply(text, ctx)
    if reply is None:
        ack(progress_text(command)); reply = await dispatch(command, ctx)

Adapters render the neutral `Reply` (text or Document) for their platform.
"""

from bot.commands.context import (
    Backend,
    Context,
    ModuleInfo,
    SubscriptionInfo,
    SubscriptionService,
    channel_language,
)
from bot.commands.dispatch import (
    NOT_AVAILABLE,
    cached_reply,
    dispatch,
    handle,
    quick_reply,
    resolve_modules,
)
from bot.commands.help import help_text, progress_text
from bot.commands.parse import (
    USAGE,
    Command,
    CommandError,
    DigestCommand,
    HelpCommand,
    ModulesCommand,
    PrCommand,
    SubscribeCommand,
    SubscriptionFilters,
    SubscriptionsCommand,
    UnsubscribeCommand,
    parse,
    parse_pr_ref,
)
from bot.commands.reply import Reply

__all__ = [
    "NOT_AVAILABLE",
    "USAGE",
    "Backend",
    "Command",
    "CommandError",
    "Context",
    "DigestCommand",
    "HelpCommand",
    "ModuleInfo",
    "ModulesCommand",
    "PrCommand",
    "Reply",
    "SubscribeCommand",
    "SubscriptionFilters",
    "SubscriptionInfo",
    "SubscriptionService",
    "SubscriptionsCommand",
    "UnsubscribeCommand",
    "cached_reply",
    "channel_language",
    "dispatch",
    "handle",
    "help_text",
    "parse",
    "parse_pr_ref",
    "progress_text",
    "quick_reply",
    "resolve_modules",
]
