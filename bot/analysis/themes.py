"""Themes: the initiatives of a window, found from the data (pure, no I/O).

A theme is a subject that is unusually frequent among this window's PRs compared with the
weeks before (the store's history): a model family ("DeepSeek V4", also written DSV4,
DSv4, [DSV4]), a component or migration ("AutoWeightsLoader", "Model Runner V2" = MRV2),
a platform push (ROCm, XPU), a numbered series ([1/N] … [4/N]) or one author's run.

Detection is generic:

1. Every PR gives *terms*: its bracket tags, the 1-3 word phrases of its title, its labels,
   its (theme-eligible) modules, and - only to reinforce terms some title already uses -
   the phrases of its description and the folder names of its files. A phrase's key is its
   words lower-cased and joined without separators, so "DeepSeek V4", "DeepSeek-V4",
   "deepseek_v4" and "DeepseekV4Attention"'s "DeepseekV4" are one key. CamelCase splits
   into words ("AutoWeightsLoader" = auto weights loader).
2. Aliases join keys: the rule set's `[themes.aliases]`, a module's id or English name
   (the text "Rust Frontend" is the rust-frontend module), and acronyms found in the data:
   a multi-word phrase's initials plus its version token ("Model Runner V2" -> mrv2,
   "DeepSeek V4" -> dsv4) when that acronym is itself written in the window.
3. Generic words never make a term alone or at a phrase's edge: built-in stop words, the
   rule set's kind tags and ignored tags, auxiliary modules, and `[themes].stop_terms`.
4. Distinctiveness (see docs/digest.md): with `n` PRs in the window of which `k` carry the
   term, and `N` PRs in the history weeks of which `K` carry it,
   ``lift = (k / n) / ((K + 0.5) / (N + 0.5))`` and the term's score is
   ``k * min(log2(1 + lift), 3)``. A term qualifies with k >= 2 and lift >= 2 (unusual
   this week) or k >= max(5, 3% of n) and lift >= 0.8 (a standing area that is heavy this
   week). Without history the lift is unknown and terms are scored by support alone.
   An author's run (>= 3 of their PRs share the term) or a numbered series ([k/N], >= 2
   PRs) qualifies a term whatever its lift.
5. Groups are chosen greedily: the best-scoring term over the PRs not yet placed becomes a
   theme, until `max_groups` themes or no qualifying term is left (lazy re-scoring; scores
   only fall as PRs are placed). Each PR then moves to its best theme: the one its strongest
   evidence names (tag > title > label > module > path > description), ties to the heavier
   theme. A group keeps at least 2 PRs, or one key PR.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

MAX_GROUPS = 8
MAX_WORDS = 3
LIFT_CAP_BITS = 3.0  # log2(1 + lift) is capped: beyond 7x a term is simply "distinctive"
MIN_SUPPORT = 2
MIN_LIFT = 1.4
STANDING_MIN = 5
STANDING_SHARE = 0.10
STANDING_LIFT = 0.8
RUN_MIN = 3  # one author's PRs sharing a term
SERIES_MIN = 2  # numbered-series PRs sharing a term
BODY_CHARS = 1200
SMOOTHING = 0.5
POWER = 1.0
NESTED = 0.8  # share of a term's PRs inside a chosen module theme that makes it part of it

# Evidence strength: which signal names a PR's best theme, and how much of the PR counts
# for a theme's weight (a PR whose title names the term counts fully, one that a module
# rule or a folder puts there counts half).
STRENGTH = {"tag": 6, "title": 5, "label": 4, "module": 3, "path": 2, "body": 1}
FACTOR = {6: 1.0, 5: 1.0, 4: 0.8, 3: 1.0, 2: 0.5, 1: 0.3}

# Words that never name a theme or start/end a phrase: English function words and the
# generic verbs and nouns of commit titles ("fix", "support", "add", "model", "kernel").
_GENERIC_TEXT = """
    reduce reduces avoid refine adapt align unify replace prevent ensure enhance supplement
    nightly dense split splits online offline own large small big high low long short full
    partial real same other both each every single failed fails failing failure broken
    a an and or the of to in on for with without from by at as into onto via vs per is are be
    was were been it its this that these those not no non only also all any some more less
    when while if else than then so but up down out over under after before between across new
    old use used uses using usage make makes made allow allows let lets enable enables enabled
    disable disabled add adds added adding remove removes removed removing delete deleted drop
    drops fix fixes fixed fixing bug bugs bugfix bugfixes hotfix issue issues error errors
    crash support supports supported supporting update updates updated updating upgrade bump
    improve improves improved improvement improvements optimize optimized optimization
    optimizations refactor refactoring refactored cleanup clean cleans misc minor nit nits
    typo typos feature features feat perf performance test tests testing tested ci doc docs
    documentation model models kernel kernels change changes changed move moved moves rename
    renamed handle handles handling check checks default defaults config configs configuration
    code file files dead unused unnecessary version versions type types case cases path paths
    run runs running implement implementation implemented introduce introduces set sets get
    gets call calls option options flag flags value values logic method methods function
    functions class classes module modules script scripts example examples readme wip rfc
    draft small simple various multiple several missing wrong incorrect correct correctly
    properly proper better faster extra first second temporary follow followup follow-up part
    related revert reverts reverted chore style format formatting lint linting log logs
    warning warnings message messages mode modes based main master branch release releases
    build builds skip skips skipped try retry can could should would will may might must do
    does did done doing has have having we our you your they them their he she his her i my me
    us one two three via etc e g ie eg x y z vllm v0 v1 torch pytorch python api apis step
    steps block blocks layer layers batch batches size sizes shape shapes token tokens request
    requests input inputs output outputs tensor tensors op ops backend backends state states
    memory time length dtype device devices env arg args param params parameter parameters
    helper helpers util utils fast slow init initialization load loading process group groups
    level migrate migrated migration linear native stage info data list lists item items key
    keys name names number numbers count counts result results work works working
