"""Themes: the week's busiest areas and its initiatives, found from the data (pure, no I/O).

A window's highlights are of three kinds (docs/digest.md, "Themes and highlights"):

- **areas**: the rule set's modules (also `auto` modules) that are among the week's heaviest,
  whatever their lift. An area's group holds the PRs whose *main subject* it is: the title
  or a tag or label names it, or it is the PR's main module (most of its changed lines; on
  title-only data a module named by a tag, label or whole title word). A module where most
  PRs touching it are about something else (a catch-all such as "CUDA kernels") is not
  coherent and gives no group.
- **initiatives**: distinctive named subjects (a model family, a component, a migration, a
  numbered series, one author's run) named as people write them: "DeepSeek V4",
  "AutoWeightsLoader", "MRV2", "Ascend950". A name must look like one: a word written with
  a digit, an underscore or inner capitals (CamelCase, acronyms), a capitalised word that is
  not common English and not a misspelling of a common word (the `wordfreq` English list,
  Zipf >= COMMON_ZIPF), or a name the rule set knows (aliases, modules).
- **upkeep**: the week's large CI, test and docs efforts, named by the folders and title
  names their PRs share, and a stack upgrade of several PRs, named by what it upgrades
  (bot.analysis.theme_upkeep), found first.

Membership needs real evidence: a title tag, a title phrase as whole words, a label, or the
module rules as above. Descriptions and file folders add no member to an area or initiative,
so no phrase table is built from them and history weeks cost one cached pass over their titles.

Trends compare with LAST WEEK'S HIGHLIGHTS: the same detection run for the week before
against its own history (memoised), so consecutive digests agree. "new": not a highlight
last week; "rising"/"falling": at least RISE_RATIO times more/fewer members and RISE_MIN PRs
apart; "continuing" otherwise; "the same theme" is the same subject whatever either week
wrote (bot.analysis.theme_identity). Last week's highlights of no subject highlighted now,
named by at most half as many PRs, are the window's `fading` themes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import heapq
import importlib.util
import json
import math
import re
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from bot.analysis.theme_identity import Subject, match_subjects
from bot.analysis.theme_upkeep import UpkeepDoc, UpkeepGroup, upgrade_group, upkeep_groups
from bot.analysis.theme_words import (
    _DIGIT,
    _VERSION_RE,
    _identifier,
    is_common,
    is_misspelling,
)

# Re-exported: callers ask themes whether a word can name a theme.
from bot.analysis.theme_words import is_clipped as is_clipped
from bot.analysis.theme_words import is_name as is_name
from bot.analysis.theme_words import zipf as zipf
from bot.core.models import ModuleMatch, PullRequest

MAX_GROUPS = 8
MAX_WORDS = 3
LIFT_CAP_BITS = 3.0  # log2(1 + lift) is capped: beyond 7x a term is simply "distinctive"
SCORE_SCALE = 5.0  # a PR of score 5 weighs twice one of score 0
MIN_SUPPORT = 2  # PRs that name a term
GROUP_MIN = 3  # members a highlight keeps in a week of GROUP_MIN_WEEK PRs or more
GROUP_MIN_WEEK = 20
INITIATIVE_LIFT = 2.0  # an initiative is at least twice as frequent as in the history weeks
RUN_LIFT = 1.0  # an author's run or a numbered series only needs to be no rarer than usual
RUN_MIN = 3  # one author's PRs sharing a term
SERIES_MIN = 2  # numbered-series PRs sharing a term
SMOOTHING = 0.5
NESTED = 0.8  # share of a term's PRs inside a chosen area that makes it part of it
# Areas: modules with at least AREA_MIN main-subject PRs
# (and AREA_SHARE of the window), whose main-subject PRs are at least AREA_COHERENCE of the
# PRs touching the module, and at least AREA_NAMED of them name it (tag, title words, label):
# a module that only its path or keyword rules fill ("CUDA kernels": MoE, quantization and
# sampler PRs that touch csrc/) is where work happens, not what it is about.
AREA_NAMED = 0.4
AREA_BITS = 2.0  # log2(1 + 3)
AREA_MIN = 3
AREA_SHARE = 0.03
AREA_COHERENCE = 0.5
MAIN_LINES = 1 / 3  # a primary module with a third of a PR's module lines is its main subject
# Trends against last week's highlight of the same theme.
RISE_RATIO = 1.5
RISE_MIN = 3
FADE_SHARE = 0.5  # last week's highlight with at most half its members (or gone) is fading

# Evidence strength: which signal names a PR's best theme.
STRENGTH = {"tag": 6, "title": 5, "label": 4, "module": 3}
FACTOR = {6: 1.0, 5: 1.0, 4: 0.8, 3: 1.0}

_WORD_RE = re.compile(r"[A-Za-z0-9]+(?:\.[0-9]+)*")
# CamelCase and acronym boundaries: "AutoWeightsLoader" -> Auto Weights Loader,
# "DeepseekV4Attention" -> Deepseek V4 Attention, "ROCm" and "DSv4" stay whole.
_CAMEL_RE = re.compile(r"[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*[a-z]?[0-9]*(?![a-z])|[0-9]+[a-z]?|[A-Z]+")
_SNAKE_RE = re.compile(r"[A-Za-z0-9]+(?:_+[A-Za-z0-9]+)+")
_TAG_RE = re.compile(r"[\[【]([^\]】]{1,60})[\]】]")
_SERIES_RE = re.compile(r"[\[(]\s*(\d+[a-z]?)\s*/\s*(n|\d+)\s*[\])]", re.IGNORECASE)
_MAIN_WHY = {"named": "its tag or label", "lines": "most changed lines", "title": "title word"}


def normalize_term(text: str) -> str:
    """The key of a written term: lower case, without spaces, '-', '_', '.', '/'."""
    return re.sub(r"[\s\-_./]+", "", text.strip().lower())


# ------------------------------------------------------------------ inputs


@dataclass(frozen=True, slots=True)
class ThemeDoc:
    """The fields of one PR that theme detection reads (titles, never descriptions)."""

    number: int
    title: str
    author: str | None = None
    labels: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()  # theme-eligible modules the PR touches
    main_module: str | None = None  # the module that is the PR's main subject, if any
    main_why: str = ""  # "named" (tag, label), "lines", "title" (a whole title word)
    score: float = 0.0
    key: bool = False  # a key PR of the window
    kind: str = ""  # bot.analysis.kinds: ci, test and docs PRs may form upkeep themes
    paths: tuple[str, ...] = ()  # changed file paths (empty on title-only data)


@dataclass(frozen=True, slots=True)
class HistoryWeek:
    label: str
    offset: int  # 1: the window right before this one; 2: the one before that ...
    docs: Sequence[ThemeDoc]


@dataclass(frozen=True, slots=True)
class ThemeRules:
    # Display name -> other ways to write it ("DeepSeek V4" = ["DSV4", "DeepSeek-V4"]).
    aliases: Mapping[str, Sequence[str]] = field(default_factory=dict)
    stop_terms: frozenset[str] = frozenset()
    # Modules that may be areas -> English name (auxiliary and catch-all ones left out).
    modules: Mapping[str, str] = field(default_factory=dict)
    max_groups: int = MAX_GROUPS

    def fingerprint(self) -> tuple[object, ...]:
        return (
            tuple(sorted((k, tuple(v)) for k, v in self.aliases.items())),
            self.stop_terms,
            tuple(sorted(self.modules.items())),
            self.max_groups,
        )


# ------------------------------------------------------------------ outputs


@dataclass(slots=True)
class Member:
    number: int
    reasons: list[str]  # why it joined: "tag [DSV4]", "title “DeepSeek V4”", "module rocm"
    strength: int = 0


@dataclass(slots=True)
class Theme:
    id: str  # stable slug: "deepseek-v4", "module-rocm"
    name: str  # as users write it ("DeepSeek V4"); a module's English name for areas
    module: str | None  # module id for an area
    named_by_module: bool  # name is the module's English name: the caller localises it
    terms: list[str]  # the written forms and signals that formed it
    support: int  # window PRs naming the theme's term(s), before PRs went to best themes
    window_prs: int
    history_prs: int  # history PRs naming the term(s)
    history_total: int  # all PRs in the history weeks
    history_weeks: int
    lift: float | None  # None: no history to compare with
    score: float
    weight: float
    members: list[Member]  # most important first
    history: dict[int, int]  # offset -> PRs naming the term(s) that week
    trend: str  # new | continuing | rising | falling | unknown
    last_week: int | None  # members of last week's highlight of this theme (None: none)
    baseline: float | None  # mean PRs a week naming the term(s) in the history weeks
    authors: list[tuple[str, int]]
    signals: list[str]  # "series [1/N]…[4/N] by X", "run of 4 PRs by X"
    kind: str = "initiative"  # "area" (a module) | "initiative" (a named subject) | "upkeep"
    key: str = ""  # the canonical term ("m:rocm", "deepseekv4"): matches weeks
    spellings: list[str] = field(default_factory=list)  # written forms (theme_identity)

    @property
    def numbers(self) -> list[int]:
        return [m.number for m in self.members]


@dataclass(slots=True)
class Fading:
    """Last week's highlight that is gone or fell by half this week."""

    id: str
    name: str  # as last week showed it (an area: the module's English name)
    module: str | None
    named_by_module: bool
    last_week: int  # members last week
    this_week: int  # members this week (0 when gone: PRs naming it, not in a highlight)
    highlight: bool  # still a highlight this week (with at most half the members)


