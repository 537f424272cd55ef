"""The one command registry: every `/vllm` command declared once.

A `CommandSpec` holds a command's name, usage, help texts (catalogue ids `help.<name>`,
and `help.summary.<name>` / `help.arg.<name>.<argument>` for Discord's picker), examples,
typed arguments (with choices and autocomplete sources), whether a successful answer is
public, its text parser, its typed builder and its handler. Everything else is
generated from `COMMANDS`: the text parser (`parse`), the usage lines, the help text, the
progress line shown while a slow answer is built, and the Discord app-command group.

Adding a command: a Command dataclass and a parser in `syntax.py`, a handler in
`handlers.py`, one `CommandSpec` here, and its `help.*` texts in `bot/core/i18n.py`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from bot.commands import handlers
from bot.commands.reply import Reply
from bot.commands.syntax import (
    MAX_PR_NUMBER,
    WEEK_WORDS,
    Command,
    CommandError,
    DigestCommand,
    HelpCommand,
    ModulesCommand,
    PrCommand,
    ReleaseCommand,
    SubscribeCommand,
    SubscriptionsCommand,
    UnsubscribeCommand,
    VersionCommand,
    canonical_week,
    looks_like_pr,
    no_args,
    parse_digest,
    parse_pr,
    parse_pr_ref,
    parse_release,
    parse_subscribe,
    parse_unsubscribe,
    suggest,
    tokens,
)
from bot.core.i18n import message

if TYPE_CHECKING:
    from bot.commands.context import Context

Handler = Callable[[Command, "Context", bool], Awaitable[Reply]]
Options = Mapping[str, object]
# Where an argument's autocomplete choices come from (each platform adapter knows how to
# list them): the module catalogue, recent weeks, watched repositories, this channel's
# subscriptions, or the digest's scope (modules plus `org`).
Source = Literal["modules", "weeks", "repos", "subscriptions", "scope"]


@dataclass(frozen=True, slots=True)
class Argument:
    """One typed argument, as Discord shows it (text surfaces type it in the usage order)."""

    name: str
    kind: type[str] | type[int] | type[bool]
    required: bool = False
    choices: tuple[str, ...] = ()
    autocomplete: Source | None = None
    min_value: int | None = None
    max_value: int | None = None
    command_names: bool = False  # the choices are the registry's command names

    def choice_values(self) -> tuple[str, ...]:
        return NAMES if self.command_names else self.choices


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str
    usage: str
    parse: Callable[[list[str]], Command]
    build: Callable[[Options], Command]  # typed values (Discord options) to a Command
    handler: Handler
    arguments: tuple[Argument, ...] = ()
    examples: tuple[str, ...] = ()
    public: Callable[[Command], bool] = field(default=lambda command: False)

    @property
    def help_key(self) -> str:
        return f"help.{self.name}"

    @property
    def summary_key(self) -> str:
        """One line for Discord's command picker."""
        return f"help.summary.{self.name}"

    def argument_key(self, argument: Argument) -> str:
        return f"help.arg.{self.name}.{argument.name}"


# ---------------------------------------------------------------------------- typed builders


def _words(value: object) -> list[str]:
    return str(value).split() if value else []


def _build_pr(options: Options) -> Command:
    command = parse_pr_ref(str(options["number"]))
    repo = options.get("repo")
    if repo:
        return PrCommand(command.number, str(repo).strip())
    return command


def _week(value: object) -> str:
    low = str(value).strip().lower()
    if not low:
        return "last"
    if low in WEEK_WORDS:
        return low
    return canonical_week(low)


def _build_digest(options: Options) -> Command:
    scope = [w.lower() for w in _words(options.get("modules"))]
    org = scope == ["org"]
    if "org" in scope and not org:
        raise CommandError("error.digest.org_modules", "digest")
    modules = () if org else tuple(dict.fromkeys(scope))
    return DigestCommand(_week(options.get("week") or ""), bool(options.get("post")), modules, org)


def _build_subscribe(options: Options) -> Command:
    # Discord has no list or filter types: modules and filters arrive as words, and the
    # filter words go through the same filter grammar as the text command.
    command = parse_subscribe([*_words(options.get("module")), *_words(options.get("filters"))])
    if options.get("weekly"):
        return SubscribeCommand(command.modules, command.filters, True)
    return command


