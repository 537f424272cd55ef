"""Recommendations read from the week's data (issue 33): each names its PRs and the evidence
that calls for it, never a fixed sentence over a flag count.

- `migrate-option`: a PR renames or removes an option users set (an environment variable or a
  command-line flag, named in its description: "`VLLM_X` → `x`", "removes `--foo`");
- `revert-follow-up`: a revert whose change did not land again in the window
  (`bot.analysis.flags.relanded`), with what it reverted;
- `core-untested`: a large change to the core path without tests, with its size and paths;
- `series-incomplete`: a numbered series ("[2/3]") with parts merged in the window and
  parts that are not merged (history included);
- `release-notes-breaking`: a breaking PR not already covered above, with its flag's reason.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from typing import Protocol

from bot.analysis.claims import prose
from bot.analysis.flags import revert_target
from bot.analysis.reasons import flag_text
from bot.analysis.regex import lazy
from bot.analysis.titles import parse_title
from bot.core import i18n
from bot.core.models import AnalyzedPR

from .model import RecDetail, Recommendation

# An option a user sets: an environment variable (upper snake case) or a command-line flag.
_OPTION = r"(?:--[a-z][\w-]+|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b)"
_NEW_NAME = r"(?:--?[a-z][\w.-]*|[A-Za-z_][\w.]*)"
_RENAMED = lazy(
    rf"(?P<old>{_OPTION})\s*(?:→|->|=>)\s*(?P<new>{_NEW_NAME})"
    rf"|\brenam(?:e|es|ed|ing)\s+(?:the\s+\w+\s+)?(?P<old2>{_OPTION})\s+(?:to|as)\s+"
    rf"(?P<new2>{_NEW_NAME})"
    rf"|(?P<old3>{_OPTION})\s+(?:is|has been|was)\s+(?:renamed|replaced)\s+(?:to|by|with)\s+"
    rf"(?P<new3>{_NEW_NAME})"
)
_REMOVED = lazy(
    rf"\b(?:remov(?:e|es|ed|ing)|drop(?:s|ped)?|delet(?:e|es|ed))\s+(?:the\s+)?(?:deprecated\s+)?"
    rf"(?:(?:env(?:ironment)?\s*var(?:iable)?s?|flags?|options?|arguments?)\s+)?"
    rf"(?P<names>{_OPTION}(?:\s*(?:,|and)\s*{_OPTION})*)"
    rf"|(?P<one>{_OPTION})\s+(?:is|has been|was|are|have been)\s+removed"
)
# What the author calls dead or internal was never something users set (docs/analysis.md).
_INTERNAL = lazy(r"\b(?:dead|unused|internal|redundant|stale|test-only)\b", re.IGNORECASE)
_OPTION_RE = lazy(_OPTION)
# "Remove --async-scheduling from configs and docs": the option stays, its uses go.
_FROM_USES = lazy(
    r"^\W*(?:\w+\s+){0,2}from\s+(?:all\s+)?(?:the\s+)?(?:\w+\s+)?"
    r"(?:configs?|config files|docs?|documentation|examples?|tests?|scripts?|CI|yaml|workflows?|"
    r"recipes?|tutorials?)\b",
    re.IGNORECASE,
)
_TRIGGERS = ("→", "->", "=>", "renam", "remov", "drop", "delet", "replaced")


def _may_name_option_change(text: str) -> bool:
    """Whether the raw text can hold a rename or removal at all: an option's name and one of
    the words every such sentence needs. Parsing the markdown (`prose`) costs ~8 ms a
    description, and a week's digest asks about every PR; almost none pass this test."""
    lowered = text.lower()
    return any(t in lowered for t in _TRIGGERS) and bool(
        _OPTION_RE.search(text.replace("\\_", "_"))
    )


_SERIES = lazy(r"[\[(]\s*(?P<part>\d+)\s*/\s*(?P<total>\d+)\s*[\])]")
# Shown per recommendation; the rest are counted ("and 8 more").
SHOWN_NAMES = 3


class Ranked(Protocol):
    """What a recommendation needs of a PR of the window (the digest's `_Item`)."""

    @property
    def number(self) -> int: ...
    @property
    def author(self) -> str | None: ...
    @property
    def risk_flags(self) -> tuple[str, ...]: ...
    @property
    def source(self) -> AnalyzedPR: ...


