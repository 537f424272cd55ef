"""Help text, and the short "working on it" line adapters show while a reply is being built."""

from __future__ import annotations

from bot.commands.parse import (
    USAGE,
    Command,
    DigestCommand,
    PrCommand,
    SubscribeCommand,
    UnsubscribeCommand,
)

_DESCRIPTIONS = {
    "pr": "one PR card: modules, kind, flags with reasons, score, size, claims, link",
    "digest": "the weekly digest (only you see it); add `post` to post it in this channel",
    "subscribe": "alert this channel when matching PRs merge; filters combine with AND, "
    "`-` negates",
    "unsubscribe": "remove subscriptions of this channel",
    "subscriptions": "list this channel's subscriptions with their ids and filters",
    "modules": "the module ids you can subscribe to",
    "help": "this help, or the usage of one command",
}

_EXAMPLES = {
    "pr": ["/vllm pr 42121", "/vllm pr https://github.com/vllm-project/vllm/pull/42121"],
    "digest": ["/vllm digest", "/vllm digest 2026-W23", "/vllm digest last post"],
    "subscribe": [
        "/vllm subscribe attention moe",
        "/vllm subscribe rocm min:7 -label:ci",
        "/vllm subscribe scheduler flag:core-path lang:zh",
    ],
    "unsubscribe": ["/vllm unsubscribe moe", "/vllm unsubscribe 3", "/vllm unsubscribe all"],
}


def help_text(topic: str | None = None) -> str:
    if topic is not None:
        lines = [f"`{USAGE[topic]}`", _DESCRIPTIONS[topic]]
        examples = _EXAMPLES.get(topic)
        if examples:
            lines.append("examples: " + " · ".join(f"`{e}`" for e in examples))
        return "\n".join(lines)
    lines = ["*/vllm* — vLLM pull-request digests, cards and alerts"]
    lines += [f"• `{USAGE[name]}` — {_DESCRIPTIONS[name]}" for name in USAGE]
    lines.append("`/vllm help <command>` shows examples.")
    return "\n".join(lines)


def progress_text(command: Command) -> str:
    """What the user sees at once while a slow reply is being built."""
    match command:
        case PrCommand(number=number, repo=repo):
            return f"looking up {repo + '#' if repo else '#'}{number}…"
        case DigestCommand(week=week, post=True):
            return f"building the {week} digest to post it in this channel…"
        case DigestCommand(week=week):
            return f"building the {week} digest…"
        case SubscribeCommand() | UnsubscribeCommand():
            return "updating this channel's subscriptions…"
        case _:
            return "working on it…"
