"""The syntax of `/vllm …`: Command values, `CommandError`, and one parser per command.

Nothing here needs the store, GitHub or config. The registry (`bot.commands.registry`)
binds each parser to its command's name, usage and handler; semantic checks that need data
(is the module known, is the repo watched, does the PR exist) happen in the handlers, which
raise the same `CommandError`, so every platform shows one clear line plus the usage line.

Messages are catalogue ids (`error.*` in `bot.core.i18n`) plus parameters, rendered in the
channel's language when the reply is built; `str(error)` is the English text.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.analysis.catalogue import suggest as suggest  # registry.py imports it from here
from bot.core.errors import MessageError, UsageError
from bot.core.filters import SubscriptionFilters
from bot.core.i18n import MESSAGES, message, message_from
from bot.core.messages import Text
from bot.core.models import FLAG_IDS
from bot.core.validators import ECHO_LIMIT, echo, repo_text
from bot.core.weeks import WEEK_PATTERN

# GitHub PR numbers are positive 32-bit integers; anything larger cannot exist, so saying
# "too large" beats a round trip that ends in "not found".
MAX_PR_NUMBER = 2**31 - 1

FILTER_KEYS = ("label", "author", "path", "min", "flag", "lang", "repo")
# Keys whose value can be negated with a leading "-" (a minimum score or a language cannot).
NEGATABLE = frozenset({"label", "author", "path", "flag", "repo"})
LANGUAGES = ("en", "zh")
WEEK_WORDS = ("this", "last")

# Slack and phone keyboards turn quotes into typographic ones; shlex only knows ASCII.
_SMART_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})
PR_URL = re.compile(
    r"^https?://(?:www\.)?github\.com/(?P<owner>[A-Za-z0-9_.-]+)/(?P<name>[A-Za-z0-9_.-]+)"
    r"/pull/(?P<number>\d+)(?:[/?#].*)?$",
    re.IGNORECASE,
)
# A GitHub login: 1-39 letters, digits or single hyphens, not starting with one (bots as
# `name[bot]`, which alerts see as authors too).
_LOGIN = re.compile(r"^(?!-)(?!.*--)[A-Za-z0-9-]{1,39}(\[bot\])?$")
_SHORT_REF = re.compile(r"^(?P<repo>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)#(?P<number>\d+)$")


_QUOTED = re.compile(rf"'([^'\n]{{{ECHO_LIMIT + 1},}})'")


def shorten_quoted(text: str) -> str:
    """Echoed input ('…') cut to about 60 characters: a 5,000-character command must not
    come back whole."""
    return _QUOTED.sub(lambda m: echo(m[1]), text)


class CommandError(UsageError):
    """Bad input: one clear line, then the usage line of the command concerned.

    `what` is a catalogue id (`error.…`), rendered with `params` in the reader's language:
    every line a chat user sees comes from the catalogue (a test holds every call to it).
    A `hint` parameter is a suggested word ("did you mean …?") or None. The registry fills
    in `usage` when the error leaves the parser or a handler.
    """

    def __init__(
        self, what: str, command: str | None = None, *, usage: str = "", **params: object
    ) -> None:
        if what not in MESSAGES:
            raise ValueError(f"CommandError takes a catalogue id, not {what!r}")
        self.key = what
        self.params = params
        self.command = command
        self.usage = usage
        super().__init__(self.render("en"))

    @classmethod
    def of(cls, error: MessageError, command: str | None = None) -> CommandError:
        """`error` (a week, a repository… that a core check refused) as bad input of
        `command`, so it is shown with the command's usage, in the channel's language."""
        # Any: the params are the message's, none of them is `usage`.
        params: dict[str, Any] = dict(error.text.params)
        return cls(error.text.msg_id, command, **params)

    @property
    def reason(self) -> str:
        return self.message("en")

    def message(self, language: str) -> str:
        """The one-line reason in `language`."""
        values: dict[str, object] = dict(self.params)
        if "hint" in values:
            hint = values["hint"]
            # A use case's error carries its hint as a message already (a Text).
            if isinstance(hint, Text):
                values["hint"] = hint
            else:
                values["hint"] = message(language, "error.hint", word=hint) if hint else ""
        return shorten_quoted(message_from(language, self.key, values))

    def render(self, language: str) -> str:
        if not self.usage:
            return self.message(language)
        return f"{self.message(language)}\n{message(language, 'error.usage', usage=self.usage)}"

    def with_usage(self, usage: str) -> CommandError:
        if not self.usage:
            self.usage = usage
            self.args = (self.render("en"),)
        return self

    def __str__(self) -> str:
        return self.render("en")


def unknown_modules(words: Sequence[tuple[str, str | None]], command: str) -> CommandError:
    """Modules the catalogue does not know, each (word as typed, suggested id or None)."""
    names = [
        Text("error.module.unknown_item", {"word": w, "hint": hint})
        if hint
        else Text("error.module.unknown_word", {"word": w})
        for w, hint in words
    ]
    return CommandError("error.modules.unknown", command, count=len(words), names=names)


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
    modules: tuple[str, ...] = ()  # as typed (lower-cased); resolved to ids by the handler
    org: bool = False  # the configured organisation's digest instead of one repository's
    name = "digest"


@dataclass(frozen=True, slots=True)
class SubscribeCommand:
    modules: tuple[str, ...]  # as typed (lower-cased); resolved to ids by the handler
    filters: SubscriptionFilters = field(default_factory=SubscriptionFilters)
    weekly: bool = False  # one module digest a week instead of per-PR alerts
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
class VersionCommand:
    name = "version"


# --- releases ---
@dataclass(frozen=True, slots=True)
class ReleaseCommand:
    tag: str | None = None  # None: the newest release
    post: bool = False  # post the release notes in the channel
    name = "release"


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
    | VersionCommand
    | HelpCommand
    | ReleaseCommand
)


# ---------------------------------------------------------------------------- helpers


# Invisible characters that ride along when a command is copied from a rendered message
# (formatters put zero-width spaces before markup characters): never part of a word.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def tokens(text: str) -> list[str]:
    try:
        return shlex.split(text.translate(_SMART_QUOTES).translate(_INVISIBLE))
    except ValueError:
        raise CommandError("error.quotes") from None


def strip_slack_link(token: str) -> str:
    # Slack may send links as <https://…> or <https://…|label> in slash-command text.
    if token.startswith("<") and token.endswith(">"):
        return token[1:-1].split("|", 1)[0]
    return token


def parse_pr_ref(token: str) -> PrCommand:
    """`42121`, `#42121`, `OWNER/NAME#42121` or a GitHub pull-request URL."""
    token = strip_slack_link(token.strip())
    if (url := PR_URL.match(token)) is not None:
        return PrCommand(_pr_number(url["number"]), f"{url['owner']}/{url['name']}")
    if (short := _SHORT_REF.match(token)) is not None:
        return PrCommand(_pr_number(short["number"]), short["repo"])
    if token.lower().startswith(("http://", "https://")):
        raise CommandError("error.pr.url", "pr", token=token)
    return PrCommand(_pr_number(token.removeprefix("#")))


def _pr_number(text: str) -> int:
    if not re.fullmatch(r"\d+", text):
        raise CommandError("error.pr.number", "pr", text=text)
    number = int(text)
    if number < 1:
        raise CommandError("error.pr.zero", "pr", number=number)
    if number > MAX_PR_NUMBER:
        raise CommandError("error.pr.large", "pr", text=text)
    return number


# ---------------------------------------------------------------------------- parsers


def parse_pr(args: list[str]) -> PrCommand:
    if not args:
        raise CommandError("error.pr.which", "pr")
    if len(args) > 1:
        raise CommandError("error.pr.several", "pr", count=len(args))
    return parse_pr_ref(args[0])


def parse_digest(args: list[str]) -> DigestCommand:
    week: str | None = None
    post = False
    org = False
    modules: list[str] = []
    for arg in args:
        low = arg.lower()
        if low == "post":
            if post:
                raise CommandError("error.digest.post_twice", "digest")
            post = True
        elif low in WEEK_WORDS or WEEK_PATTERN.match(low):
            if week is not None:
                raise CommandError("error.digest.one_week", "digest", week=week, arg=arg)
            week = low if low in WEEK_WORDS else canonical_week(low)
        elif low == "org":
            org = True
        elif (hint := suggest(low, ["this", "last", "post"])) is None and week is None:
            # Module names come first (`digest rocm last`); the handler resolves them.
            # A near miss of a keyword (`lsat`) is a typo, not a module.
            if low not in modules:
                modules.append(low)
        else:
            raise CommandError("error.digest.argument", "digest", arg=arg, hint=hint)
    if org and modules:
        raise CommandError("error.digest.org_modules", "digest")
    return DigestCommand(week or "last", post, tuple(modules), org)


def canonical_week(text: str) -> str:
    match = WEEK_PATTERN.match(text)
    if match is None:
        hint = suggest(text, list(WEEK_WORDS))
        raise CommandError("error.digest.argument", "digest", arg=text, hint=hint)
    week = int(match[2])
    if not 1 <= week <= 53:
        raise CommandError("error.digest.no_week", "digest", text=text)
    return f"{match[1]}-W{week:02d}"


def parse_subscribe(args: list[str]) -> SubscribeCommand:
    modules: list[str] = []
    values: dict[str, list[str]] = {}
    min_score: float | None = None
    language: str | None = None
    weekly = False
    for arg in args:
        negated = arg.startswith("-")
        key, sep, value = arg.removeprefix("-").partition(":")
        if not sep:
            if negated:
                raise CommandError("error.subscribe.negated_module", "subscribe", arg=arg)
            if arg.lower() == "weekly" and modules:
                weekly = True
                continue
            if arg.lower() not in modules:
                modules.append(arg.lower())
            continue
        key = key.lower()
        if key not in FILTER_KEYS:
            raise CommandError(
                "error.subscribe.filter",
                "subscribe",
                key=key,
                hint=suggest(key + ":", [k + ":" for k in FILTER_KEYS]),
                accepted=", ".join(k + ":" for k in FILTER_KEYS),
            )
        if not value:
            raise CommandError("error.subscribe.value", "subscribe", key=key, example=_example(key))
        if negated and key not in NEGATABLE:
            raise CommandError("error.subscribe.not_negatable", "subscribe", key=key)
        if key == "min":
            if min_score is not None:
                raise CommandError("error.subscribe.twice", "subscribe", key=key)
            min_score = _score(value)
        elif key == "lang":
            if language is not None:
                raise CommandError("error.subscribe.twice", "subscribe", key=key)
            if value.lower() not in LANGUAGES:
                raise CommandError(
                    "error.subscribe.language",
                    "subscribe",
                    value=value,
                    accepted=", ".join(LANGUAGES),
                )
            language = value.lower()
        else:
            if key == "flag":
                value = value.lower()
                if value not in FLAG_IDS:
                    raise CommandError(
                        "error.subscribe.flag",
                        "subscribe",
                        value=value,
                        hint=suggest(value, FLAG_IDS),
                        accepted=", ".join(FLAG_IDS),
                    )
            elif key == "author":
                value = value.removeprefix("@")
                if not _LOGIN.match(value):
                    shown = f"'{value}'" if len(value) <= 39 else f"{len(value):,} characters"
                    raise CommandError("error.subscribe.author", "subscribe", value=shown)
            elif key == "path":
                _check_glob(value)
            elif key == "repo":
                problem = repo_text(value)
                if problem is not None:
                    raise CommandError(
                        "error.subscribe.repo", "subscribe", value=value, problem=problem
                    )
            bucket = values.setdefault(("-" if negated else "") + key, [])
            if value not in bucket:
                bucket.append(value)
    if not modules:
        raise CommandError("error.subscribe.which", "subscribe")
    for key in NEGATABLE:
        both = set(values.get(key, ())) & set(values.get("-" + key, ()))
        if both:
            raise CommandError(
                "error.subscribe.both", "subscribe", filter=f"{key}:{sorted(both)[0]}"
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
        repos=get("repo"),
        not_repos=get("-repo"),
        min_score=min_score,
        language=language,
    )
    return SubscribeCommand(tuple(modules), filters, weekly)


def _example(key: str) -> str:
    return {
        "label": "label:ready",
        "author": "author:octocat",
        "path": "path:vllm/v1/**",
        "min": "min:7",
        "flag": "flag:core-path",
        "lang": "lang:zh",
        "repo": "repo:vllm-project/vllm-ascend",
    }[key]


def _score(value: str) -> float:
    try:
        score = float(value)
    except ValueError:
        raise CommandError("error.subscribe.min_number", "subscribe", value=value) from None
    if not 0 <= score <= 10:
        raise CommandError("error.subscribe.min_range", "subscribe", value=value)
    return score


def _check_glob(pattern: str) -> None:
    if pattern.startswith("re:"):
        try:
            re.compile(pattern[3:])
        except re.error as exc:
            raise CommandError(
                "error.subscribe.regex", "subscribe", pattern=pattern, problem=str(exc)
            ) from None
        return
    if pattern.count("[") != pattern.count("]"):
        raise CommandError("error.subscribe.brackets", "subscribe", pattern=pattern)


def parse_unsubscribe(args: list[str]) -> UnsubscribeCommand:
    if not args:
        raise CommandError("error.unsubscribe.what", "unsubscribe")
    if len(args) > 1:
        raise CommandError("error.unsubscribe.several", "unsubscribe", count=len(args))
    target = args[0].lower().removeprefix("#")
    if target == "all":
        return UnsubscribeCommand("all", "all")
    if target.isascii() and target.isdigit():  # "²" is a digit to str.isdigit, not to int()
        return UnsubscribeCommand(str(int(target)), "id")
    return UnsubscribeCommand(target, "module")


def no_args(command: str, args: list[str]) -> None:
    if args:
        raise CommandError("error.no_args", command, command_name=command, args=" ".join(args))


def looks_like_pr(head: str, token: str) -> bool:
    """`/vllm 42121` or a pasted PR URL on its own is a PR lookup, as users expect."""
    return bool(re.fullmatch(r"#?\d+", head) or PR_URL.match(strip_slack_link(token)))


# --- releases ---
def parse_release(args: list[str]) -> ReleaseCommand:
    """`/vllm release [TAG] [post]`: the tag as written (tags are case-sensitive)."""
    words = list(args)
    post = bool(words) and words[-1].lower() == "post"
    if post:
        words = words[:-1]
    if len(words) > 1:
        raise CommandError("error.release.args", "release", words=" ".join(words))
    return ReleaseCommand(words[0] if words else None, post)