@dataclass(slots=True)
class ThemeResult:
    themes: list[Theme]
    history_weeks: int
    history_labels: list[str]
    candidates: int  # qualifying terms considered
    fading: list[Fading] = field(default_factory=list)
    last_week: str | None = None  # label of the week the trends compare with (None: none)

    def theme_of(self, number: int) -> Theme | None:
        for theme in self.themes:
            if any(m.number == number for m in theme.members):
                return theme
        return None


# ------------------------------------------------------------------ tokenising


def _words(text: str) -> list[tuple[str, int, int, bool, bool, str]]:
    """(lower-case word, start, end, starts a written token, ends one, the written token)
    of `text`, with CamelCase split ("AutoWeightsLoader" -> auto weights loader)."""
    out = []
    for match in _WORD_RE.finditer(text):
        token, base = match.group(0), match.start()
        if "." in token or token.islower() or token.isupper() or token.isdigit():
            out.append((token.lower(), base, match.end(), True, True, token))
            continue
        parts = list(_CAMEL_RE.finditer(token))
        for i, part in enumerate(parts):
            out.append(
                (
                    part.group(0).lower(),
                    base + part.start(),
                    base + part.end(),
                    i == 0,
                    i == len(parts) - 1,
                    token,
                )
            )
    if "_" not in text:
        return out
    # A snake_case identifier is one written token: "npu" of npu_add_rms_norm or "awq" of
    # awq_triton is no whole word; the whole identifier ("split_group") is.
    snakes = [(m.start(), m.end(), m.group(0)) for m in _SNAKE_RE.finditer(text)]
    if not snakes:
        return out
    fixed = []
    for word, start, end, starts, ends, token in out:
        span = next((sp for sp in snakes if sp[0] <= start and end <= sp[1]), None)
        if span is not None:
            starts, ends, token = start == span[0], end == span[1], span[2]
        fixed.append((word, start, end, starts, ends, token))
    return fixed


def repo_terms(repo: str) -> frozenset[str]:
    """The repository's own name and owner as stop terms: "vllm" on vllm-project/vllm is
    every PR's subject, never a theme ("vllm-ascend": vllmascend, vllm, ascend)."""
    out: set[str] = set()
    for part in repo.lower().split("/"):
        out.add(normalize_term(part))
        out.update(w for w in re.split(r"[-_.]+", part) if len(w) >= 2)
    return frozenset(out)


def _edge_word(word: str, written: str, stop: frozenset[str]) -> bool:
    """Whether a phrase may start or end with this word: not a stop term, a bare number, a
    common English word (unless written as an identifier: "MoE", "MLA", "PD") or a
    misspelling of one."""
    if word in stop or word.isdigit() or len(word) < 2:
        return False
    if _identifier(written):
        return True
    return not is_common(word) and not is_misspelling(word)


@lru_cache(maxsize=1 << 16)
def _phrase_table(text: str, stop: frozenset[str]) -> tuple[tuple[str, str, bool], ...]:
    """Every candidate phrase of `text` once: (key, surface, plain), `plain` False when it
    starts or ends with a word no name starts or ends with, or is a bare version. Cached,
    and kept in the store when a `Kept` is active: the same titles come back every week as
    history, and a fresh process would otherwise re-derive ~2,000 of them per digest."""
    kept = _KEPT.get()
    if kept is None:
        return _new_phrase_table(text, stop)
    key = memo_key("phrases", _stop_key(stop), text)
    data = kept.entries.get(key)
    if data is not None:
        return tuple((k, surface, bool(plain)) for k, surface, plain in json.loads(data))
    table = _new_phrase_table(text, stop)
    kept.fresh[key] = json.dumps(table, ensure_ascii=False, separators=(",", ":"))
    return table


