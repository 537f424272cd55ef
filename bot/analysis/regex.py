"""Regex compilation for the rule engine: memoised, and deferred to first use.

Compiling is most of what building the analysis costs (a rule set has ~1,000 patterns,
the modules ~60 more), while a PR card or a digest answered from the analysis cache runs
none of them.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterator


@functools.lru_cache(maxsize=8192)
def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile` memoised without re's 512-entry limit: a rule set has ~1,000 patterns,
    so re's own cache evicts them and validation, then the classifiers, compiled each
    again."""
    return re.compile(pattern, flags)


class LazyPattern:
    """A module-level regex compiled the first time it is used (the methods the analysis
    calls, with `re.Pattern`'s signatures)."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    return LazyPattern(pattern, flags)
