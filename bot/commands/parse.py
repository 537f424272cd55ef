"""`/vllm …` text → a Command. Syntax only: nothing here needs the store, GitHub or config.

Semantic checks that need data (is the module known, is the repo watched, does the PR exist,
has the week started) happen in `dispatch`, which raises the same `CommandError`, so every
platform shows one clear line plus the usage line either way.
"""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass, field

from bot.errors import UsageError
from bot.filters import SubscriptionFilters
from bot.models import FLAG_IDS
from bot.validators import ECHO_LIMIT, echo
from bot.weeks import WEEK_PATTERN

# GitHub PR numbers are positive 32-bit integers; anything larger cannot exist, so saying
# "too large" beats a round trip that ends in "not found".
MAX_PR_NUMBER = 2**31 - 1

USAGE: dict[str, str] = {
    "pr": "/vllm pr <number|url>",
    "digest": "/vllm digest [this|last|2026-W23] [post]",
    "subscribe": "/vllm subscribe <module...> [label:x] [-label:x] [author:x] [path:glob] "
    "[min:7] [flag:core-path] [lang:zh]",
    "unsubscribe": "/vllm unsubscribe <module|id|all>",
    "subscriptions": "/vllm subscriptions",
    "modules": "/vllm modules",
    "help": "/vllm help [command]",
}
SUBCOMMANDS = tuple(USAGE)
GENERAL_USAGE = "/vllm " + "|".join(SUBCOMMANDS)

FILTER_KEYS = ("label", "author", "path", "min", "flag", "lang")
# Keys whose value can be negated with a leading "-" (a minimum score or a language cannot).
NEGATABLE = frozenset({"label", "author", "path", "flag"})
LANGUAGES = ("en", "zh")

# Slack and phone keyboards turn quotes into typographic ones; shlex only knows ASCII.
_SMART_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})
_PR_URL = re.compile(
    r"^https?://(?:www\.)?github\.com/(?P<owner>[A-Za-z0-9_.-]+)/(?P<name>[A-Za-z0-9_.-]+)"
    r"/pull/(?P<number>\d+)(?:[/?#].*)?$",
    re.IGNORECASE,
)
_SHORT_REF = re.compile(r"^(?P<repo>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)#(?P<number>\d+)$")


_QUOTED = re.compile(rf"'([^'\n]{{{ECHO_LIMIT + 1},}})'")


def shorten_quoted(message: str) -> str:
    """Echoed input ('…') cut to about 60 characters: a 5,000-character command must not
    come back whole."""
    return _QUOTED.sub(lambda m: echo(m[1]), message)


class CommandError(UsageError):
    """Bad input: one clear line, then the usage line of the command concerned."""

    def __init__(self, message: str, command: str | None = None) -> None:
        message = shorten_quoted(message)
        self.reason = message
        self.command = command
        self.usage = USAGE.get(command or "", GENERAL_USAGE)
        super().__init__(f"{message}\nusage: {self.usage}")


# ---------------------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class PrCommand:
    number: int
    repo: str | None = None  # from a URL or OWNER/NAME#N; None means the default repo
    name = "pr"


@dataclass(frozen=True, slots=True)
class DigestCommand:
    week: str = "last"  # "this", "last" or an ISO week like "2026-W23"
    post: bool = False
    name = "digest"


@dataclass(frozen=True, slots=True)
class SubscribeCommand:
    modules: tuple[str, ...]  # as typed (lower-cased); resolved to ids by dispatch
    filters: SubscriptionFilters = field(default_factory=SubscriptionFilters)
    name = "subscribe"


@dataclass(frozen=True, slots=True)
class UnsubscribeCommand:
    target: str  # "all", a subscription id (digits) or a module id/name
    kind: str  # "all" | "id" | "module"
    name = "unsubscribe"


@dataclass(frozen=True, slots=True)
class SubscriptionsCommand:
    name = "subscriptions"


@dataclass(frozen=True, slots=True)
class ModulesCommand:
    name = "modules"


@dataclass(frozen=True, slots=True)
class HelpCommand:
    topic: str | None = None
    name = "help"


Command = (
    PrCommand
    | DigestCommand
    | SubscribeCommand
    | UnsubscribeCommand
    | SubscriptionsCommand
    | ModulesCommand
    | HelpCommand
)


# ---------------------------------------------------------------------------- helpers


def suggest(word: str, choices: list[str] | tuple[str, ...]) -> str | None:
    """The closest choice to a typo, or None when nothing is close enough to be helpful."""
    found = difflib.get_close_matches(word.lower(), [c.lower() for c in choices], n=1, cutoff=0.6)
    if not found:
        return None
    by_lower = {c.lower(): c for c in choices}
    return by_lower[found[0]]


def did_you_mean(word: str, choices: list[str] | tuple[str, ...]) -> str:
    hint = suggest(word, choices)
    return f"; did you mean '{hint}'?" if hint else ""


