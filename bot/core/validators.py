"""Checks of what users type, each failing with one line: what was wrong, what is accepted.

Shared by the CLI, the chat commands and the config, so `--repo`, `/vllm … repo:` and
`[[repos]] name` accept exactly the same things and say so the same way. A problem that can
reach a chat user is a catalogue message (`*_text`, a `Text`), which chat renders in the
channel's language; the `*_problem` functions give its English line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args
from urllib.parse import parse_qsl, unquote

from bot.core.errors import MessageError, english
from bot.core.messages import Text

ECHO_LIMIT = 60
# GitHub: an owner (user or organisation) is 1-39 letters, digits or single hyphens, not
# starting or ending with one; a repository name is 1-100 of letters, digits, '.', '-', '_'.
_OWNER = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$")
_NAME = re.compile(r"^[A-Za-z0-9._-]{1,100}$")
MAX_PR_NUMBER = 2**31 - 1  # GitHub's GraphQL Int


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` quoted for an error line, cut to about `limit` characters."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(shown)


def repo_text(name: str) -> Text | None:
    """Why `name` is not a GitHub OWNER/NAME (`error.repo.*`), or None."""
    owner, sep, repo = name.partition("/")
    if not sep or "/" in repo:
        return Text("error.repo.shape")
    # Lengths as typed ("1000 characters"), not as a grouped quantity.
    if not _OWNER.match(owner):
        return Text("error.repo.owner", {"length": str(len(owner))})
    if not _NAME.match(repo) or repo in (".", ".."):
        return Text("error.repo.name", {"length": str(len(repo))})
    return None


def repo_problem(name: str) -> str | None:
    """Why `name` is not a GitHub OWNER/NAME, in English, or None."""
    text = repo_text(name)
    return None if text is None else english(text.msg_id, **text.params)


MAX_REF_LENGTH = 200  # the store's tag columns (releases.tag, releases.base)
# git check-ref-format: what no branch or tag name may hold anywhere.
_REF_FORBIDDEN = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//")


def ref_problem(name: str, limit: int = MAX_REF_LENGTH) -> str | None:
    """Why `name` is not a git branch or tag name, in English, or None."""
    text = ref_text(name, limit)
    return None if text is None else english(text.msg_id, **text.params)


def ref_text(name: str, limit: int = MAX_REF_LENGTH) -> Text | None:
    """Why `name` is not a git branch or tag name (git's check-ref-format rules) of at
    most `limit` characters (`error.ref`), or None."""
    parts = name.split("/")
    if (
        not name
        or len(name) > limit
        or name == "@"
        or _REF_FORBIDDEN.search(name)
        or name.endswith(".")
        or any(not part or part.startswith(".") or part.endswith(".lock") for part in parts)
    ):
        return Text("error.ref", {"value": echo(name), "limit": str(limit)})
    return None


def check_out_file(path: str) -> str:
    """`--out`: a file to write, not empty and not a directory."""

    if not path.strip() or Path(path).is_dir():
        raise MessageError("error.out.path", path=echo(path))
    check_out_folder(Path(path).parent)
    return path


def check_out_folder(folder: Path) -> None:
    """`--out`'s folder must exist: a typo there must not become new folders, nor a file
    written where nobody looks."""
    if not folder.expanduser().is_dir():
        raise MessageError("error.out.folder", folder=echo(str(folder), 200))


# The chat platforms, named once for the core (config, settings, the command layer); their
# behaviour lives behind bot.platform.Platform in bot/slack and bot/discord.
ChatPlatform = Literal["slack", "discord"]
CHAT_PLATFORMS: tuple[ChatPlatform, ...] = get_args(ChatPlatform)


@dataclass(frozen=True, slots=True)
class ChannelFormat:
    """How one chat platform writes a channel id, and the message rejecting one."""

    pattern: re.Pattern[str]
    msg_id: str  # `error.channel.<platform>`, with the channel as `channel`


# Written once: config validation, the command layer and each Platform's `channel_problem`
# all check a channel against this table.
CHANNEL_FORMATS: Mapping[str, ChannelFormat] = {
    "slack": ChannelFormat(re.compile(r"^[A-Z0-9]{1,30}$"), "error.channel.slack"),
    "discord": ChannelFormat(re.compile(r"^[0-9]{15,21}$"), "error.channel.discord"),  # a snowflake
}


def chat_channel_text(platform: str, channel: str) -> Text | None:
    """Why `channel` cannot be a channel id of `platform` (`error.channel.*`), or None."""
    form = CHANNEL_FORMATS.get(platform)
    if form is None or form.pattern.match(channel):
        return None
    return Text(form.msg_id, {"channel": echo(channel)})


def chat_channel_problem(platform: str, channel: str) -> str | None:
    """Why `channel` cannot be a channel id of `platform`, in English, or None."""
    text = chat_channel_text(platform, channel)
    return None if text is None else english(text.msg_id, **text.params)


# SQLAlchemy's own URL grammar (sqlalchemy.engine.url._parse_url) for the user-info part:
# the password runs from the first ':' after the user name to the first '@'. Parsed here
# without SQLAlchemy, whose engine package is ~130 ms of a start-up that needs only this.
_URL_PASSWORD = re.compile(r"^[\w+]+://[^:/]*:(?P<password>[^@]*)@")


def database_password(url: str) -> str | None:
    """The password in a database URL, decoded as SQLAlchemy decodes it, or None."""
    match = _URL_PASSWORD.match(url)
    if match is None or not match.group("password"):
        return None
    return unquote(match.group("password"))


# The whole of SQLAlchemy's URL grammar (sqlalchemy.engine.url._parse_url), for the
# same reason: checking a URL must not load SQLAlchemy into core.
_DATABASE_URL = re.compile(
    r"""
    (?P<name>[\w+]+)://
    (?:(?P<username>[^:/]*)(?::(?P<password>[^@]*))?@)?
    (?:(?:\[(?P<ipv6host>[^/?]+)\]|(?P<ipv4host>[^/:?]+))?(?::(?P<port>[^/?]*))?)?
    (?:/(?P<database>[^?]*))?
    (?:\?(?P<query>.*))?
    """,
    re.X,
)


@dataclass(frozen=True, slots=True)
class _DatabaseURL:
    backend: str
    host: str | None
    database: str | None
    query: frozenset[str]


def _parse_database_url(url: str) -> _DatabaseURL | None:
    """The parts of `url` SQLAlchemy would read, or None where `make_url` would refuse it
    (no match, or a port that is not a number)."""
    match = _DATABASE_URL.match(url)
    if match is None:
        return None
    # An empty port ("host:") is refused too: SQLAlchemy hands "" to int().
    if match["port"] is not None:
        try:
            int(match["port"])
        except ValueError:
            return None
    database = match["database"]
    return _DatabaseURL(
        backend=match["name"].split("+", 1)[0],
        host=match["ipv4host"] or match["ipv6host"],
        database=unquote(database) if database is not None else None,
        query=frozenset(key for key, _ in parse_qsl(match["query"] or "")),
    )


def database_url_problem(url: str) -> str | None:
    """Why `url` is not a database the bot can use, or None. Passwords are never echoed."""
    accepted = (
        "accepted: sqlite:///PATH or postgresql://USER:PASSWORD@HOST:PORT/DB "
        "(also postgres:// and the +aiosqlite / +asyncpg forms)"
    )
    parsed = _parse_database_url(url)
    if parsed is None:
        return f"DATABASE_URL is not a database URL; {accepted}"
    backend = parsed.backend
    if backend not in ("sqlite", "postgresql"):
        return f"DATABASE_URL names {backend!r}, a database the bot does not support; {accepted}"
    if backend == "postgresql" and not parsed.host and "host" not in parsed.query:
        # libpq would quietly fall back to whatever local server its defaults reach.
        return f"DATABASE_URL names no PostgreSQL host; {accepted}"
    if backend == "postgresql" and not parsed.database:
        return f"DATABASE_URL names no PostgreSQL database; {accepted}"
    if backend == "sqlite" and not parsed.database:
        return f"DATABASE_URL names no SQLite file; {accepted}"
    return None
