"""The terminal as one `bot.platform.Platform`: a document is printed as
markdown, one message is printed as a line. The terminal keeps no history, so nothing is
recorded in the delivery ledger: every post prints (a re-run is expected to print again).
It has one channel, standard output ("-"). It needs no token and `serve` runs nothing for
it (the `Platform` defaults); its command responder is `vllm-bot chat`'s
`bot.commands.cli_adapter.TerminalSurface`.

Also the terminal view of the CLI: long output through a pager (`page`), and tables
that do not fit made lists (`fit_markdown`)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING, TextIO

from bot.core.document import Document
from bot.core.models import JSON
from bot.core.validators import echo
from bot.delivery import DeliveryResult, Sent
from bot.platform import Platform, Post

if TYPE_CHECKING:
    from rich.console import Console

NAME = "terminal"
STDOUT = "-"


class TerminalPlatform(Platform):
    name = NAME

    def __init__(self, out: TextIO | None = None) -> None:
        # None: the stream at the time of printing (pytest and the CLI swap sys.stdout).
        self._out = out

    @property
    def out(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def render(self, document: Document, channel: str | None = None) -> list[JSON]:
        # Lazy: jinja2 and the templates only when something is printed.
        from bot.digest.render import render_markdown

        return [{"text": render_markdown(document)}]

    def channel_problem(self, channel: str) -> str | None:
        if channel in (STDOUT, "stdout"):
            return None
        return (
            f"bad terminal channel {echo(channel)}: the terminal has one channel, "
            f"{STDOUT!r} (standard output)"
        )

    async def post_thread(self, post: Post) -> DeliveryResult:
        for payload in post.payloads:
            self.out.write(str(payload["text"]))
        parts = len(post.payloads)
        if post.attachment is not None:
            # A terminal shows no image: the chart's alt text says what it shows.
            self.out.write(f"[{post.attachment.filename}] {post.attachment.alt_text}\n")
            parts += 1
        self.out.flush()
        return DeliveryResult(
            post.document_id, NAME, post.channel, parts=parts, sent=list(range(parts))
        )

    async def post_message(self, channel: str, text: str) -> Sent:
        self.out.write(text.rstrip("\n") + "\n")
        self.out.flush()
        return Sent(message_id=STDOUT)


# ---------------------------------------------------------------------------- terminal view

# The pager, as git and gh choose theirs: the bot's own variable, then PAGER, then less.
PAGER_VARIABLES = ("VLLM_BOT_PAGER", "PAGER")
# Below this width a wide table (the key PRs') becomes a list: one item per row.
NARROW = 100


def pager_command() -> list[str] | None:
    """The pager to run, or None for none (`cat`, an empty variable, or none installed)."""
    for name in PAGER_VARIABLES:
        value = os.environ.get(name)
        if value is not None:
            words = shlex.split(value) if value.strip() else []
            return None if not words or words == ["cat"] else words
    less = shutil.which("less")
    return [less] if less else None


def page(text: str, stream: TextIO) -> None:
    """`text` through the pager when it is longer than the terminal, else written as it
    is. Only for a terminal: piped output is never paged."""
    command = pager_command()
    rows = shutil.get_terminal_size().lines
    if command is None or not stream.isatty() or text.count("\n") < rows:
        stream.write(text)
        return
    env = dict(os.environ)
    # git's defaults: quit when it fits, keep colours, leave the text on screen.
    env.setdefault("LESS", "FRX")
    stream.flush()
    try:
        pager = subprocess.Popen(command, stdin=subprocess.PIPE, env=env)
    except OSError:  # the pager named is not installed
        stream.write(text)
        return
    assert pager.stdin is not None
    try:
        pager.stdin.write(text.encode("utf-8", "replace"))
        pager.stdin.close()
    except BrokenPipeError:  # the user quit the pager early
        pass
    while True:
        try:
            pager.wait()
            break
        except KeyboardInterrupt:  # the pager handles Ctrl-C; wait for it to exit
            continue


_TABLE_ROW = re.compile(r"^\|(.*)\|\s*$")
_RULE_CELL = re.compile(r"^\s*:?-{3,}:?\s*$")


def _cells(line: str) -> list[str]:
    match = _TABLE_ROW.match(line)
    if match is None:
        return []
    # Split on | not escaped as \|.
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", match[1])]


def markdown_view(text: str, console: Console) -> str:
    """Markdown `text` as `console` shows it: wrapped at its width, wide tables as lists."""
    # Lazy: rich.markdown (~45 ms) loads only to show Markdown, not for the pager or a card.
    from rich.markdown import Markdown

    markdown = Markdown(fit_markdown(text, console.width))
    with console.capture() as captured:
        # Wrapped at the terminal width: soft wrap would crop each PR line there.
        console.print(markdown, soft_wrap=False)
    return captured.get()


def fit_markdown(text: str, width: int) -> str:
    """`text` with each table wider than `width` made a list, one item per row:
    `- first cell second cell — Header: value · Header: value`. A terminal of 80 columns
    would squeeze such a table into columns a few characters wide, many lines a row."""
    if width >= NARROW:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        header = _cells(lines[i])
        rule = _cells(lines[i + 1]) if i + 1 < len(lines) else []
        if not header or not rule or not all(_RULE_CELL.match(c) for c in rule):
            out.append(lines[i])
            i += 1
            continue
        rows: list[list[str]] = []
        j = i + 2
        while j < len(lines) and (cells := _cells(lines[j])):
            rows.append(cells)
            j += 1
        widths = [len(h) for h in header]
        for row in rows:
            for k, cell in enumerate(row[: len(widths)]):
                widths[k] = max(widths[k], len(cell))
        if sum(widths) + 3 * len(widths) + 1 <= width:
            out.extend(lines[i:j])
        else:
            out.extend(_as_list(header, rows))
        i = j
    return "\n".join(out)


def _as_list(header: list[str], rows: list[list[str]]) -> list[str]:
    items: list[str] = []
    for row in rows:
        lead = " ".join(cell for cell in row[:2] if cell)
        rest = " · ".join(
            f"{name}: {cell}" for name, cell in zip(header[2:], row[2:], strict=False) if cell
        )
        items.append(f"- **{lead}**" + (f" — {rest}" if rest else ""))
    return items
