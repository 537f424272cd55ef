"""Errors the user sees as one clear line. Exit status follows CONTRACT."""

from __future__ import annotations

from bot.core.messages import Text

# Error lines stay readable in a terminal and a log; the whole text goes to --debug.
ERROR_LINE_LIMIT = 240


def one_line(text: str, limit: int = ERROR_LINE_LIMIT) -> str:
    """`text` as one line of at most `limit` characters.

    Library errors put their details on later lines (SQLAlchemy's `[SQL: …]
    [parameters: …]`); those are dropped. An over-long line loses what tells least first:
    the middle folders of its long paths (`/tmp/…/run/w22.json` keeps where it starts and
    the file), then, when that is not enough, the middle of the line: its last clause
    (after the last "; ") is the fix, and is kept whole."""
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    head = lines[0] if lines else ""
    if len(lines) > 1 and not any(
        line.startswith(("[SQL", "[parameters", "(Background")) for line in lines[1:]
    ):
        head = " ".join(lines)
    head = " ".join(head.split())
    if len(head) > limit:
        head = _shorter_paths(head, limit)
    if len(head) > limit:
        failed, sep, fix = head.rpartition("; ")
        if sep and len(fix) <= limit // 2:
            head = failed[: limit - len(fix) - 3].rstrip() + "…; " + fix
        else:
            head = head[: limit - 1].rstrip() + "…"
    return head


def whole_line(text: str) -> str:
    """A line the bot wrote (a catalogue message) as one line, never cut: its values
    (dates, windows, paths, names) are what the reader acts on, and each is bounded where
    it is echoed."""
    return " ".join(str(text).split())


def _shorter_paths(line: str, limit: int) -> str:
    """`line` with the middle folders of its longest paths left out, longest first,
    until it fits in `limit` (or no path has a middle left)."""
    words = line.split(" ")
    while len(" ".join(words)) > limit:
        paths = [
            (len(word), i)
            for i, word in enumerate(words)
            if word.count("/") >= 4 and "…" not in word
        ]
        if not paths:
            break
        _, i = max(paths)
        parts = words[i].split("/")
        keep = 3 if words[i].startswith("/") else 2  # "/tmp/…" or "https://host/…"
        words[i] = "/".join([*parts[:keep], "…", *parts[-2:]])
    return " ".join(words)


def _render(text: Text, language: str) -> str:
    # Lazy: errors.py is imported everywhere, the catalogue (and Babel) only by an error.
    from bot.core.i18n import render

    return render(text, language)


def english(msg_id: str, /, **params: object) -> str:
    """A catalogue message's English line, where the text must be a str: a pydantic
    validator's ValueError, which pydantic words into the config's or the export's error."""
    return _render(Text(msg_id, params), "en")


class BotError(Exception):
    """Base class: the message is shown to the user as it is.

    `service` names the platform or service the error came from ("github", "slack",
    "discord", or None for the bot itself); `hint` is the fix, for a raiser whose message
    does not already say it (the shown text stays the message). Each client maps its
    library's exceptions onto this hierarchy at its boundary, so callers tell errors apart
    by class, never by module name.
    """

    exit_code = 1
    service: str | None = None
    hint: str | None = None
    # The line as a catalogue message (id and parameters), when the bot wrote it; None
    # when the text is a library's or a service's own words (str(cause)).
    text: Text | None = None

    def __init__(
        self,
        message: str | Text = "",
        *,
        service: str | None = None,
        hint: str | None = None,
    ) -> None:
        if isinstance(message, Text):
            self.text = message
            message = _render(message, "en")
        super().__init__(message)
        if service is not None:
            self.service = service
        if hint is not None:
            self.hint = hint

    def message(self, language: str) -> str:
        """The line in `language` (chat: the channel's); str() is the English one (CLI)."""
        return str(self) if self.text is None else _render(self.text, language)


class TransientError(BotError):
    """The service failed in a way a later try may not (outage, 5xx, rate limit): a re-run
    resumes."""


class PermanentError(BotError):
    """Retrying cannot help: a person has to change something (token, config, input)."""


class UsageError(PermanentError):
    """Bad usage, bad config or bad input (exit 2)."""

    exit_code = 2


class ConfigError(UsageError):
    pass


class NotFoundError(UsageError):
    """The thing asked for does not exist (unknown repo, PR not found)."""


class GitHubError(BotError):
    """GitHub failed in a way retrying did not fix (exit 1)."""

    service = "github"


class GitHubUnavailable(GitHubError, TransientError):
    """GitHub unreachable or answering 5xx after bounded retries."""


class GitHubUnreachable(GitHubUnavailable):
    """No connection at all (refused, no such host): not worth retrying."""


class GitHubAuthError(GitHubError, PermanentError):
    """401: token missing scopes, expired or wrong (the message names the fix)."""


class RateLimitExhausted(GitHubError, TransientError):
    def __init__(self, message: str | Text, reset_at: float | None = None) -> None:
        super().__init__(message)
        self.reset_at = reset_at


# --- catalogue --- (helper "catalogue": errors whose line is a catalogue message)
class MessageError(UsageError):
    """Bad input whose line is a catalogue message, so the chat layer can show it in the
    channel's language (`message(language)`); str() is the English line, for the CLI."""

    text: Text

    def __init__(self, msg_id: str, /, **params: object) -> None:
        super().__init__(Text(msg_id, params))


class StoreError(BotError):
    """The database failed (locked, read-only, unreachable, a constraint). The store maps
    its driver's errors to this where they are raised (bot.store.store), so callers and
    metrics tell them apart by class; the driver's exception is the `__cause__`."""

    service = "store"


class InputError(MessageError):
    """Bad input to a command, found below the command layer (a subscription's modules or
    filters), as a catalogue message: the chat shows it in the channel's language with
    `command`'s usage line, as it does a parse error; str() is the English line."""

    def __init__(self, msg_id: str, command: str | None = None, /, **params: object) -> None:
        super().__init__(msg_id, **params)
        self.command = command


class PrUnreachable(GitHubUnreachable):
    """A PR lookup GitHub cannot answer and the store cannot either: what the store holds
    instead (`elsewhere`: the other repositories whose #`number` is stored; `held`: how
    many PRs of `repo` it holds) rides along, so each surface words it its own way."""

    def __init__(
        self, cause: GitHubError, *, repo: str, number: int, elsewhere: list[str], held: int
    ) -> None:
        super().__init__(str(cause))
        self.repo = repo
        self.number = number
        self.elsewhere = elsewhere
        self.held = held


class NeedsNetwork(BotError):
    """A local-only answer (the chat acknowledgement) cannot be given: it needs GitHub.
    The command runs again after the acknowledgement, with the network."""
