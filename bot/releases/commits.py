"""Commits of a comparison mapped to pull requests.

A squash merge's first line ends with `(#N)`. A cherry-pick onto a release branch reads
"Title (from #ORIGINAL) (#PICK)" (or only "(from #ORIGINAL)" when the export keeps the
pick PR's number apart): the release reports the original PR and keeps the pick's link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.analysis.regex import lazy
from bot.analysis.titles import parse_title

_SQUASH = lazy(r"\(#(\d+)\)\s*$")
_FROM = lazy(r"\(from #(\d+)\)")


@dataclass(frozen=True, slots=True)
class CommitRef:
    sha: str
    number: int | None  # the PR the commit was merged by; None for a direct push
    original: int | None = None  # a cherry-pick's original PR

    @property
    def reported(self) -> int | None:
        """The PR the release notes name: the original of a cherry-pick."""
        return self.original if self.original is not None else self.number


def commit_ref(sha: str, message: str) -> CommitRef:
    first = message.strip().splitlines()[0] if message.strip() else ""
    squash = _SQUASH.search(first)
    picked = _FROM.search(first)
    return CommitRef(
        sha,
        int(squash.group(1)) if squash else None,
        int(picked.group(1)) if picked else None,
    )


def cherry_pick_of(title: str) -> int | None:
    """The original PR a cherry-pick's title names ("… (from #10600)"), or None."""
    picked = _FROM.search(title)
    return int(picked.group(1)) if picked else None


def clean_title(title: str) -> str:
    """A title as release notes list it: without its leading tags ("[BugFix][310P]") and
    its "(from #N)" / trailing "(#N)" references; the original when nothing is left."""
    rest = parse_title(title).rest or title
    cleaned = re.sub(r"\s+", " ", _SQUASH.sub("", _FROM.sub("", rest))).strip(" :-")
    return cleaned or title.strip()