# Invisible characters that ride along when a command is copied from a rendered message
# (formatters put zero-width spaces before markup characters): never part of a word.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def _tokens(text: str) -> list[str]:
    try:
        return shlex.split(text.translate(_SMART_QUOTES).translate(_INVISIBLE))
    except ValueError:
        raise CommandError("unbalanced quotes in the command") from None


def _strip_slack_link(token: str) -> str:
    # Slack may send links as <https://…> or <https://…|label> in slash-command text.
    if token.startswith("<") and token.endswith(">"):
        return token[1:-1].split("|", 1)[0]
    return token


def parse_pr_ref(token: str) -> PrCommand:
    """`42121`, `#42121`, `OWNER/NAME#42121` or a GitHub pull-request URL."""
    token = _strip_slack_link(token.strip())
    if (url := _PR_URL.match(token)) is not None:
        return PrCommand(_pr_number(url["number"]), f"{url['owner']}/{url['name']}")
    if (short := _SHORT_REF.match(token)) is not None:
        return PrCommand(_pr_number(short["number"]), short["repo"])
    if token.lower().startswith(("http://", "https://")):
        raise CommandError(
            f"not a GitHub pull-request URL: {token}; "
            "expected https://github.com/OWNER/NAME/pull/NUMBER",
            "pr",
        )
    return PrCommand(_pr_number(token.removeprefix("#")))


def _pr_number(text: str) -> int:
    if not re.fullmatch(r"\d+", text):
        raise CommandError(f"not a PR number: '{text}'; expected a number like 42121", "pr")
    number = int(text)
    if number < 1:
        raise CommandError(f"PR numbers start at 1 (got {number})", "pr")
    if number > MAX_PR_NUMBER:
        raise CommandError(f"PR number {text} is too large to exist", "pr")
    return number


# ---------------------------------------------------------------------------- subcommands


def _parse_pr(args: list[str]) -> PrCommand:
    if not args:
        raise CommandError("which PR? give its number or URL", "pr")
    if len(args) > 1:
        raise CommandError(f"one PR at a time (got {len(args)} arguments)", "pr")
    return parse_pr_ref(args[0])


def _parse_digest(args: list[str]) -> DigestCommand:
    week: str | None = None
    post = False
    for arg in args:
        low = arg.lower()
        if low == "post":
            if post:
                raise CommandError("'post' given twice", "digest")
            post = True
        elif low in ("this", "last") or WEEK_PATTERN.match(low):
            if week is not None:
                raise CommandError(f"one week at a time (got '{week}' and '{arg}')", "digest")
            week = low if low in ("this", "last") else _canonical_week(low)
        else:
            hint = did_you_mean(low, ["this", "last", "post"])
            raise CommandError(
                f"unknown digest argument '{arg}'{hint} (accepted: this, last, an ISO week "
                "like 2026-W23, post)",
                "digest",
            )
    return DigestCommand(week or "last", post)


def _canonical_week(text: str) -> str:
    match = WEEK_PATTERN.match(text)
    assert match is not None  # checked by the caller
    week = int(match[2])
    if not 1 <= week <= 53:
        raise CommandError(f"no ISO week {text}: weeks run from W01 to W53", "digest")
    return f"{match[1]}-W{week:02d}"


def _parse_subscribe(args: list[str]) -> SubscribeCommand:
    modules: list[str] = []
    values: dict[str, list[str]] = {}
    min_score: float | None = None
    language: str | None = None
    for arg in args:
        negated = arg.startswith("-")
        key, sep, value = arg.removeprefix("-").partition(":")
        if not sep:
            if negated:
                raise CommandError(
                    f"'{arg}': only filters can be negated (e.g. -label:x); to leave a module "
                    "out, do not list it",
                    "subscribe",
                )
            if arg.lower() not in modules:
                modules.append(arg.lower())
            continue
        key = key.lower()
        if key not in FILTER_KEYS:
            raise CommandError(
                f"unknown filter '{key}:'{did_you_mean(key + ':', [k + ':' for k in FILTER_KEYS])} "
                f"(accepted: {', '.join(k + ':' for k in FILTER_KEYS)})",
                "subscribe",
            )
        if not value:
            raise CommandError(f"filter '{key}:' needs a value, e.g. {_example(key)}", "subscribe")
        if negated and key not in NEGATABLE:
            raise CommandError(f"'{key}:' cannot be negated", "subscribe")
        if key == "min":
            if min_score is not None:
                raise CommandError("'min:' given twice", "subscribe")
            min_score = _score(value)
        elif key == "lang":
            if language is not None:
                raise CommandError("'lang:' given twice", "subscribe")
            if value.lower() not in LANGUAGES:
                raise CommandError(
                    f"unknown language '{value}' (accepted: {', '.join(LANGUAGES)})", "subscribe"
                )
            language = value.lower()
        else:
            if key == "flag":
                value = value.lower()
                if value not in FLAG_IDS:
                    raise CommandError(
                        f"unknown flag '{value}'{did_you_mean(value, FLAG_IDS)} "
                        f"(accepted: {', '.join(FLAG_IDS)})",
                        "subscribe",
                    )
            elif key == "author":
                value = value.removeprefix("@")
            elif key == "path":
                _check_glob(value)
            bucket = values.setdefault(("-" if negated else "") + key, [])
            if value not in bucket:
                bucket.append(value)
    if not modules:
        raise CommandError(
            "which modules? e.g. /vllm subscribe attention moe (see /vllm modules)", "subscribe"
        )
    for key in NEGATABLE:
        both = set(values.get(key, ())) & set(values.get("-" + key, ()))
        if both:
            raise CommandError(
                f"'{key}:{sorted(both)[0]}' is both required and excluded", "subscribe"
            )

    def get(name: str) -> tuple[str, ...]:
        return tuple(values.get(name, ()))

    filters = SubscriptionFilters(
        labels=get("label"),
        not_labels=get("-label"),
        authors=get("author"),
        not_authors=get("-author"),
        paths=get("path"),
        not_paths=get("-path"),
        flags=get("flag"),
        not_flags=get("-flag"),
        min_score=min_score,
        language=language,
    )
    return SubscribeCommand(tuple(modules), filters)


