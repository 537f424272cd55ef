"""Path pattern compilation shared by module rules, core paths and file categories.

Patterns are anchored at the repository root (like CODEOWNERS with a leading slash and like
actions/labeler's minimatch without matchBase): ``*`` never crosses ``/``, ``**`` does, a
trailing ``/`` means "everything below". Patterns starting with ``re:`` are Python regular
expressions searched anywhere in the path, which is how Mergify ``files~=`` conditions are
imported without translation loss.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .regex import compiled

REGEX_PREFIX = "re:"


_GLOBAL_FLAGS = re.compile(r"^\(\?([aiLmsux]+)\)")


def scope_flags(regex: str) -> str:
    """Rewrite a leading global flag group "(?i)x" as "(?i:x)" so the regex can be joined
    with others into one alternation (Python rejects global flags mid-pattern)."""
    m = _GLOBAL_FLAGS.match(regex)
    return f"(?{m.group(1)}:{regex[m.end() :]})" if m else regex


def glob_to_regex(pattern: str) -> str:
    """Translate one root-anchored glob into a regex body (to be used with fullmatch)."""
    if pattern.endswith("/"):
        pattern += "**"
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "*":
            if pattern.startswith("**", i):
                # "**/" may match zero directories so "a/**/b" also matches "a/b".
                if pattern.startswith("**/", i):
                    out.append("(?:.*/)?")
                    i += 3
                else:
                    out.append(".*")
                    i += 2
                continue
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape(ch))
            else:
                body = pattern[i + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end + 1
                continue
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def pattern_error(pattern: str) -> str | None:
    """Return why a path pattern is invalid, or None; used by rule-set validation."""
    if not pattern or not pattern.strip():
        return "empty path pattern"
    try:
        if pattern.startswith(REGEX_PREFIX):
            re.compile(pattern[len(REGEX_PREFIX) :])
        else:
            re.compile(glob_to_regex(pattern))
    except re.error as exc:
        return f"invalid pattern {pattern!r}: {exc}"
    return None


def _unions(patterns: tuple[str, ...]) -> tuple[str | None, str | None]:
    """The glob and the regex alternation that `PatternSet` matches with."""
    globs = [glob_to_regex(p) for p in patterns if not p.startswith(REGEX_PREFIX)]
    regexes = [scope_flags(p[len(REGEX_PREFIX) :]) for p in patterns if p.startswith(REGEX_PREFIX)]
    return (
        "|".join(f"(?:{g})" for g in globs) if globs else None,
        "|".join(f"(?:{r})" for r in regexes) if regexes else None,
    )


def patterns_error(patterns: Iterable[str]) -> str | None:
    """Why a list of path patterns is invalid, or None. Compiles the list as `PatternSet`
    will (the classifiers then reuse the compiled unions); one pattern at a time only to
    name the bad one."""
    pats = tuple(patterns)
    together: re.error | None = None
    if all(p and p.strip() for p in pats):
        try:
            for union in _unions(pats):
                if union is not None:
                    compiled(union)
            return None
        except re.error as exc:
            together = exc
    for p in pats:
        err = pattern_error(p)
        if err:
            return err
    # Each pattern is valid alone but not together (say, one group name twice).
    return f"invalid patterns {list(pats)!r} together: {together}" if together else None


@dataclass(frozen=True, slots=True)
class PatternSet:
    """A group of patterns compiled into (at most) two regexes for one-call matching."""

    patterns: tuple[str, ...]
    _globs: re.Pattern[str] | None
    _regexes: re.Pattern[str] | None

    @classmethod
    def compile(cls, patterns: Iterable[str]) -> PatternSet:
        pats = tuple(patterns)
        globs, regexes = _unions(pats)
        return cls(
            pats,
            compiled(globs) if globs is not None else None,
            compiled(regexes) if regexes is not None else None,
        )

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def matches(self, path: str) -> bool:
        if self._globs is not None and self._globs.fullmatch(path):
            return True
        return self._regexes is not None and self._regexes.search(path) is not None

    def which(self, path: str) -> str | None:
        """The first pattern that matches, for explanations (only called after a hit)."""
        for p in self.patterns:
            if p.startswith(REGEX_PREFIX):
                if re.search(p[len(REGEX_PREFIX) :], path):
                    return p
            elif _glob_re(p).fullmatch(path):
                return p
        return None


def _glob_re(pattern: str) -> re.Pattern[str]:
    # `which` runs for every new path; translating and compiling each glob once matters.
    return compiled(glob_to_regex(pattern))
