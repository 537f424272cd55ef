"""Commits of a comparison mapped to pull requests; cherry-picks and reverts read from
their titles.

A squash merge's first line ends with `(#N)`. A cherry-pick onto a release branch names
its original in one of the forms release managers write: "Title (from #ORIGINAL) (#PICK)",
"(Cherry-Pick 10888)", "cherry pick of #N", "Backport of #N", "[Cherry-pick] Title (#N)"
(a trailing reference to an earlier PR than the pick itself), or in the description's
first lines ("Backports #9742 to releases/v0.20.2rc"). A revert is never a pick: its
quoted title keeps the reverted PR's "(from #N)", which names what it cancels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.analysis.regex import lazy
from bot.analysis.titles import parse_title

_SQUASH = lazy(r"\(#(\d+)\)\s*$")
_REF_AT_END = lazy(r"\(#(\d+)\)\s*$")
_PICK_WORD = r"(?:cherry[- ]?pick(?:ed|s)?|backport(?:ed|s)?)"
# "(from #N)", "(Cherry-Pick 10888)", "(cherry picked from #N)", "(backport of #N)".
_PICK_PAREN = lazy(
    rf"\((?:from|{_PICK_WORD}(?:\s+(?:of|from))?)\s*#?(\d+)\)",
    re.IGNORECASE,
)
# "cherry pick of #N", "Cherry-pick #N", "backport #N" in running text.
_PICK_TEXT = lazy(rf"\b{_PICK_WORD}\s+(?:of\s+|from\s+)?(?:PR\s*)?#(\d+)\b", re.IGNORECASE)
# The same in a description: a reference or a pull URL, within its first lines.
_PICK_BODY = lazy(
    rf"\b{_PICK_WORD}\s+(?:of\s+|from\s+)?(?:PR\s*)?(?:#|https://github\.com/[^/\s]+/[^/\s]+/pull/)"
    r"(\d+)\b",
    re.IGNORECASE,
)
BODY_HEAD = 600  # characters of a description read for a pick's original
# Tags that say how a PR reached the release, not what it does ("[Cherry-pick]",
# "[Cherrypick]", "[Backport]", "[v0.18.0]", "[0.20.2rc]", "[releases/v0.18.0]").
_TOOLING_TAG = lazy(
    rf"^(?:{_PICK_WORD}|releases?(?:/v?\d[\w.]*)?|v?\d+\.\d+[\w.]*|main2main|release[- ]?notes?)$",
    re.IGNORECASE,
)
_TOOLING_TEXT = lazy(
    rf"\[(?:{_PICK_WORD}|releases?/v?\d[\w.]*|v?\d+\.\d+(?:\.\d+)?(?:rc\d*)?)\]\s*",
    re.IGNORECASE,
)
_REVERT = lazy(r"^\s*(?:\[[^\]]*\]\s*)*(?:revert\b|\[revert\])", re.IGNORECASE)
_QUOTED = lazy(r"""["“'](?P<title>.+?)(?:["”']\s*(?:\(#\d+\)\s*)?$|$)""")
_REVERTED_REF = lazy(r"\((?:from\s+)?(?:vllm-project/[\w.-]+)?#(\d+)\)|vllm-project#(\d+)\)")


@dataclass(frozen=True, slots=True)
class CommitRef:
    sha: str
    number: int | None  # the PR the commit was merged by; None for a direct push
    original: int | None = None  # a cherry-pick's original PR

    @property
    def reported(self) -> int | None:
        """The PR the release notes name: the original of a cherry-pick."""
        return self.original if self.original is not None else self.number


def is_revert(title: str) -> bool:
    return bool(_REVERT.search(title or ""))


def cherry_pick_of(title: str, number: int | None = None, body: str = "") -> int | None:
    """The original PR a cherry-pick names, or None (a revert is never a pick). `number`:
    the PR's own number (a trailing "(#N)" of an earlier PR then names the original);
    `body`: its description, whose first lines may say "Backport of #N"."""
    if is_revert(title):
        return None
    text = title or ""
    if number is not None:
        text = re.sub(rf"\s*\(#{number}\)\s*$", "", text)
    for pattern in (_PICK_PAREN, _PICK_TEXT):
        found = pattern.search(text)
        if found:
            return _other(int(found.group(1)), number)
    trailing = _REF_AT_END.search(text)
    if trailing and number is not None and int(trailing.group(1)) < number:
        return int(trailing.group(1))
    found = _PICK_BODY.search((body or "")[:BODY_HEAD])
    return _other(int(found.group(1)), number) if found else None


def _other(original: int, number: int | None) -> int | None:
    return None if original == number else original


def commit_ref(sha: str, message: str) -> CommitRef:
    first = message.strip().splitlines()[0] if message.strip() else ""
    squash = _SQUASH.search(first)
    number = int(squash.group(1)) if squash else None
    return CommitRef(sha, number, cherry_pick_of(first, number))


def reverted_ref(title: str) -> int | None:
    """The PR a revert's title names ("Revert "Fix X (#9869)"", "(from #10824)"), or None
    when it names none (then its quoted title is matched against the release's)."""
    if not is_revert(title):
        return None
    inner = reverted_title(title)
    refs = [int(a or b) for a, b in _REVERTED_REF.compiled.findall(inner)]
    return refs[-1] if refs else None


def reverted_title(title: str) -> str:
    """The title a revert quotes ("Revert "[CI] Clean cache (#9869)"" -> "[CI] Clean
    cache (#9869)"), or what follows the word when nothing is quoted."""
    quoted = _QUOTED.search(title)
    if quoted:
        return quoted.group("title").strip()
    rest = re.sub(r"^\s*(?:\[[^\]]*\]\s*)*revert(?:s|ed)?\b[:\s]*", "", title, flags=re.I)
    return rest.strip()


def is_tooling_tag(norm: str) -> bool:
    """A title tag about how a PR reached the release ("cherry-pick", "v0.18.0")."""
    return bool(_TOOLING_TAG.match(norm))


def without_tooling(title: str) -> str:
    """A title with its release-tooling tags and pick references removed (what it does)."""
    text = _TOOLING_TEXT.sub("", title or "")
    text = _PICK_PAREN.sub("", text)
    return re.sub(r"\s+", " ", text).strip()


def clean_title(title: str) -> str:
    """A title as release notes list it: without its leading tags ("[BugFix][310P]"), its
    pick references and its trailing "(#N)"; the original when nothing is left."""
    rest = parse_title(without_tooling(title)).rest or title
    cleaned = re.sub(r"\s+", " ", _SQUASH.sub("", _PICK_PAREN.sub("", rest))).strip(" :-")
    return cleaned or title.strip()