def _example(key: str) -> str:
    return {
        "label": "label:ready",
        "author": "author:octocat",
        "path": "path:vllm/v1/**",
        "min": "min:7",
        "flag": "flag:core-path",
        "lang": "lang:zh",
    }[key]


def _score(value: str) -> float:
    try:
        score = float(value)
    except ValueError:
        raise CommandError(
            f"'min:{value}' is not a number; scores run from 0 to 10, e.g. min:7", "subscribe"
        ) from None
    if not 0 <= score <= 10:
        raise CommandError(f"'min:{value}' is out of range; scores run from 0 to 10", "subscribe")
    return score


def _check_glob(pattern: str) -> None:
    if pattern.startswith("re:"):
        try:
            re.compile(pattern[3:])
        except re.error as exc:
            raise CommandError(
                f"bad regular expression in 'path:{pattern}': {exc}", "subscribe"
            ) from None
        return
    if pattern.count("[") != pattern.count("]"):
        raise CommandError(f"unbalanced brackets in 'path:{pattern}'", "subscribe")


def _parse_unsubscribe(args: list[str]) -> UnsubscribeCommand:
    if not args:
        raise CommandError(
            "unsubscribe from what? a module, a subscription id or 'all'", "unsubscribe"
        )
    if len(args) > 1:
        raise CommandError(
            f"one target at a time (got {len(args)}); use 'all' to remove every subscription",
            "unsubscribe",
        )
    target = args[0].lower().removeprefix("#")
    if target == "all":
        return UnsubscribeCommand("all", "all")
    if target.isdigit():
        return UnsubscribeCommand(str(int(target)), "id")
    return UnsubscribeCommand(target, "module")


def _no_args(command: str, args: list[str]) -> None:
    if args:
        raise CommandError(f"'{command}' takes no arguments (got '{' '.join(args)}')", command)


def parse(text: str) -> Command:
    """Parse what follows `/vllm` (a leading `/vllm` is accepted and ignored)."""
    tokens = _tokens(text.strip())
    if tokens and tokens[0].lower() in ("/vllm", "vllm"):
        tokens = tokens[1:]
    if not tokens:
        return HelpCommand()
    head, args = tokens[0].lower(), tokens[1:]
    if head == "pr":
        return _parse_pr(args)
    if head == "digest":
        return _parse_digest(args)
    if head == "subscribe":
        return _parse_subscribe(args)
    if head == "unsubscribe":
        return _parse_unsubscribe(args)
    if head == "subscriptions":
        _no_args(head, args)
        return SubscriptionsCommand()
    if head == "modules":
        _no_args(head, args)
        return ModulesCommand()
    if head == "help":
        if len(args) > 1:
            raise CommandError("help takes at most one command name", "help")
        topic = args[0].lower() if args else None
        if topic is not None and topic not in USAGE:
            raise CommandError(f"no command '{topic}'{did_you_mean(topic, SUBCOMMANDS)}", "help")
        return HelpCommand(topic)
    # `/vllm 42121` or a pasted PR URL on its own is a PR lookup, as users expect.
    if not args and (re.fullmatch(r"#?\d+", head) or _PR_URL.match(_strip_slack_link(tokens[0]))):
        return parse_pr_ref(tokens[0])
    raise CommandError(
        f"unknown command '{tokens[0]}'{did_you_mean(head, SUBCOMMANDS)}"
        + ("" if suggest(head, SUBCOMMANDS) else f" (accepted: {', '.join(SUBCOMMANDS)})")
    )