def _new_phrase_table(text: str, stop: frozenset[str]) -> tuple[tuple[str, str, bool], ...]:
    words = _words(text)
    edge = [_edge_word(w[0], w[5], stop) for w in words]
    digit = [_DIGIT.search(w[0]) is not None for w in words]
    out = []
    for i, (first, start, _, starts, _, _) in enumerate(words):
        # A phrase starts where a written token starts: "Max" of MiniMax is no term.
        if not starts:
            continue
        for j in range(i, min(i + MAX_WORDS, len(words))):
            _, _, end, _, ends, _ = words[j]
            # A phrase does not cross punctuation other than '-', '_', '.', '/' or spaces.
            if j > i:
                gap = text[words[j - 1][2] : words[j][1]]
                if len(gap) > 2 or gap.strip(" -_./"):
                    break
            # It ends where a token ends, or at a version before a capital inside one
            # ("DeepseekV4" of DeepseekV4Attention), never inside a word ("Mini" of MiniMax,
            # "Main2" of Main2main).
            if not ends and not (digit[j] and text[words[j + 1][1]].isupper()):
                continue
            key = "".join(w[0] for w in words[i : j + 1]).replace(".", "")
            plain = edge[i] and edge[j] and not (j == i and _VERSION_RE.match(first))
            out.append((key, text[start:end], plain))
    return tuple(out)


def _acronyms(parts: Sequence[str]) -> set[str]:
    """Acronyms of a multi-word phrase: initials of its words, a trailing version kept
    whole ("model runner v2" -> "mrv2", "deep seek v4" -> "dsv4")."""
    if len(parts) < 2:
        return set()
    version = (
        parts[-1] if _VERSION_RE.match(parts[-1]) and any(c.isdigit() for c in parts[-1]) else ""
    )
    letters = parts[:-1] if version else parts
    if len(letters) < 2 and not version:
        return set()
    if any(not w[0].isalpha() for w in letters):
        return set()
    acronym = "".join(w[0] for w in letters) + version
    return {acronym} if len(acronym) >= 3 else set()


@lru_cache(maxsize=1 << 16)
def _tags(title: str) -> tuple[tuple[str, ...], str]:
    """Leading bracket tags and the rest of the title."""
    tags: list[str] = []
    pos = 0
    while True:
        match = _TAG_RE.match(title, pos)
        if not match:
            stripped = title[pos:].lstrip(" :")
            if len(stripped) != len(title) - pos and _TAG_RE.match(stripped):
                pos = len(title) - len(stripped)
                continue
            break
        tags.extend(p.strip() for p in re.split(r"[,;|]", match.group(1)) if p.strip())
        pos = match.end()
        while pos < len(title) and title[pos] in " :":
            pos += 1
    return tuple(tags), title[pos:]


def _series_of(title: str) -> bool:
    return bool(_SERIES_RE.search(title))


@dataclass(slots=True)
class _Evidence:
    strength: int
    reason: str
    surface: str | None = None  # the written form, for naming


class _Vocabulary:
    """Key resolution: aliases, module names, their abbreviations and acronyms -> one key."""

    def __init__(self, rules: ThemeRules, stop: frozenset[str]) -> None:
        self.stop = stop
        self.alias: dict[str, str] = {}
        self.display: dict[str, str] = {}
        self.known: set[str] = set()  # keys the rule set names: names whatever English says
        self.module_key: dict[str, str] = {}
        self.module_name: dict[str, str] = {}
        single: dict[str, str] = {}
        for module_id, name in rules.modules.items():
            key = f"m:{module_id}"
            self.module_key[module_id] = key
            self.module_name[key] = name
            for written in (module_id, name):
                norm = normalize_term(written)
                if norm and norm not in stop:
                    self.alias.setdefault(norm, key)
                if norm.isalpha() and len(norm) >= 8:
                    single.setdefault(norm, key)
        # A clipped one-word module name ("quant" of quantization, "multi" of multimodal):
        # 5+ letters of exactly one such name, at least 3 letters short of it.
        clipped: dict[str, set[str]] = defaultdict(set)
        for norm, module_key in single.items():
            for end in range(5, len(norm) - 2):
                if not is_common(norm[:end]):  # "model" is a word, not model-loader's clip
                    clipped[norm[:end]].add(module_key)
        self.clipped = {k: next(iter(v)) for k, v in clipped.items() if len(v) == 1}
        for name, variants in rules.aliases.items():
            canonical = normalize_term(name)
            target = self.alias.get(canonical, canonical)
            if not target.startswith("m:"):  # an area keeps its module's (localised) name
                self.display[target] = name
            self.known.add(target)
            for variant in variants:
                self.alias[normalize_term(variant)] = target

    def resolve(self, key: str) -> str:
        return self.alias.get(key) or self.clipped.get(key) or key


@lru_cache(maxsize=1 << 16)
def _written_terms(
    title: str, labels: tuple[str, ...], stop: frozenset[str]
) -> tuple[tuple[str, int, str, str, bool], ...]:
    """(key, strength, reason, surface, plain) of a title's tags and phrases and of the
    labels, before aliases: computed once per title (history weeks come back every week)."""
    out = []
    tags, rest = _tags(title)
    for tag in tags:
        norm = normalize_term(tag)
        if (
            norm
            and norm not in stop
            and not norm.isdigit()
            and not _SERIES_RE.fullmatch(f"[{tag}]")
        ):
            out.append((norm, STRENGTH["tag"], f"tag [{tag}]", tag, True))
    for key, surface, plain in _phrase_table(rest, stop):
        out.append((key, STRENGTH["title"], f"title “{surface}”", surface, plain))
    for label in labels:
        name = label.split(":", 1)[-1].strip()
        norm = normalize_term(name)
        if norm and norm not in stop:
            out.append((norm, STRENGTH["label"], f"label {label}", name, True))
    return tuple(out)


def _title_evidence(doc: ThemeDoc, vocab: _Vocabulary) -> dict[str, _Evidence]:
    """Tags, whole-word title phrases, labels and the main module of one PR."""
    found: dict[str, _Evidence] = {}
    for key, strength, reason, surface, plain in _written_terms(doc.title, doc.labels, vocab.stop):
        resolved = vocab.resolve(key)
        if strength == STRENGTH["label"] and resolved.startswith("m:"):
            continue  # a path-derived label: the PR touches the area (doc.modules says so)
        # A phrase with a common word at its edge counts only as a known name's spelling.
        if not plain and resolved not in vocab.known and not resolved.startswith("m:"):
            continue
        old = found.get(resolved)
        if old is None or strength > old.strength:
            found[resolved] = _Evidence(strength, reason, surface)
    if doc.main_module:
        module_key = vocab.module_key.get(doc.main_module)
        if module_key and module_key not in found:
            why = _MAIN_WHY.get(doc.main_why, "main subject")
            found[module_key] = _Evidence(STRENGTH["module"], f"module {doc.main_module} ({why})")
    return found


def _named_keys(doc: ThemeDoc, vocab: _Vocabulary, wanted: Mapping[str, object]) -> set[str]:
    """The keys of `_title_evidence(doc, vocab)` that are in `wanted`, without building the
    evidence: a history week's PRs are only counted, 8 weeks of them per detection."""
    found: set[str] = set()
    resolve, known = vocab.resolve, vocab.known
    label = STRENGTH["label"]
    for key, strength, _, _, plain in _written_terms(doc.title, doc.labels, vocab.stop):
        resolved = resolve(key)
        if resolved not in wanted or resolved in found:
            continue
        area = resolved.startswith("m:")
        if (strength == label and area) or not (plain or area or resolved in known):
            continue
        found.add(resolved)
    if doc.main_module:
        module_key = vocab.module_key.get(doc.main_module)
        if module_key and module_key in wanted:
            found.add(module_key)
    return found


