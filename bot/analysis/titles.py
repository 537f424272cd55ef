"""Title parsing: leading ``[Tag]`` groups and conventional-commit prefixes."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .rules import normalize_tag

_TAG_RE = re.compile(r"\s*[\[【]([^\]】]{1,60})[\]】]\s*:?\s*")
# "fix:", "feat(config):", "docs!:" -- the type is a kind hint, the scope a module hint.
_CONVENTIONAL_RE = re.compile(
    r"^(fix|feat|feature|docs?|perf|refactor|tests?|ci|build|chore|style|revert|security)"
    r"(?:\(([^)]{1,40})\))?!?:\s*",
    re.IGNORECASE,
)
# Series markers such as [1/N], [9/n], [10b/n], [2/3] carry no meaning for classification.
_SERIES_RE = re.compile(r"^\d+[a-z]?/(?:n|\d+)$")


@dataclass(frozen=True, slots=True)
class Tag:
    raw: str  # as written, for explanations: "Spec Decode"
    norm: str  # normalised for lookups: "specdecode"


@dataclass(frozen=True, slots=True)
class TitleInfo:
    tags: tuple[Tag, ...]
    rest: str  # the title without its leading tags


def parse_title(title: str) -> TitleInfo:
    tags: list[Tag] = []
    pos = 0
    text = title or ""
    while True:
        m = _TAG_RE.match(text, pos)
        if not m:
            break
        # A tag may hold several comma-separated names: "[Bugfix, ROCm]".
        for part in re.split(r"[,;|]", m.group(1)):
            norm = normalize_tag(part)
            if norm and not _SERIES_RE.match(norm):
                tags.append(Tag(part.strip(), norm))
        pos = m.end()
    rest = text[pos:]
    cm = _CONVENTIONAL_RE.match(rest)
    if cm:
        tags.append(Tag(cm.group(1), normalize_tag(cm.group(1))))
        if cm.group(2):
            for part in re.split(r"[,/]", cm.group(2)):
                norm = normalize_tag(part)
                if norm:
                    tags.append(Tag(part.strip(), norm))
        rest = rest[cm.end() :]
    return TitleInfo(tuple(tags), rest.strip())
