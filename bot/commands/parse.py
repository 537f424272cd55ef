"""`/vllm …` text → a Command: the registry's parser plus the syntax it is built from.

The grammar lives in `bot.commands.syntax` and each command's entry in
`bot.commands.registry`; this module is the one import for code that only parses.
"""

from bot.commands.registry import GENERAL_USAGE, USAGE, parse
from bot.commands.syntax import (
    FILTER_KEYS,
    LANGUAGES,
    MAX_PR_NUMBER,
    NEGATABLE,
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
    VersionCommand,
    did_you_mean,
    parse_pr_ref,
    shorten_quoted,
    suggest,
)

SUBCOMMANDS = tuple(USAGE)

__all__ = [
    "FILTER_KEYS",
    "GENERAL_USAGE",
    "LANGUAGES",
    "MAX_PR_NUMBER",
    "NEGATABLE",
    "SUBCOMMANDS",
    "USAGE",
    "Command",
    "CommandError",
    "DigestCommand",
    "HelpCommand",
    "ModulesCommand",
    "PrCommand",
    "SubscribeCommand",
    "SubscriptionFilters",
    "SubscriptionsCommand",
    "UnsubscribeCommand",
    "VersionCommand",
    "did_you_mean",
    "parse",
    "parse_pr_ref",
    "shorten_quoted",
    "suggest",
]