"""
GENERIC_WORDS = frozenset(_GENERIC_TEXT.split())

_WORD_RE = re.compile(r"[A-Za-z0-9]+(?:\.[0-9]+)*")
# CamelCase and acronym boundaries: "AutoWeightsLoader" -> Auto Weights Loader,
# "DeepseekV4Attention" -> Deepseek V4 Attention, "ROCm" and "DSv4" stay whole.
_CAMEL_RE = re.compile(r"[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*[a-z]?[0-9]*(?![a-z])|[0-9]+[a-z]?|[A-Z]+")
_TAG_RE = re.compile(r"[\[【]([^\]】]{1,60})[\]】]")
_SERIES_RE = re.compile(r"[\[(]\s*(\d+[a-z]?)\s*/\s*(n|\d+)\s*[\])]", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_VERSION_RE = re.compile(r"^v?\d+(?:\.\d+)*[a-z]?$")
_COMMENT_RE = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_URL_RE = re.compile(r"https?://\S+")


def normalize_term(text: str) -> str:
    """The key of a written term: lower case, without spaces, '-', '_', '.', '/'."""
    return re.sub(r"[\s\-_./]+", "", text.strip().lower())


# ------------------------------------------------------------------ inputs


@dataclass(frozen=True, slots=True)
class ThemeDoc:
    """The fields of one PR that theme detection reads."""

    number: int
    title: str
    author: str | None = None
    body: str = ""
    labels: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    score: float = 0.0
    key: bool = False  # a key PR of the window (a one-PR group is allowed for it)


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
    # Modules that may be themes -> English name (auxiliary and catch-all ones left out).
    modules: Mapping[str, str] = field(default_factory=dict)
    max_groups: int = MAX_GROUPS


# ------------------------------------------------------------------ outputs


@dataclass(slots=True)
class Member:
    number: int
    reasons: list[str]  # why it joined: "tag [DSV4]", "title “DeepSeek V4”", "module rocm"
    strength: int = 0


@dataclass(slots=True)
class Theme:
    id: str  # stable slug: "deepseek-v4", "module-rocm"
    name: str  # as users write it ("DeepSeek V4"); a module's English name for module themes
    module: str | None  # module id when the theme is a module's
    named_by_module: bool  # name is the module's English name: the caller localises it
    terms: list[str]  # the written forms and signals that formed it
    support: int  # window PRs carrying the theme's term(s), before PRs went to best themes
    window_prs: int
    history_prs: int  # history PRs carrying the term(s)
    history_total: int  # all PRs in the history weeks
    history_weeks: int
    lift: float | None  # None: no history to compare with
    score: float
    weight: float
    members: list[Member]  # most important first
    history: dict[int, int]  # offset -> PRs carrying the term(s) that week
    trend: str  # new | continuing | rising | tailing | unknown
    last_week: int | None  # PRs carrying the term(s) the week right before, when held
    baseline: float | None  # mean PRs a week in the history weeks
    authors: list[tuple[str, int]]
    signals: list[str]  # "series [1/N]…[4/N] by X", "run of 4 PRs by X"

    @property
    def numbers(self) -> list[int]:
        return [m.number for m in self.members]


@dataclass(slots=True)
class ThemeResult:
    themes: list[Theme]
    history_weeks: int
    history_labels: list[str]
    candidates: int  # qualifying terms considered

    def theme_of(self, number: int) -> Theme | None:
        for theme in self.themes:
            if any(m.number == number for m in theme.members):
                return theme
        return None


# ------------------------------------------------------------------ tokenising


def _words(text: str) -> list[tuple[str, int, int, bool, bool]]:
    """(lower-case word, start, end, starts a written token, ends one) of `text`, with
    CamelCase split ("AutoWeightsLoader" -> auto weights loader)."""
    out = []
    for match in _WORD_RE.finditer(text):
        token, base = match.group(0), match.start()
        if "." in token or token.islower() or token.isupper() or token.isdigit():
            out.append((token.lower(), base, match.end(), True, True))
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
                )
            )
    return out


def _is_generic(word: str, stop: frozenset[str]) -> bool:
    return word in GENERIC_WORDS or word in stop or word.isdigit() or len(word) < 2


@lru_cache(maxsize=1 << 16)
def _phrase_table(
    text: str, stop: frozenset[str]
) -> tuple[tuple[str, str, tuple[str, ...], bool], ...]:
    """Every candidate phrase of `text` once: (key, surface, words, plain), `plain` False
    when it starts or ends with a generic word or is a bare version. Cached: the same
    titles come back every week as history."""
    words = _words(text)
    # Per word once: generic or not, holds a digit (a version inside a CamelCase token).
    generic = [_is_generic(w[0], stop) for w in words]
    digit = [_DIGIT.search(w[0]) is not None for w in words]
    out = []
    for i, (first, start, _, starts, _) in enumerate(words):
        # A phrase starts where a written token starts: "Max" of MiniMax is no term.
        if not starts:
            continue
        for j in range(i, min(i + MAX_WORDS, len(words))):
            _, _, end, _, ends = words[j]
            # A phrase does not cross punctuation other than '-', '_', '.', '/' or spaces.
            if j > i:
                gap = text[words[j - 1][2] : words[j][1]]
                if len(gap) > 2 or gap.strip(" -_./"):
                    break
            # It ends where a token ends, or at a version inside one ("DeepseekV4" of
            # DeepseekV4Attention), never inside a word ("Mini" of MiniMax).
            if not ends and not digit[j]:
                continue
            parts = tuple(w[0] for w in words[i : j + 1])
            plain = not (generic[i] or generic[j]) and not (j == i and _VERSION_RE.match(first))
            # Keys drop the dots of versions like normalize_term ("V3.2" = "v32").
            out.append(("".join(parts).replace(".", ""), text[start:end], parts, plain))
    return tuple(out)


def _phrases(
    text: str, stop: frozenset[str], keep: Mapping[str, str] | frozenset[str] = frozenset()
) -> Iterable[tuple[str, str, tuple[str, ...]]]:
    """(key, surface, words) of every 1..MAX_WORDS word phrase that does not start or end
    with a generic word (unless it is a rule set's alias, in `keep`); a single word must
    not be generic or a bare version."""
    return [(k, s, p) for k, s, p, plain in _phrase_table(text, stop) if plain or k in keep]


def _acronyms(parts: tuple[str, ...]) -> set[str]:
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
    initials = "".join(w[0] for w in letters)
    out = {initials + version}
    return {a for a in out if len(a) >= 3}


@dataclass(slots=True)
class _Evidence:
    strength: int
    reason: str
    surface: str | None = None  # the written form, for naming


def _tags(title: str) -> tuple[list[str], str]:
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
    return tags, title[pos:]


class _Vocabulary:
    """Key resolution: aliases, module names and acronyms -> one canonical key."""

    def __init__(self, rules: ThemeRules, stop: frozenset[str]) -> None:
        self.stop = stop
        self.alias: dict[str, str] = {}
        self.display: dict[str, str] = {}
        self.module_key: dict[str, str] = {}
        for module_id, name in rules.modules.items():
            if re.split(r"[-_.]", module_id)[-1] in stop:
                continue  # a module named by a generic word ("models", "cuda-kernels")
            key = f"m:{module_id}"
            for written in (module_id, name):
                norm = normalize_term(written)
                if norm and norm not in stop and norm not in GENERIC_WORDS:
                    self.alias.setdefault(norm, key)
            self.module_key[module_id] = key
        for name, variants in rules.aliases.items():
            canonical = normalize_term(name)
            target = self.alias.get(canonical, canonical)
            if not target.startswith("m:"):  # a module theme keeps its localised name
                self.display[target] = name
            for variant in variants:
                self.alias[normalize_term(variant)] = target

    def resolve(self, key: str) -> str:
        return self.alias.get(key, key)


def _title_evidence(doc: ThemeDoc, vocab: _Vocabulary) -> dict[str, _Evidence]:
    found: dict[str, _Evidence] = {}

    def put(key: str, evidence: _Evidence) -> None:
        old = found.get(key)
        if old is None or evidence.strength > old.strength:
            found[key] = evidence

    tags, rest = _tags(doc.title)
    for tag in tags:
        norm = normalize_term(tag)
        if not norm or _SERIES_RE.fullmatch(f"[{tag}]") or norm in vocab.stop:
            continue
        if norm in GENERIC_WORDS or norm.isdigit():
            continue
        put(vocab.resolve(norm), _Evidence(STRENGTH["tag"], f"tag [{tag}]", tag))
    for key, surface, _parts in _phrases(rest, vocab.stop, vocab.alias):
        put(vocab.resolve(key), _Evidence(STRENGTH["title"], f"title “{surface}”", surface))
    return found


def _weak_evidence(
    doc: ThemeDoc, vocab: _Vocabulary, known: set[str], found: dict[str, _Evidence]
) -> None:
    """Labels and modules always count; description phrases and file folders only for
    terms some title of the window already uses."""
    for label in doc.labels:
        name = label.split(":", 1)[-1].strip()
        norm = normalize_term(name)
        if norm and norm not in vocab.stop and norm not in GENERIC_WORDS:
            key = vocab.resolve(norm)
            if key not in found:
                found[key] = _Evidence(STRENGTH["label"], f"label {label}", name)
    for module_id in doc.modules:
        module_key = vocab.module_key.get(module_id)
        if module_key and module_key not in found:
            found[module_key] = _Evidence(STRENGTH["module"], f"module {module_id}")
    for path in doc.paths:
        for folder in path.split("/")[:-1]:
            key = vocab.resolve(normalize_term(folder))
            if key in known and key not in found:
                found[key] = _Evidence(STRENGTH["path"], f"path {path}")
    if doc.body:
        body = _URL_RE.sub(" ", _COMMENT_RE.sub(" ", doc.body[: BODY_CHARS * 2]))[:BODY_CHARS]
        for key, surface, _ in _phrases(body, vocab.stop, vocab.alias):
            key = vocab.resolve(key)
            if key in known and key not in found:
                found[key] = _Evidence(STRENGTH["body"], f"description “{surface}”")


def _within(numbers: Sequence[int], container: set[int]) -> bool:
    return bool(numbers) and sum(1 for x in numbers if x in container) >= NESTED * len(numbers)


def _series_of(title: str) -> bool:
    return bool(_SERIES_RE.search(title))


# ------------------------------------------------------------------ detection


def _stop_terms(rules: ThemeRules) -> frozenset[str]:
    return frozenset(normalize_term(t) for t in rules.stop_terms) | GENERIC_WORDS


def _learn_acronyms(
    docs: Iterable[ThemeDoc], vocab: _Vocabulary, window_keys: Counter[str]
) -> None:
    """Map an acronym written in the window to the long form it abbreviates (the most
    frequent one when several share it)."""
    best: dict[str, tuple[int, str]] = {}
    for doc in docs:
        tags, rest = _tags(doc.title)
        # A whole tag abbreviates too ("[Model Runner V2]" -> MRV2), generic words included.
        whole = [(normalize_term(t), t, tuple(w[0] for w in _words(t))) for t in tags]
        for key, _surface, parts in [*whole, *_phrases(rest, vocab.stop)]:
            for acronym in _acronyms(parts):
                if acronym == key or window_keys[acronym] == 0:
                    continue
                if acronym in vocab.alias:
                    continue
                count = window_keys[vocab.resolve(key)]
                if count and (acronym not in best or count > best[acronym][0]):
                    best[acronym] = (count, vocab.resolve(key))
    for acronym, (_, target) in best.items():
        vocab.alias[acronym] = target


def _name_of(key: str, surfaces: Counter[str], vocab: _Vocabulary) -> str:
    if key in vocab.display:
        return vocab.display[key]
    if not surfaces:
        return key
    # The long form over its acronyms ("DeepSeek V4" over "DSV4"), a capitalised form,
    # then the most common way it is written, then a spaced form ("DeepSeek V4" over
    # "DeepseekV4"), then more capitals (ROCm over rocm), then alphabetical.
    plain = key[2:] if key.startswith("m:") else key
    return min(
        surfaces,
        key=lambda s: (
            normalize_term(s) != plain,
            s.islower(),  # "DSA" over "dsa", "Triton" over "triton"
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


def _trend(members: int, history: dict[int, int], weeks: int) -> tuple[str, float | None]:
    if weeks == 0:
        return "unknown", None
    total = sum(history.values())
    mean = total / weeks
    if total == 0:
        return "new", 0.0
    last = history.get(1)
    if members >= 1.5 * mean and members >= mean + 2 and (last is None or members > last):
        return "rising", mean
    if members <= 0.67 * mean and (last is None or members < last):
        return "tailing", mean
    return "continuing", mean


def detect_themes(
    docs: Sequence[ThemeDoc],
    history: Sequence[HistoryWeek] = (),
    rules: ThemeRules | None = None,
) -> ThemeResult:
    """The themes of `docs` (one window) against `history` (earlier weeks, any subset)."""
    rules = rules or ThemeRules()
    stop = _stop_terms(rules)
    vocab = _Vocabulary(rules, stop)
    docs = list({d.number: d for d in docs}.values())
    by_number = {d.number: d for d in docs}

    # Pass 1: title terms of the window, acronyms learnt from them.
    raw: Counter[str] = Counter()
    for doc in docs:
        tags, rest = _tags(doc.title)
        keys = {vocab.resolve(normalize_term(t)) for t in tags}
        keys |= {vocab.resolve(k) for k, _, _ in _phrases(rest, stop, vocab.alias)}
        raw.update(keys)
    _learn_acronyms(docs, vocab, raw)

    # Pass 2: evidence per PR.
    evidence: dict[int, dict[str, _Evidence]] = {}
    known: set[str] = set()
    for doc in docs:
        found = _title_evidence(doc, vocab)
        evidence[doc.number] = found
        known.update(found)
    for doc in docs:
        _weak_evidence(doc, vocab, known, evidence[doc.number])

    carriers: dict[str, list[int]] = defaultdict(list)
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    for number, found in evidence.items():
        for key, ev in found.items():
            carriers[key].append(number)
            if ev.surface:
                surfaces[key][ev.surface] += 1

    # History: PRs per term per week (same extraction, titles/labels/modules only).
    hist_weeks = [w for w in history if w.docs]
    hist_counts: dict[int, Counter[str]] = {}
    hist_total = 0
    for week in hist_weeks:
        counts: Counter[str] = Counter()
        for doc in week.docs:
            # The same signals as this window's PRs, or the baseline would be unfair to
            # terms that folders, labels or descriptions carry ("patch/" in every path).
            found = _title_evidence(doc, vocab)
            _weak_evidence(doc, vocab, known, found)
            counts.update(found.keys() & carriers.keys())
        hist_counts[week.offset] = counts
        hist_total += len(week.docs)
    hist_any: Counter[str] = Counter()
    for counts in hist_counts.values():
        hist_any.update(counts)

    n = len(docs)
    with_history = bool(hist_weeks) and hist_total > 0

    def lift_of(key: str) -> float | None:
        if not with_history or n == 0:
            return None
        rate = len(carriers[key]) / n
        base = (hist_any[key] + SMOOTHING) / (hist_total + SMOOTHING)
        return rate / base

    def bits(lift: float | None) -> float:
        return 1.0 if lift is None else min(math.log2(1 + lift), LIFT_CAP_BITS)

    # Author runs and numbered series qualify a term whatever its lift.
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

    standing_min = max(STANDING_MIN, math.ceil(STANDING_SHARE * n))
    qualifying: dict[str, float | None] = {}
    for key, numbers in carriers.items():
        k = len(numbers)
        if k < 1:
            continue
        lift = lift_of(key)
        # Support that names the term (tag, title, label, module): folders and
        # descriptions only add members to a term some PRs name, never make one.
        named = [x for x in numbers if evidence[x][key].strength >= STRENGTH["module"]]
        one_key = len(named) == 1 and by_number[named[0]].key
        if len(named) < MIN_SUPPORT and not one_key:
            continue
        run = key in signals and not key.startswith("m:") and (lift is None or lift >= 1.0)
        standing = len(named) >= standing_min and (lift is None or lift >= STANDING_LIFT)
        if run or lift is None or lift >= MIN_LIFT or standing:
            qualifying[key] = lift

    def mass(key: str, numbers: Iterable[int]) -> float:
        # Importance (score 0-10 adds up to 100%) times how directly the PR names the term.
        return sum((1.0 + by_number[x].score) * FACTOR[evidence[x][key].strength] for x in numbers)

    # Greedy, lazily re-scored selection. A PR placed in a theme is still open to a term
    # that names it more directly (a tag beats a module match), so a broad module chosen
    # early does not keep the PRs of a sharper theme chosen later.
    home: dict[int, tuple[int, int, str]] = {}  # number -> (strength, -rank, key)

    def open_to(key: str) -> list[int]:
        out = []
        for x in carriers[key]:
            current = home.get(x)
            if current is None or evidence[x][key].strength > current[0]:
                out.append(x)
        return out

    def gain(key: str) -> float:
        free = open_to(key)
        if len(free) < MIN_SUPPORT and not any(by_number[x].key for x in free):
            return 0.0
        value: float = mass(key, free) * bits(qualifying[key]) ** POWER
        return round(value, 9)

    heap = [(-gain(k), k) for k in qualifying]
    heapq.heapify(heap)
    chosen: list[str] = []

    def groups_now() -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for number, (_, _, key) in home.items():
            out[key].append(number)
        return out

    def proper(key: str) -> bool:
        # A one-PR theme must be a name (a module, a tag, or a word written with a capital
        # or a digit: "Mamba", "Gemma4"), never a common word ("decode").
        if key.startswith("m:"):
            return True
        return any(
            ev.strength == STRENGTH["tag"]
            or any(c.isupper() or c.isdigit() for c in (ev.surface or ""))
            for x in carriers[key]
            for ev in (evidence[x][key],)
        )

    def viable_group(key: str, numbers: list[int]) -> bool:
        return len(numbers) >= MIN_SUPPORT or (proper(key) and viable(numbers))

    def viable(numbers: list[int]) -> bool:
        return len(numbers) >= MIN_SUPPORT or any(by_number[x].key for x in numbers)

    rounds = 0
    merged: dict[str, list[str]] = defaultdict(list)
    home_rank: dict[str, int] = {}
    carriers_set = {k: set(v) for k, v in carriers.items() if k.startswith("m:")}
    while heap and rounds < 4 * rules.max_groups:
        if sum(1 for k, v in groups_now().items() if viable_group(k, v)) >= rules.max_groups:
            break
        neg, key = heapq.heappop(heap)
        current = gain(key)
        if current <= 0:
            continue
        if current < -neg - 1e-9:
            heapq.heappush(heap, (-current, key))
            continue
        rounds += 1
        free = open_to(key)
        # A term whose PRs nearly all sit in a module already chosen is part of that theme
        # ("kv_offload" inside KV transfer): it joins it rather than taking a group.
        parent = None
        if not key.startswith("m:"):
            inside = [k for k in chosen if k.startswith("m:") and _within(free, carriers_set[k])]
            parent = inside[0] if inside else None
        if parent is not None:
            merged[parent].append(key)
            for x in free:
                home[x] = (evidence[x][key].strength, home_rank[parent], parent)
                evidence[x].setdefault(parent, evidence[x][key])
            continue
        rank = len(chosen)
        chosen.append(key)
        home_rank[key] = -rank
        for x in free:
            home[x] = (evidence[x][key].strength, -rank, key)
    final = {k: v for k, v in groups_now().items() if viable_group(k, v)}
    # More than max_groups viable groups can remain when a late pick split none: keep the
    # heaviest.
    if len(final) > rules.max_groups:
        heaviest = sorted(final, key=lambda k: -mass(k, final[k]) * bits(qualifying[k]) ** POWER)
        final = {k: final[k] for k in heaviest[: rules.max_groups]}

    themes: list[Theme] = []
    for key in chosen:
        if key not in final:
            continue
        numbers = final[key]
        numbers.sort(key=lambda x: (-by_number[x].score, x))
        lift = qualifying[key]
        module = key[2:] if key.startswith("m:") else None
        written = surfaces.get(key, Counter())
        named_by_module = False
        if module is not None:
            # A module theme is named as users write it when a tag or title form covers
            # at least half of its PRs ("ROCm" rather than "ROCm / AMD").
            # A module theme is named as users write it when a tag or title form other
            # than the module's own name covers at least half of its PRs ("ROCm" rather
            # than "ROCm / AMD"); otherwise by the module's (localised) name.
            own = {normalize_term(module), normalize_term(rules.modules.get(module, ""))}
            module_name = normalize_term(rules.modules.get(module, module))
            written = Counter({w: c for w, c in written.items() if normalize_term(w) in own})
            covered = sum(
                1 for x in numbers if normalize_term(evidence[x][key].surface or "") in own
            )
            name = _name_of(key, written, vocab) if written else ""
            if not name or normalize_term(name) == module_name or covered * 2 < len(numbers):
                name, named_by_module = rules.modules.get(module, module), True
        else:
            name = _name_of(key, written, vocab)
        hist = {offset: counts[key] for offset, counts in hist_counts.items()}
        trend, baseline = _trend(len(numbers), hist, len(hist_weeks))
        authors = Counter(a for x in numbers if (a := by_number[x].author))
        terms = [f"{s} ({c})" for s, c in written.most_common(6)]
        for sub in merged.get(key, []):
            terms.append(f"{_name_of(sub, surfaces.get(sub, Counter()), vocab)} (nested term)")
        if module is not None:
            terms.append(f"module {module}")
        themes.append(
            Theme(
                id=_slug(key, name),
                name=name,
                module=module,
                named_by_module=named_by_module,
                terms=terms,
                support=len(carriers[key]),
                window_prs=n,
                history_prs=hist_any[key],
                history_total=hist_total,
                history_weeks=len(hist_weeks),
                lift=None if lift is None else round(lift, 2),
                score=round(len(carriers[key]) * bits(lift), 2),
                weight=round(mass(key, numbers) * bits(lift) ** POWER, 2),
                members=[
                    Member(x, [evidence[x][key].reason], evidence[x][key].strength) for x in numbers
                ],
                history=hist,
                trend=trend,
                last_week=hist.get(1),
                baseline=None if baseline is None else round(baseline, 2),
                authors=sorted(authors.items(), key=lambda kv: (-kv[1], kv[0].lower())),
                signals=signals.get(key, []),
            )
        )
    themes.sort(key=lambda t: (-t.weight, t.id))
    seen: set[str] = set()
    for theme in themes:  # slugs are ids: keep them unique
        base, i = theme.id, 2
        while theme.id in seen:
            theme.id, i = f"{base}-{i}", i + 1
        seen.add(theme.id)
    return ThemeResult(
        themes=themes,
        history_weeks=len(hist_weeks),
        history_labels=[w.label for w in sorted(hist_weeks, key=lambda w: w.offset)],
        candidates=len(qualifying),
    )


def rules_from(ruleset: object, not_themes: Iterable[str] = ()) -> ThemeRules:
    """ThemeRules of a rule set: its `[themes]` table, with its kind tags, ignored tags and
    the modules in `not_themes` (auxiliary, catch-all) as stop terms."""
    settings = getattr(ruleset, "themes", None)
    excluded = set(not_themes)
    stop: set[str] = set(getattr(settings, "stop_terms", ()) or ())
    stop.update(getattr(ruleset, "ignore_tags", ()) or ())
    kinds = getattr(ruleset, "kinds", None)
    for tags in getattr(kinds, "tags", {}).values():
        stop.update(tags)
    modules = {}
    for module in getattr(ruleset, "modules", ()) or ():
        # A catch-all folder module ("vllm_ascend/") is where everything lives, not a subject.
        if module.id in excluded or module.auxiliary or module.catch_all:
            stop.add(module.id)
            continue
        modules[module.id] = module.name_en
    return ThemeRules(
        aliases=dict(getattr(settings, "aliases", {}) or {}),
        stop_terms=frozenset(stop),
        modules=modules,
        max_groups=getattr(settings, "max_groups", MAX_GROUPS),
    )
