"""One identity per subject across weeks: "DeepSeek", "DeepSeek V4", "DeepSeek-V4" and "DSv4"
are one theme when trends and fading compare a week with the week before (pure, no I/O).

Within a week the detector already joins spellings (a key ignores case, spaces, hyphens and
underscores; rule-set aliases; acronyms written in the window). Across weeks each week chose
its own key from its own titles, so two keys are also the same subject when, from the written
forms alone:

- one is the other with a trailing version dropped ("deepseek" and "deepseek v4"), unless
  both carry a version (DeepSeek V3.2 and DeepSeek V4 are two models);
- one is the initials of the other's words with its version kept ("dsv4" of "Deep Seek V4",
  "mrv2" of "Model Runner V2");
- upkeep themes (CI, tests, docs: bot.analysis.theme_upkeep) are the same work when they
  share a subject word ("Docs: guide, user" and "Docs: feature, guide");
- they differ by one letter (insertion, deletion, substitution or a swap of two neighbours) and
  are long enough for that to be a typo ("main2mian" of "main2main"); a differing digit is a
  different version ("qwen35" and "qwen36"), never a typo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.analysis.theme_words import _VERSION_RE

TYPO_MIN = 6  # keys shorter than this are a letter away from too many others ("gemma"/"gemm")
_CAMEL_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]*[0-9]+(?:\.[0-9]+)*[a-z]?|[A-Z]+(?![a-z])")


@dataclass(frozen=True, slots=True)
class Subject:
    """A theme as identity sees it: its key and the ways it was written."""

    key: str
    spellings: tuple[str, ...] = ()


def _norm(text: str) -> str:
    return re.sub(r"[\s\-_./]+", "", text.strip().lower())


def _parts(written: str) -> list[str]:
    """Lower-case words of a written name, CamelCase split ("DeepSeekV4" -> deep seek v4)."""
    out: list[str] = []
    for token in re.split(r"[\s\-_/]+", written.strip()):
        if not token:
            continue
        if _VERSION_RE.match(token.lower()):
            out.append(token.lower())
            continue
        out.extend(p.lower() for p in _CAMEL_RE.findall(token))
    return out


def _forms(subject: Subject) -> tuple[set[str], set[str], set[str]]:
    """(keys, keys without a trailing version, acronyms) of a subject's spellings."""
    keys = {subject.key}
    bases: set[str] = set()
    acronyms: set[str] = set()
    for written in subject.spellings:
        parts = _parts(written)
        if not parts:
            continue
        keys.add(_norm(written))
        version = parts[-1] if _VERSION_RE.match(parts[-1]) and len(parts) > 1 else ""
        if version:
            bases.add("".join(parts[:-1]).replace(".", ""))
        letters = parts[:-1] if version else parts
        if len(letters) >= 2 and all(w[0].isalpha() for w in letters):
            acronym = "".join(w[0] for w in letters) + version.replace(".", "")
            if len(acronym) >= 3:
                acronyms.add(acronym)
    return {k.replace(".", "") for k in keys}, bases, acronyms


def _typo(a: str, b: str) -> bool:
    """One letter apart (Damerau), at least TYPO_MIN long, and no digit among the changes."""
    if min(len(a), len(b)) < TYPO_MIN or abs(len(a) - len(b)) > 1 or a == b:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        if a[i + 1 :] == b[i + 1 :]:
            changed = a[i] + b[i]
        elif a[i + 2 :] == b[i + 2 :] and a[i : i + 2] == b[i : i + 2][::-1]:
            changed = a[i : i + 2]
        else:
            return False
    else:
        longer, shorter = (a, b) if len(a) > len(b) else (b, a)
        if longer[i + 1 :] != shorter[i:]:
            return False
        changed = longer[i]
    return changed.isalpha()


def same_subject(a: Subject, b: Subject) -> bool:
    """Whether two themes (of different weeks) are one subject (module docstring)."""
    if a.key == b.key:
        return True
    if a.key.startswith("m:") or b.key.startswith("m:"):
        return False  # an area is its module: the same id every week
    if a.key.startswith("u:") or b.key.startswith("u:"):
        # Upkeep ("u:docs:guide"): the same class of work sharing a subject word.
        return bool(_upkeep_keys(a) & _upkeep_keys(b))
    keys_a, bases_a, acr_a = _forms(a)
    keys_b, bases_b, acr_b = _forms(b)
    if keys_a & keys_b:
        return True
    # A versioned name and its unversioned base; two versions are two subjects.
    if (bases_a & keys_b and not bases_b) or (bases_b & keys_a and not bases_a):
        return True
    if acr_a & keys_b or acr_b & keys_a:
        return True
    return any(_typo(x, y) for x in keys_a for y in keys_b)


def _upkeep_keys(subject: Subject) -> set[str]:
    return {k for k in (subject.key, *subject.spellings) if k.startswith("u:")}


def match_subjects(previous: Sequence[Subject], current: Iterable[Subject]) -> dict[str, str]:
    """Current key -> the previous key of the same subject (exact keys first, then the
    first previous subject `same_subject` joins; each previous subject matches once)."""
    current = list(current)
    taken: set[str] = set()
    out: dict[str, str] = {}
    by_key = {p.key: p for p in previous}
    for subject in current:
        if subject.key in by_key:
            out[subject.key] = subject.key
            taken.add(subject.key)
    for subject in current:
        if subject.key in out:
            continue
        for before in previous:
            if before.key not in taken and same_subject(subject, before):
                out[subject.key] = before.key
                taken.add(before.key)
                break
    return out