def renamed_options(text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """Options a PR description says are renamed (old → new) and removed, in order."""
    renamed: dict[str, str] = {}
    removed: list[str] = []
    if not _may_name_option_change(text):
        return [], []
    for line in prose(text).splitlines():
        if _INTERNAL.search(line):
            continue
        for m in _RENAMED.finditer(line):
            old = m.group("old") or m.group("old2") or m.group("old3")
            new = m.group("new") or m.group("new2") or m.group("new3")
            if old and new and old != new:
                renamed.setdefault(old, new)
        for m in _REMOVED.finditer(line):
            if _FROM_USES.search(line[m.end() :]):
                continue
            for name in _OPTION_RE.finditer(m.group("names") or m.group("one") or ""):
                if name.group(0) not in renamed and name.group(0) not in removed:
                    removed.append(name.group(0))
    return list(renamed.items()), removed


def _series_key(title: str, author: str | None) -> tuple[str, str, int] | None:
    m = _SERIES.search(title)
    if not m:
        return None
    total = int(m.group("total"))
    if total < 2 or int(m.group("part")) > total:
        return None
    name = parse_title(_SERIES.sub(" ", title)).rest
    return author or "", " ".join(name.lower().split()), total


def _series(
    items: Sequence[Ranked], history: Iterable[AnalyzedPR]
) -> list[tuple[str, int, list[int], list[int]]]:
    """Numbered series ("[2/3]") with a part merged in the window and a part not merged:
    (name, total, merged PRs in part order, missing parts). Parts of one series share their
    author and total; their titles may differ, so a series is named by its earliest part."""
    parts: dict[tuple[str, int], dict[int, tuple[int, str, bool]]] = defaultdict(dict)
    window = {i.number for i in items}
    for apr in [*(i.source for i in items), *history]:
        key = _series_key(apr.pr.title, apr.pr.author)
        m = _SERIES.search(apr.pr.title)
        if key is None or m is None:
            continue
        author, _, total = key
        parts[(author, total)].setdefault(
            int(m.group("part")), (apr.pr.number, apr.pr.title, apr.pr.number in window)
        )
    out = []
    for (_, total), merged in parts.items():
        # Parts before the first one seen may have merged before the history begins.
        missing = [p for p in range(min(merged) + 1, total + 1) if p not in merged]
        if missing and any(in_window for _, _, in_window in merged.values()):
            first = merged[min(merged)][1]
            name = parse_title(_SERIES.sub(" ", first)).rest.strip()
            out.append((name, total, [merged[p][0] for p in sorted(merged)], missing))
    return out


def recommendations(
    by_rank: Sequence[Ranked],
    relanded: Collection[int] = (),
    history: Iterable[AnalyzedPR] = (),
) -> list[Recommendation]:
    """The week's follow-ups, most urgent kind first, each from its own evidence."""
    out: list[Recommendation] = []
    migrate: set[int] = set()
    for item in by_rank:
        pr = item.source.pr
        renamed, removed = renamed_options(f"{pr.title}\n\n{pr.body}") if pr.body else ([], [])
        if renamed or removed:
            migrate.add(item.number)
            out.append(
                Recommendation(
                    [item.number],
                    "migrate-option",
                    details=[
                        RecDetail(
                            item.number,
                            old=[o for o, _ in renamed],
                            new=[n for _, n in renamed],
                            removed=removed,
                        )
                    ],
                )
            )
    for item in by_rank:
        if "revert" in item.risk_flags and item.number not in relanded:
            target = revert_target(item.source.pr)
            subject = target or parse_title(item.source.pr.title).rest
            out.append(
                Recommendation(
                    [item.number],
                    "revert-follow-up",
                    details=[RecDetail(item.number, subject, named=target is not None)],
                )
            )
    for item in by_rank:
        if {"core-path", "missing-tests", "large"} <= set(item.risk_flags):
            flags = {f.id: f for f in item.source.analysis.flags}
            out.append(
                Recommendation(
                    [item.number],
                    "core-untested",
                    details=[RecDetail(item.number, flags=[flags["core-path"], flags["large"]])],
                )
            )
    for name, total, merged, missing in _series(by_rank, history):
        out.append(
            Recommendation(
                merged,
                "series-incomplete",
                details=[RecDetail(merged[0], name, total=total, missing=missing)],
            )
        )
    for item in by_rank:
        if "breaking" in item.risk_flags and item.number not in migrate:
            flag = next(f for f in item.source.analysis.flags if f.id == "breaking")
            out.append(
                Recommendation(
                    [item.number],
                    "release-notes-breaking",
                    details=[RecDetail(item.number, flags=[flag])],
                )
            )
    return out


# ------------------------------------------------------------------ text


def _names(names: Sequence[str], language: str) -> str:
    if len(names) <= SHOWN_NAMES:
        return i18n.join(names, language)
    shown = (", " if language == "en" else "、").join(names[:SHOWN_NAMES])
    more = i18n.t(language, "more", count=len(names) - SHOWN_NAMES)
    return f"{shown} {more}" if language == "en" else f"{shown}{more}"


def recommendation_text(rec: Recommendation, language: str) -> str:
    """A recommendation in `language`: what its PRs did and what follows from it."""
    d = rec.details[0]
    pr = f"#{d.pr}"
    if rec.id == "migrate-option":
        parts = []
        if d.old:
            pairs = [f"{o} → {n}" for o, n in zip(d.old, d.new, strict=True)]
            parts.append(
                i18n.t(
                    language, "rec.migrate.renamed", count=len(pairs), pairs=_names(pairs, language)
                )
            )
        if d.removed:
            parts.append(
                i18n.t(
                    language,
                    "rec.migrate.removed",
                    count=len(d.removed),
                    names=_names(d.removed, language),
                )
            )
        return i18n.t(
            language,
            "rec.migrate-option" if d.old else "rec.migrate-option.removed",
            pr=pr,
            what=i18n.join(parts, language),
            count=len(d.old) + len(d.removed),
        )
    if rec.id == "revert-follow-up":
        key = "rec.revert-open" if d.named else "rec.revert-open.unknown"
        return i18n.t(language, key, pr=pr, target=d.subject)
    if rec.id == "core-untested":
        core, size = (flag_text(f, language) for f in d.flags)
        return i18n.t(language, "rec.core-untested", pr=pr, core=core, size=size)
    if rec.id == "series-incomplete":
        return i18n.t(
            language,
            "rec.series-incomplete",
            series=d.subject,
            done=len(rec.prs),
            total=d.total,
            prs=i18n.join([f"#{n}" for n in rec.prs], language),
            count=len(d.missing),
            missing=i18n.join([str(p) for p in d.missing], language),
        )
    return i18n.t(language, "rec.breaking", pr=pr, reason=flag_text(d.flags[0], language))