def _build_unsubscribe(options: Options) -> Command:
    return parse_unsubscribe(_words(options.get("target")))


def _build_help(options: Options) -> Command:
    topic = options.get("command")
    return _help([str(topic)] if topic else [])


def _no_arguments(make: Callable[[], Command], name: str) -> Callable[[list[str]], Command]:
    def parse_(args: list[str]) -> Command:
        no_args(name, args)
        return make()

    return parse_


def _help(args: list[str]) -> HelpCommand:
    if len(args) > 1:
        raise CommandError("error.help.topic", "help")
    topic = args[0].lower() if args else None
    if topic is not None and topic not in BY_NAME:
        raise CommandError("error.help.unknown", "help", topic=topic, hint=suggest(topic, NAMES))
    return HelpCommand(topic)


async def _answer_help(command: Command, ctx: Context, offline: bool) -> Reply:
    assert isinstance(command, HelpCommand)
    return Reply(text=help_text(command.topic, ctx.lang))


def _digest_public(command: Command) -> bool:
    return isinstance(command, DigestCommand) and command.post


def _always(command: Command) -> bool:
    return True


# --- releases ---
def _build_release(options: Options) -> Command:
    words = _words(options.get("tag"))
    return parse_release([*words, *(["post"] if options.get("post") else [])])


def _release_public(command: Command) -> bool:
    return isinstance(command, ReleaseCommand) and command.post


# ---------------------------------------------------------------------------- the commands

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        name="pr",
        usage="/vllm pr <number|url>",
        parse=parse_pr,
        build=_build_pr,
        handler=handlers.answer_pr,
        arguments=(
            Argument("number", int, required=True, min_value=1, max_value=MAX_PR_NUMBER),
            Argument("repo", str, autocomplete="repos"),
        ),
        examples=("/vllm pr 42121", "/vllm pr https://github.com/vllm-project/vllm/pull/42121"),
    ),
    CommandSpec(
        name="digest",
        usage="/vllm digest [module...|org] [this|last|2026-W23] [post]",
        parse=parse_digest,
        build=_build_digest,
        handler=handlers.answer_digest,
        arguments=(
            Argument("modules", str, autocomplete="scope"),
            Argument("week", str, autocomplete="weeks"),
            Argument("post", bool),
        ),
        examples=(
            "/vllm digest",
            "/vllm digest 2026-W23",
            "/vllm digest rocm last",
            "/vllm digest org",
            "/vllm digest last post",
        ),
        public=_digest_public,
    ),
    CommandSpec(
        name="subscribe",
        usage="/vllm subscribe <module...> [weekly] [label:x] [-label:x] [author:x] "
        "[path:glob] [min:7] [flag:core-path] [repo:owner/name] [lang:zh]",
        parse=parse_subscribe,
        build=_build_subscribe,
        handler=handlers.answer_subscribe,
        arguments=(
            Argument("module", str, required=True, autocomplete="modules"),
            Argument("filters", str),
            Argument("weekly", bool),
        ),
        examples=(
            "/vllm subscribe attention moe",
            "/vllm subscribe rocm min:7 -label:ci",
            "/vllm subscribe rocm weekly",
            "/vllm subscribe rocm repo:vllm-project/vllm-ascend",
            "/vllm subscribe scheduler flag:core-path lang:zh",
        ),
        public=_always,
    ),
    CommandSpec(
        name="unsubscribe",
        usage="/vllm unsubscribe <module|id|all>",
        parse=parse_unsubscribe,
        build=_build_unsubscribe,
        handler=handlers.answer_unsubscribe,
        arguments=(Argument("target", str, required=True, autocomplete="subscriptions"),),
        examples=("/vllm unsubscribe moe", "/vllm unsubscribe 3", "/vllm unsubscribe all"),
        public=_always,
    ),
    CommandSpec(
        name="subscriptions",
        usage="/vllm subscriptions",
        parse=_no_arguments(SubscriptionsCommand, "subscriptions"),
        build=lambda options: SubscriptionsCommand(),
        handler=handlers.answer_subscriptions,
    ),
    CommandSpec(
        name="modules",
        usage="/vllm modules",
        parse=_no_arguments(ModulesCommand, "modules"),
        build=lambda options: ModulesCommand(),
        handler=handlers.answer_modules,
    ),
    CommandSpec(
        name="version",
        usage="/vllm version",
        parse=_no_arguments(VersionCommand, "version"),
        build=lambda options: VersionCommand(),
        handler=handlers.answer_version,
    ),
    # --- releases ---
    CommandSpec(
        name="release",
        usage="/vllm release [tag] [post]",
        parse=parse_release,
        build=_build_release,
        handler=handlers.answer_release,
        arguments=(Argument("tag", str), Argument("post", bool)),
        examples=("/vllm release", "/vllm release v0.21.0rc1", "/vllm release v0.21.0rc1 post"),
        public=_release_public,
    ),
    CommandSpec(
        name="help",
        usage="/vllm help [command]",
        parse=_help,
        build=_build_help,
        handler=_answer_help,
        arguments=(Argument("command", str, command_names=True),),
    ),
)
BY_NAME: dict[str, CommandSpec] = {spec.name: spec for spec in COMMANDS}
NAMES: tuple[str, ...] = tuple(BY_NAME)
USAGE: dict[str, str] = {spec.name: spec.usage for spec in COMMANDS}
GENERAL_USAGE = "/vllm " + "|".join(NAMES)