# Labels are left out: labeler and Mergify rules set them from the changed paths, so a label
# says the PR touches a module, not that it is about it.
_NAMED_RULE = re.compile(r"(?:^|; )tag \[")
_TITLE_WORD_RULE = re.compile(r"title (?:word|hint) '([^']+)'")


def main_module(pr: PullRequest, eligible: Sequence[ModuleMatch]) -> tuple[str, str] | None:
    """The module a PR is mainly about and why: "named" (a tag of the module), "lines" (the
    primary module with at least a third of its module lines; the first path module when
    line counts are unknown), or "title" (a rule's keyword as a whole word of the title, on
    title-only data; "awq" inside "xpu_awq_test" is not enough)."""
    if not eligible:
        return None
    for match in eligible:
        if _NAMED_RULE.search(match.rule):
            return match.id, "named"
    if pr.files_known:
        total = sum(m.lines for m in eligible)
        first = eligible[0]
        if total > 0:
            return (first.id, "lines") if first.lines >= MAIN_LINES * total else None
        path = next((m for m in eligible if m.rule.startswith("path")), None)
        if path is not None:
            return path.id, "lines"
    for match in eligible:
        for word in _TITLE_WORD_RULE.findall(match.rule):
            if _whole_word(word, pr.title):
                return match.id, "title"
    return None


_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _whole_word(word: str, title: str) -> bool:
    """`word` in `title` as a whole word, ignoring case. ASCII text is searched directly:
    a regex per rule keyword recompiled for every PR cost ~0.2 s per digest."""
    if not (word.isascii() and title.isascii()):
        # re's case folding ("K" also matches the Kelvin sign) is the reference.
        pattern = rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])"
        return re.search(pattern, title, re.I) is not None
    needle, text = word.lower(), title.lower()
    start = text.find(needle)
    while start >= 0:
        end = start + len(needle)
        if (start == 0 or text[start - 1] not in _WORD_CHARS) and (
            end == len(text) or text[end] not in _WORD_CHARS
        ):
            return True
        start = text.find(needle, start + 1)
    return False


def _stop_terms(rules: ThemeRules) -> frozenset[str]:
    return frozenset(normalize_term(t) for t in rules.stop_terms)


def _learn_acronyms(docs: Iterable[ThemeDoc], vocab: _Vocabulary, keys: Counter[str]) -> None:
    """Map an acronym written in the window to the long form it abbreviates (the most
    frequent one when several share it)."""
    best: dict[str, tuple[int, str]] = {}
    for doc in docs:
        tags, rest = _tags(doc.title)
        # A whole tag abbreviates too ("[Model Runner V2]" -> MRV2), common words included.
        phrases = [(normalize_term(t), [w[0] for w in _words(t)]) for t in tags]
        phrases += [
            (k, [w[0] for w in _words(s)])
            for k, s, plain in _phrase_table(rest, vocab.stop)
            if plain
        ]
        for key, parts in phrases:
            for acronym in _acronyms(parts):
                if acronym == key or keys[acronym] == 0 or acronym in vocab.alias:
                    continue
                count = keys[vocab.resolve(key)]
                if count and (acronym not in best or count > best[acronym][0]):
                    best[acronym] = (count, vocab.resolve(key))
    for acronym, (_, target) in best.items():
        vocab.alias[acronym] = target


# ------------------------------------------------------------------ detection


def _name_of(key: str, surfaces: Counter[str], vocab: _Vocabulary) -> str:
    if key in vocab.display:
        return vocab.display[key]
    if not surfaces:
        return key
    # The long form over its acronyms ("DeepSeek V4" over "DSV4"), a capitalised form,
    # then the most common way it is written, then a spaced form ("DeepSeek V4" over
    # "DeepseekV4"), then more capitals (ROCm over rocm), then alphabetical.
    return min(
        surfaces,
        key=lambda s: (
            normalize_term(s) != key,
            s.islower(),
            -surfaces[s],
            " " not in s,
            -sum(c.isupper() for c in s),
            s,
        ),
    )


def _slug(key: str, name: str) -> str:
    if key.startswith("m:"):
        return "module-" + key[2:]
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or key


def trend_of(members: int, last_week: int | None) -> str:
    """new (no highlight of it last week), rising, falling or continuing against last
    week's highlight: RISE_RATIO times more (fewer) members and RISE_MIN PRs apart."""
    if last_week is None:
        return "new"
    if members >= last_week * RISE_RATIO and members - last_week >= RISE_MIN:
        return "rising"
    if members * RISE_RATIO <= last_week and last_week - members >= RISE_MIN:
        return "falling"
    return "continuing"


# ------------------------------------------------------------------ kept between runs


@dataclass(slots=True)
class Kept:
    """Facts kept between processes while active (`keep`): phrase tables of titles and the
    detections of earlier weeks, by `memo_key`. `entries` were read from the store,
    `fresh` were computed now (bot.digest.theme_memo loads and saves them)."""

    entries: Mapping[str, str] = field(default_factory=dict)
    fresh: dict[str, str] = field(default_factory=dict)


_KEPT: ContextVar[Kept | None] = ContextVar("bot_themes_kept", default=None)


def keep(kept: Kept | None) -> Token[Kept | None]:
    """Make `kept` the memo of this context (until `forget(token)`): of theme detection and
    of other digest facts that read it (`active`), as bot.digest.summary's sentences."""
    return _KEPT.set(kept)


def forget(token: Token[Kept | None]) -> None:
    _KEPT.reset(token)


def active() -> Kept | None:
    """The memo of this context (None: nothing is kept)."""
    return _KEPT.get()


@lru_cache(maxsize=1)
def _code_version() -> str:
    """The source of theme detection (this module and its `theme_*` passes) and the word
    list it reads: a kept fact is valid only for the code and the data that made it, so any
    change of either gives every key a new value."""
    here = Path(__file__)
    sources = sorted({here, *here.parent.glob("theme_*.py")})
    parts = [f"{p.name}\n".encode() + p.read_bytes() for p in sources]
    spec = importlib.util.find_spec("wordfreq")
    for folder in spec.submodule_search_locations or () if spec else ():
        data = Path(folder) / "data" / "small_en.msgpack.gz"
        if data.exists():
            stat = data.stat()
            parts.append(f"{data}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


# Leading characters of a kept fact's key that name the code version (the rest hashes it
# with the inputs): the store reads only the rows this code can use, not the ones earlier
# versions left to expire.
VERSION_CHARS = 8


def memo_prefix() -> str:
    """What the keys of this code's kept facts start with."""
    return _code_version()[:VERSION_CHARS]


def versioned_key(version: str, kind: str, *parts: str) -> str:
    """The key of a fact kept by the code of `version` (a hexadecimal hash of it): its
    first VERSION_CHARS, then a hash of the version, the kind and every input (64
    characters in all, as the store's column)."""
    text = "\0".join((version, kind, *parts))
    return version[:VERSION_CHARS] + hashlib.sha256(text.encode()).hexdigest()[VERSION_CHARS:]


def memo_key(kind: str, *parts: str) -> str:
    """The key of a fact of theme detection."""
    return versioned_key(_code_version(), kind, *parts)


@lru_cache(maxsize=64)
def _stop_key(stop: frozenset[str]) -> str:
    return "\x1f".join(sorted(stop))


def _rules_key(rules: ThemeRules) -> str:
    # Sorted: a frozenset's repr follows the process's hash seed.
    return repr(
        (
            sorted((k, list(v)) for k, v in rules.aliases.items()),
            sorted(rules.stop_terms),
            sorted(rules.modules.items()),
            rules.max_groups,
        )
    )


def _result_json(result: ThemeResult) -> str:
    return json.dumps(
        {
            "themes": [dataclasses.asdict(t) for t in result.themes],
            "history_weeks": result.history_weeks,
            "history_labels": result.history_labels,
            "candidates": result.candidates,
            "fading": [dataclasses.asdict(f) for f in result.fading],
            "last_week": result.last_week,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def _result_of(data: str) -> ThemeResult:
    raw = json.loads(data)
    themes = []
    for t in raw["themes"]:
        t["members"] = [Member(**m) for m in t["members"]]
        t["history"] = {int(k): v for k, v in t["history"].items()}
        t["authors"] = [(a, n) for a, n in t["authors"]]
        themes.append(Theme(**t))
    fading = [Fading(**f) for f in raw["fading"]]
    return ThemeResult(
        themes,
        raw["history_weeks"],
        raw["history_labels"],
        raw["candidates"],
        fading,
        raw["last_week"],
    )


_MEMO: OrderedDict[tuple[object, ...], ThemeResult] = OrderedDict()
_MEMO_SIZE = 32
CARRY_DEPTH = 3  # last week's detection continues the week before's, and so on 3 weeks deep


def detect_themes(
    docs: Sequence[ThemeDoc],
    history: Sequence[HistoryWeek] = (),
    rules: ThemeRules | None = None,
    *,
    baseline_weeks: int | None = None,
    compare_last_week: bool = True,
    keep_window: bool = False,
) -> ThemeResult:
    """The themes of `docs` (one window) against `history` (earlier weeks, any subset).

    The lift uses the history weeks up to `baseline_weeks` back (None: all). Trends compare
    with last week's highlights: the same detection for the week at offset 1 against the
    weeks before it (up to `baseline_weeks` of them), itself continuing the initiatives of
    the week before it (CARRY_DEPTH weeks deep); memoised so that building consecutive
    weeks detects each week once. `keep_window` keeps the whole result in the store's memo
    too (when a `Kept` is active): a window that is over and synced comes back with the
    same PRs, a running one would add a row on every run."""
    rules = rules or ThemeRules()
    kept = _KEPT.get() if keep_window else None
    stored = None
    if kept is not None:
        # Every input in full, as _detect_memo's key.
        weeks_key = repr([(w.label, w.offset, tuple(w.docs)) for w in history])
        options = repr((baseline_weeks, compare_last_week))
        stored = memo_key("window", repr(tuple(docs)), weeks_key, _rules_key(rules), options)
        data = kept.entries.get(stored)
        if data is not None:
            return _result_of(data)
    result = _detect_window(docs, history, rules, baseline_weeks, compare_last_week)
    if kept is not None and stored is not None:
        kept.fresh[stored] = _result_json(result)
    return result


def _detect_window(
    docs: Sequence[ThemeDoc],
    history: Sequence[HistoryWeek],
    rules: ThemeRules,
    baseline_weeks: int | None,
    compare_last_week: bool,
) -> ThemeResult:
    limit = (
        baseline_weeks
        if baseline_weeks is not None
        else max((w.offset for w in history), default=0)
    )
    weeks = {w.offset: w for w in history if w.docs}
    depth = CARRY_DEPTH if compare_last_week else 0
    result, previous = _result_at(0, docs, weeks, rules, limit, depth)
    if previous is None:
        return result
    return _with_trends(result, previous, docs, rules, weeks[1].label)


def _result_at(
    level: int,
    docs: Sequence[ThemeDoc],
    weeks: Mapping[int, HistoryWeek],
    rules: ThemeRules,
    limit: int,
    depth: int,
) -> tuple[ThemeResult, ThemeResult | None]:
    """The detection of the week `level` weeks back (0: the window) and of the week before
    it, whose highlights it continues."""
    own = [
        HistoryWeek(w.label, off - level, w.docs)
        for off, w in sorted(weeks.items())
        if level < off <= level + limit
    ]
    previous = None
    if depth > 0 and level + 1 in weeks:
        previous, _ = _result_at(level + 1, weeks[level + 1].docs, weeks, rules, limit, depth - 1)
    # Last week's themes by key and by every spelling they were written in.
    carry = (
        frozenset(k for t in previous.themes for k in (t.key, *map(normalize_term, t.spellings)))
        if previous
        else frozenset()
    )
    # Earlier weeks are kept in the store (the same ones come back on every run); the
    # window's own detection only by detect_themes, when its PRs no longer change.
    return _detect_memo(docs, own, rules, carry, kept=level > 0), previous


def _detect_memo(
    docs: Sequence[ThemeDoc],
    history: Sequence[HistoryWeek],
    rules: ThemeRules,
    carry: frozenset[str] = frozenset(),
    *,
    kept: bool = False,
) -> ThemeResult:
    key = (
        tuple(docs),
        tuple((w.label, w.offset, tuple(w.docs)) for w in history),
        rules.fingerprint(),
        carry,
    )
    hit = _MEMO.get(key)
    if hit is not None:
        _MEMO.move_to_end(key)
        return _copy(hit)
    store = _KEPT.get() if kept else None
    stored = None
    if store is not None:
        # Every input in full (repr of the frozen docs), so a changed PR, week, rule or
        # carried theme is a different key.
        stored = memo_key("detection", repr(key[:2]), _rules_key(rules), repr(sorted(carry)))
    if store is not None and stored is not None and stored in store.entries:
        result = _result_of(store.entries[stored])
    else:
        result = _detect(docs, history, rules, carry)
        if store is not None and stored is not None:
            store.fresh[stored] = _result_json(result)
    _MEMO[key] = result
    while len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return _copy(result)


def _copy(result: ThemeResult) -> ThemeResult:
    # Callers set trends on the themes: the memo keeps its own copy.
    themes = [dataclasses.replace(t) for t in result.themes]
    return ThemeResult(themes, result.history_weeks, list(result.history_labels), result.candidates)


def _with_trends(
    result: ThemeResult,
    previous: ThemeResult,
    docs: Sequence[ThemeDoc],
    rules: ThemeRules,
    label: str,
) -> ThemeResult:
    """Trends and fading themes of `result` against last week's highlights: the same
    subject (theme_identity) whatever spelling either week chose. A subject still a
    highlight is "falling" at most, never fading too."""
    same = match_subjects(
        [_subject(t) for t in previous.themes], [_subject(t) for t in result.themes]
    )
    by_key = {t.key: t for t in previous.themes}
    for theme in result.themes:
        before = by_key.get(same.get(theme.key, ""))
        theme.last_week = len(before.members) if before else None
        theme.trend = trend_of(len(theme.members), theme.last_week)
    matched = set(same.values())
    # Last week's themes that are no highlight now are counted by name.
    # Upkeep (CI, tests, docs) is never news by its absence: it does not fade.
    gone = {t.key: t for t in previous.themes if t.key not in matched and t.kind != "upkeep"}
    named: Counter[str] = Counter()
    if gone:
        vocab = _Vocabulary(rules, _stop_terms(rules))
        for doc in docs:
            named.update(_named_keys(doc, vocab, gone))
    fading = []
    for before in gone.values():
        count = named[before.key]
        if count <= FADE_SHARE * len(before.members):
            fading.append(
                Fading(
                    id=before.id,
                    name=before.name,
                    module=before.module,
                    named_by_module=before.named_by_module,
                    last_week=len(before.members),
                    this_week=count,
                    highlight=False,
                )
            )
    result.fading = fading
    result.last_week = label
    return result


def _subject(theme: Theme) -> Subject:
    return Subject(theme.key, (theme.name, *theme.spellings))


def _detect(
    docs: Sequence[ThemeDoc],
    history: Sequence[HistoryWeek],
    rules: ThemeRules,
    carry: frozenset[str] = frozenset(),
) -> ThemeResult:
    """The passes of one week: upkeep groups (CI, tests, docs by kind and paths), then named
    themes (areas and initiatives) over the other PRs, ranked together by weight."""
    docs = list({d.number: d for d in docs}.values())
    stop = _stop_terms(rules)
    named = _naming_shared(docs, _Vocabulary(rules, stop), len(docs))
    free = [UpkeepDoc(d.number, d.title, d.kind, d.paths, d.score) for d in docs]
    free = [d for d in free if d.number not in named]
    upgrade = upgrade_group(free, stop, len(docs))
    if upgrade is not None:
        free = [d for d in free if d.number not in upgrade.evidence]
    upkeep = upkeep_groups([d for d in free if d.kind], stop, len(docs))
    # A stack upgrade is its own class: the CI, test and docs groups' cap leaves it be.
    upkeep += [upgrade] if upgrade is not None else []
    by_number = {d.number: d for d in docs}
    while True:
        taken = {x for g in upkeep for x in g.numbers}
        rest = [d for d in docs if d.number not in taken]
        result = _named(rest, history, rules, carry, len(docs))
        extra = [_upkeep_theme(g, by_number, len(docs), len(history)) for g in upkeep]
        # Upkeep competes for the slots by weight as every other theme does; a group that
        # gets none gives its PRs back to the named themes.
        themes = sorted([*result.themes, *extra], key=lambda t: (-t.weight, t.id))
        kept = {t.key for t in themes[: rules.max_groups]}
        if all(g.key in kept for g in upkeep):
            break
        upkeep = [g for g in upkeep if g.key in kept]
    result.themes = themes[: rules.max_groups]
    _unique_ids(result.themes)
    return result


def _naming_shared(docs: Sequence[ThemeDoc], vocab: _Vocabulary, window: int) -> set[int]:
    """PRs whose tag or title names a subject (not an area) that a highlight's worth of the
    window's PRs name too: "[CI] Main2main 0427" is upstream-sync work before it is CI."""
    least = GROUP_MIN if window >= GROUP_MIN_WEEK else MIN_SUPPORT
    names: dict[int, set[str]] = {}
    for doc in docs:
        keys = set()
        for key, strength, _, surface, plain in _written_terms(doc.title, (), vocab.stop):
            resolved = vocab.resolve(key)
            if strength < STRENGTH["title"] or resolved.startswith("m:"):
                continue
            if (plain and is_name(surface)) or resolved in vocab.known:
                keys.add(resolved)
        names[doc.number] = keys
    counts = Counter(k for keys in names.values() for k in keys)
    return {x for x, keys in names.items() if any(counts[k] >= least for k in keys)}


def _upkeep_theme(
    group: UpkeepGroup, by_number: Mapping[int, ThemeDoc], n: int, weeks: int
) -> Theme:
    mass = sum(1.0 + by_number[x].score / SCORE_SCALE for x in group.numbers)
    return Theme(
        # The id is the effort's subject ("tests-ut"): its name may add a second word.
        id=group.key[2:].replace(":", "-"),
        name=group.name,
        module=None,
        named_by_module=False,
        terms=[*group.words, f"upkeep {group.upkeep}"],
        support=len(group.numbers),
        window_prs=n,
        history_prs=0,
        history_total=0,
        history_weeks=weeks,
        lift=None,
        score=round(len(group.numbers) * AREA_BITS, 2),
        weight=round(mass * AREA_BITS, 2),
        members=[Member(x, [group.evidence[x]], STRENGTH["module"]) for x in group.numbers],
        history={},
        trend="unknown",
        last_week=None,
        baseline=None,
        authors=sorted(
            Counter(a for x in group.numbers if (a := by_number[x].author)).items(),
            key=lambda kv: (-kv[1], kv[0].lower()),
        ),
        signals=[],
        kind="upkeep",
        key=group.key,
        spellings=[group.name, *(f"u:{group.key.split(':')[1]}:{w.lower()}" for w in group.words)],
    )


def _unique_ids(themes: Sequence[Theme]) -> None:
    seen: set[str] = set()
    for theme in themes:  # slugs are ids: keep them unique
        base, i = theme.id, 2
        while theme.id in seen:
            theme.id, i = f"{base}-{i}", i + 1
        seen.add(theme.id)


def _named(
    docs: Sequence[ThemeDoc],
    history: Sequence[HistoryWeek],
    rules: ThemeRules,
    carry: frozenset[str],
    window: int,
) -> ThemeResult:
    """Areas and initiatives of `docs` (the window's PRs no upkeep group took; `window`: all
    of its PRs)."""
    stop = _stop_terms(rules)
    vocab = _Vocabulary(rules, stop)
    by_number = {d.number: d for d in docs}

    # Pass 1: title terms of the window, acronyms learnt from them.
    raw: Counter[str] = Counter()
    for doc in docs:
        tags, rest = _tags(doc.title)
        keys = {vocab.resolve(normalize_term(t)) for t in tags}
        keys |= {vocab.resolve(k) for k, _, plain in _phrase_table(rest, stop) if plain}
        raw.update(keys)
    _learn_acronyms(docs, vocab, raw)

    # Pass 2: evidence per PR; module carriers (every PR touching a module) for coherence.
    evidence = {doc.number: _title_evidence(doc, vocab) for doc in docs}
    carriers: dict[str, list[int]] = defaultdict(list)
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    for number, found in evidence.items():
        for key, ev in found.items():
            carriers[key].append(number)
            if ev.surface:
                surfaces[key][ev.surface] += 1
    touching: dict[str, set[int]] = defaultdict(set)
    for doc in docs:
        for module_id in doc.modules:
            if module_id in vocab.module_key:
                touching[vocab.module_key[module_id]].add(doc.number)

    # History: PRs naming each of this window's terms, per week (titles, labels, modules).
    hist_counts: dict[int, Counter[str]] = {}
    hist_total = 0
    for week in history:
        counts: Counter[str] = Counter()
        for doc in week.docs:
            counts.update(_named_keys(doc, vocab, carriers))
        hist_counts[week.offset] = counts
        hist_total += len(week.docs)
    hist_any: Counter[str] = Counter()
    for counts in hist_counts.values():
        hist_any.update(counts)

    n = window
    # A highlight of a week of some size holds at least GROUP_MIN PRs: two PRs sharing a
    # name are as often a coincidence (a model name over unrelated fixes) as an effort.
    least = GROUP_MIN if window >= GROUP_MIN_WEEK else MIN_SUPPORT

    def group_min(key: str) -> int:
        # A name the rule set declares, one author's run or a numbered series is no
        # coincidence: two PRs of it are a group.
        return MIN_SUPPORT if key in vocab.known or key in signals else least

    with_history = bool(history) and hist_total > 0

    def lift_of(key: str) -> float | None:
        if not with_history or n == 0:
            return None
        rate = len(carriers[key]) / n
        base = (hist_any[key] + SMOOTHING) / (hist_total + SMOOTHING)
        return rate / base

    def bits(key: str) -> float:
        if key.startswith("m:"):
            # An area is heavy, not unusual: its PRs weigh as a term 3x as frequent as usual
            # (a standing area keeps its slot against coincidental terms).
            return AREA_BITS
        lift = qualifying[key]
        # A qualifying initiative weighs at least as an area does (the week's named work is
        # what maintainers lead with), more when it is more unusual; without history nothing
        # is known to be unusual.
        if lift is None:
            return AREA_BITS
        return min(max(math.log2(1 + lift), AREA_BITS), LIFT_CAP_BITS)

    # Author runs and numbered series.
    signals: dict[str, list[str]] = defaultdict(list)
    by_author: dict[str, list[int]] = defaultdict(list)
    for doc in docs:
        if doc.author:
            by_author[doc.author].append(doc.number)
    for author, numbers in by_author.items():
        if len(numbers) < SERIES_MIN:
            continue
        shared: Counter[str] = Counter()
        series: Counter[str] = Counter()
        for number in numbers:
            strong = [k for k, ev in evidence[number].items() if ev.strength >= STRENGTH["title"]]
            shared.update(strong)
            if _series_of(by_number[number].title):
                series.update(strong)
        for key, count in shared.items():
            if count >= RUN_MIN:
                signals[key].append(f"run of {count} PRs by {author}")
        for key, count in series.items():
            if count >= SERIES_MIN:
                signals[key].append(f"numbered series of {count} PRs by {author}")

    qualifying: dict[str, float | None] = {}
    # Areas: the heaviest coherent modules, whatever their lift.
    area_min = max(AREA_MIN, math.ceil(AREA_SHARE * n))
    areas = []
    for key, numbers in carriers.items():
        if not key.startswith("m:") or len(numbers) < area_min:
            continue
        touched = touching.get(key, set()) | set(numbers)
        named = sum(
            1
            for x in numbers
            if evidence[x][key].strength > STRENGTH["module"]
            or by_number[x].main_why in ("named", "lines")
        )
        if len(numbers) >= AREA_COHERENCE * len(touched) and named >= AREA_NAMED * len(numbers):
            areas.append((len(numbers), key))
    for _, key in areas:
        qualifying[key] = lift_of(key)
    # Initiatives: named subjects, distinctive this week (or a run or series).
    for key, numbers in carriers.items():
        if key.startswith("m:") or len(numbers) < MIN_SUPPORT or key in stop:
            continue
        if key not in vocab.known and not any(is_name(s) for s in surfaces[key]):
            continue
        lift = lift_of(key)
        # A run, a series, last week's initiative continuing or a name the rule set declares
        # ([themes.aliases]: "Model Runner V2") only needs to be no rarer than usual: an
        # initiative's history fills up with its own earlier weeks.
        steady = key in signals or key in carry or key in vocab.known
        run = steady and (lift is None or lift >= RUN_LIFT)
        if run or lift is None or lift >= INITIATIVE_LIFT:
            qualifying[key] = lift

    def mass(key: str, numbers: Iterable[int]) -> float:
        # Importance (score 0-10 adds up to 100%) times how directly the PR names the term.
        return sum(
            (1.0 + by_number[x].score / SCORE_SCALE) * FACTOR[evidence[x][key].strength]
            for x in numbers
        )

    # Greedy, lazily re-scored selection. A PR placed in a theme is still open to a term
    # that names it more directly (a tag beats a main module), so an area chosen early does
    # not keep the PRs of a sharper initiative chosen later.
    home: dict[int, tuple[int, int, str]] = {}  # number -> (claim, -rank, key)

    def claim(x: int, key: str) -> int:
        # How strongly a theme claims a PR: by its evidence (tag > title > label > main
        # module), except that an initiative named by a tag or title words comes before any
        # area ("[Ops] Add DeepSeek V4 custom operators" is DeepSeek V4 work; "[ROCm] Fix
        # MoE padding" stays ROCm's).
        strength = evidence[x][key].strength
        if key.startswith("m:") or strength < STRENGTH["title"]:
            return 2 * strength + (0 if key.startswith("m:") else 1)
        return 2 * STRENGTH["tag"] + 1 + strength - STRENGTH["title"]

    def open_to(key: str) -> list[int]:
        # Equally direct evidence goes to the narrower area: "[Frontend][Rust Frontend]" is
        # a Rust frontend PR.
        size = len(carriers[key])
        return [
            x
            for x in carriers[key]
            if (current := home.get(x)) is None
            or claim(x, key) > current[0]
            or (
                claim(x, key) == current[0]
                and key.startswith("m:")
                and current[2].startswith("m:")
                and size < len(carriers[current[2]])
            )
        ]

    def gain(key: str) -> float:
        free = open_to(key)
        if len(free) < group_min(key):
            return 0.0
        return round(mass(key, free) * bits(key), 9)

    def groups_now() -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for number, (_, _, key) in home.items():
            out[key].append(number)
        return out

    # Ties go to the longer term: "Main2main" over its "Main2", "DeepSeek V4" over "DeepSeek".
    heap = [(-gain(k), -len(k), k) for k in qualifying]
    heapq.heapify(heap)
    chosen: list[str] = []
    merged: dict[str, list[str]] = defaultdict(list)
    home_rank: dict[str, int] = {}
    area_members: dict[str, set[int]] = {}
    rounds = 0
    while heap and rounds < 4 * rules.max_groups:
        if sum(1 for k, v in groups_now().items() if len(v) >= group_min(k)) >= rules.max_groups:
            break
        neg, _, key = heapq.heappop(heap)
        current = gain(key)
        if current <= 0:
            continue
        if current < -neg - 1e-9:
            heapq.heappush(heap, (-current, -len(key), key))
            continue
        rounds += 1
        free = open_to(key)
        # A term whose PRs nearly all sit in an area already chosen, as a minor part of it,
        # belongs to it ("AITER" inside ROCm): it joins it rather than taking a group. One
        # that is most of the area's work this week (MRV2 inside "Model runner") keeps its
        # own name and group.
        parent = None
        if not key.startswith("m:"):
            parent = next(
                (
                    k
                    for k in chosen
                    if k in area_members
                    and sum(1 for x in free if x in area_members[k]) >= NESTED * len(free)
                    and len(free) * 2 <= len(area_members[k])
                ),
                None,
            )
        if parent is not None:
            merged[parent].append(key)
            for x in free:
                home[x] = (claim(x, key), home_rank[parent], parent)
                evidence[x].setdefault(parent, evidence[x][key])
            continue
        rank = len(chosen)
        chosen.append(key)
        home_rank[key] = -rank
        if key.startswith("m:"):
            area_members[key] = set(free)
        for x in free:
            home[x] = (claim(x, key), -rank, key)
    # An area keeps AREA_MIN members after sharper themes took theirs; an initiative 2.
    groups = groups_now()
    # An initiative whose name holds an area's name ("W8A8 quantization") is part of that
    # area when both have groups.
    for key in [k for k in groups if not k.startswith("m:")]:
        words = {vocab.resolve(normalize_term(w)) for s in surfaces[key] for w in s.split()}
        area = next((w for w in sorted(words) if w.startswith("m:") and w in groups), None)
        if area is not None:
            merged[area].append(key)
            for x in groups.pop(key):
                evidence[x].setdefault(area, evidence[x][key])
                groups[area].append(x)
    final = {
        k: v
        for k, v in groups.items()
        if len(v) >= (area_min if k.startswith("m:") else group_min(k))
    }
    if len(final) > rules.max_groups:
        heaviest = sorted(final, key=lambda k: -mass(k, final[k]) * bits(k))
        final = {k: final[k] for k in heaviest[: rules.max_groups]}

    weeks = len(history)
    themes: list[Theme] = []
    for key in chosen:
        if key not in final:
            continue
        numbers = sorted(final[key], key=lambda x: (-by_number[x].score, x))
        lift = qualifying[key]
        module = key[2:] if key.startswith("m:") else None
        written = surfaces.get(key, Counter())
        if module is not None:
            # An area is always named by its module (localised by the caller): the same
            # name every week, whichever spelling the week's titles used.
            name = vocab.module_name.get(key, module)
        else:
            name = _name_of(key, written, vocab)
        hist = {offset: counts[key] for offset, counts in hist_counts.items()}
        authors = Counter(a for x in numbers if (a := by_number[x].author))
        terms = [f"{s} ({c})" for s, c in written.most_common(6)]
        for sub in merged.get(key, []):
            terms.append(f"{_name_of(sub, surfaces.get(sub, Counter()), vocab)} (nested term)")
        if module is not None:
            coherent = len(carriers[key]) / max(
                1, len(touching.get(key, set()) | set(carriers[key]))
            )
            terms.append(f"module {module} (main subject of {coherent:.0%} of PRs touching it)")
        themes.append(
            Theme(
                id=_slug(key, name),
                name=name,
                module=module,
                named_by_module=module is not None,
                terms=terms,
                support=len(carriers[key]),
                window_prs=n,
                history_prs=hist_any[key],
                history_total=hist_total,
                history_weeks=weeks,
                lift=None if lift is None else round(lift, 2),
                score=round(len(carriers[key]) * bits(key), 2),
                weight=round(mass(key, numbers) * bits(key), 2),
                members=[
                    Member(x, [evidence[x][key].reason], evidence[x][key].strength) for x in numbers
                ],
                history=hist,
                trend="unknown",
                last_week=None,
                baseline=round(sum(hist.values()) / weeks, 2) if weeks else None,
                authors=sorted(authors.items(), key=lambda kv: (-kv[1], kv[0].lower())),
                signals=signals.get(key, []),
                kind="area" if module is not None else "initiative",
                key=key,
                spellings=[s for s, _ in written.most_common(6)],
            )
        )
    return ThemeResult(
        themes=themes,
        history_weeks=weeks,
        history_labels=[w.label for w in sorted(history, key=lambda w: w.offset)],
        candidates=len(qualifying),
    )


def _broad(module: object) -> bool:
    """A catch-all that is a whole top-level folder or a package's remaining top-level
    files: where everything lives, not a subject."""
    if not getattr(module, "catch_all", False):
        return False
    if getattr(module, "exclude", None):
        return True
    paths = getattr(module, "paths", ()) or ()
    return any(p.rstrip("*/").count("/") == 0 for p in paths)


def rules_from(ruleset: object, not_themes: Iterable[str] = ()) -> ThemeRules:
    """ThemeRules of a rule set: its `[themes]` table, with its kind tags, ignored tags and
    the modules in `not_themes` (auxiliary, catch-all) as stop terms. A package's sub-folder
    modules (`auto` rule sets) may be areas; whole top-level folders may not."""
    settings = getattr(ruleset, "themes", None)
    excluded = set(not_themes)
    stop: set[str] = set(getattr(settings, "stop_terms", ()) or ())
    stop.update(getattr(ruleset, "ignore_tags", ()) or ())
    kinds = getattr(ruleset, "kinds", None)
    for tags in getattr(kinds, "tags", {}).values():
        stop.update(tags)
    modules = {}
    for module in getattr(ruleset, "modules", ()) or ():
        if module.id in excluded or module.auxiliary or _broad(module):
            stop.add(module.id)
            continue
        modules[module.id] = module.name_en
    return ThemeRules(
        aliases=dict(getattr(settings, "aliases", {}) or {}),
        stop_terms=frozenset(stop),
        modules=modules,
        max_groups=getattr(settings, "max_groups", MAX_GROUPS),
    )