def spec_of(command: Command | str) -> CommandSpec:
    return BY_NAME[command if isinstance(command, str) else command.name]


def usage_of(name: str | None) -> str:
    return USAGE.get(name or "", GENERAL_USAGE)


def with_usage(error: CommandError) -> CommandError:
    """The error with the usage line of the command it concerns."""
    return error.with_usage(usage_of(error.command))


# ---------------------------------------------------------------------------- generated


def parse(text: str) -> Command:
    """Parse what follows `/vllm` (a leading `/vllm` is accepted and ignored)."""
    try:
        return _parse(text)
    except CommandError as exc:
        raise with_usage(exc) from None


def _parse(text: str) -> Command:
    words = tokens(text.strip())
    if words and words[0].lower() in ("/vllm", "vllm"):
        words = words[1:]
    if not words:
        return HelpCommand()
    head, args = words[0].lower(), words[1:]
    spec = BY_NAME.get(head)
    if spec is not None:
        return spec.parse(args)
    if not args and looks_like_pr(head, words[0]):
        return parse_pr_ref(words[0])
    hint = suggest(head, NAMES)
    if hint:
        raise CommandError("error.unknown_command", word=words[0], hint=hint)
    raise CommandError("error.unknown_command.accepted", word=words[0], accepted=", ".join(NAMES))


def build(name: str, options: Options) -> Command:
    """A Command from typed values (Discord's options), checked like the text command."""
    try:
        return BY_NAME[name].build(options)
    except CommandError as exc:
        raise with_usage(exc) from None


def help_text(topic: str | None = None, language: str = "en") -> str:
    if topic is not None:
        spec = BY_NAME[topic]
        lines = [f"`{spec.usage}`", message(language, spec.help_key)]
        if spec.examples:
            examples = " · ".join(f"`{e}`" for e in spec.examples)
            lines.append(message(language, "help.examples", examples=examples))
        return "\n".join(lines)
    lines = [message(language, "help.title")]
    lines += [f"• `{spec.usage}` — {message(language, spec.help_key)}" for spec in COMMANDS]
    lines.append(message(language, "help.more"))
    return "\n".join(lines)


def progress_text(command: Command, language: str = "en") -> str:
    """What the user sees at once while a slow reply is being built."""
    match command:
        case PrCommand(number=number, repo=repo):
            ref = f"{repo + '#' if repo else '#'}{number}"
            return message(language, "cmd.progress.pr", ref=ref)
        case DigestCommand(week=week, post=True):
            return message(language, "cmd.progress.digest.post", week=week)
        case DigestCommand(week=week):
            return message(language, "cmd.progress.digest", week=week)
        case ReleaseCommand(tag=tag):
            return message(language, "cmd.progress.release", tag=tag or "")
        case SubscribeCommand() | UnsubscribeCommand():
            return message(language, "cmd.progress.subscriptions")
        case _:
            return message(language, "cmd.progress.other")


def is_public(command: Command) -> bool:
    """Whether a successful answer is shown to the channel (decides how adapters defer)."""
    return spec_of(command).public(command)
