"""What a PR changes, read from its title: an action (the title's leading verb) and its
object as written ("Add Cohere EAGLE draft model" -> add, "Cohere EAGLE draft model").

Only the title's own words are used: a title that does not start with a known verb is a
noun phrase naming what landed ("Native W4A16 kernel for RDNA3"), action "land", rather
than a guessed verb.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from .lexicon import all_lemmas, verb_form
from .regex import lazy
from .titles import parse_title

# Written forms of each action's verb. The action ids are catalogue keys
# (`change.<action>` in bot/core/i18n.py), so every language words them itself.
_VERBS: dict[str, tuple[str, ...]] = {
    "add": ("add", "adds", "added", "adding", "new"),
    "support": ("support", "supports", "supported", "supporting"),
    "fix": (
        "fix",
        "fixes",
        "fixed",
        "fixing",
        "fixup",
        "hotfix",
        "bugfix",
        "correct",
        "corrects",
        "resolve",
        "resolves",
    ),
    "remove": ("remove", "removes", "removed", "removing", "drop", "drops", "dropped"),
    "delete": ("delete", "deletes", "deleted", "deleting"),
    "refactor": ("refactor", "refactors", "refactored", "refactoring", "restructure"),
    "migrate": ("migrate", "migrates", "migrated", "migrating"),
    "optimize": ("optimize", "optimizes", "optimized", "optimise", "optimises", "optimised"),
    "enable": ("enable", "enables", "enabled", "enabling"),
    "disable": ("disable", "disables", "disabled", "disabling"),
    "implement": ("implement", "implements", "implemented", "implementing"),
    "introduce": ("introduce", "introduces", "introduced", "introducing"),
    "replace": ("replace", "replaces", "replaced", "replacing"),
    "rename": ("rename", "renames", "renamed", "renaming"),
    "move": ("move", "moves", "moved", "moving", "relocate", "relocates"),
    "update": ("update", "updates", "updated", "updating", "refresh"),
    "upgrade": ("upgrade", "upgrades", "upgraded", "bump", "bumps", "bumped"),
    "deprecate": ("deprecate", "deprecates", "deprecated", "deprecating"),
    "clean": ("cleanup", "clean up", "cleans up", "cleaned up", "clean"),
    "unify": ("unify", "unifies", "unified", "consolidate", "consolidates"),
    "simplify": ("simplify", "simplifies", "simplified"),
    "speed": ("speed up", "speeds up", "accelerate", "accelerates"),
    "avoid": ("avoid", "avoids", "eliminate", "eliminates"),
    "skip": ("skip", "skips", "skipped", "skipping"),
    "revert": ("revert", "reverts", "reverted"),
    "reland": ("reland", "re-land", "relands", "re-lands", "reapply", "re-apply"),
    "port": ("port", "ports", "ported"),
    "extend": ("extend", "extends", "extended", "expand", "expands"),
    "apply": ("apply", "applies", "applied"),
    "route": ("route", "routes", "routed"),
    "handle": ("handle", "handles", "handled", "honor", "honors", "respect", "respects"),
    "reduce": ("reduce", "reduces", "reduced"),
    "prevent": ("prevent", "prevents", "prevented", "guard against"),
    "set": ("set", "sets"),
    "increase": ("increase", "increases", "increased", "raise", "raises"),
    "extract": ("extract", "extracts", "decouple", "decouples", "separate", "separates"),
    "improve": ("improve", "improves", "improved", "enhance", "enhances"),
    "allow": ("allow", "allows", "allowed"),
    "expose": ("expose", "exposes", "exposed"),
    "use": ("use", "uses", "switch to", "switches to", "adopt", "adopts"),
    "split": ("split", "splits"),
    "pin": ("pin", "pins", "pinned"),
    "integrate": ("integrate", "integrates", "integrated"),
    "keep": ("keep", "keeps", "preserve", "preserves", "retain", "retains"),
    "reuse": ("reuse", "reuses"),
    "exclude": ("exclude", "excludes", "excluded"),
    "install": ("install", "installs"),
    "convert": ("convert", "converts", "converted"),
    "fuse": ("fuse", "fuses", "fused", "fusing"),
    "reorganize": ("reorganize", "reorganizes", "reorganized", "reorganizing"),
    "rework": ("rework", "reworks", "reworked", "rewrite", "rewrites", "rewritten"),
    "guard": ("guard", "guards", "guarded"),
    "cache": ("cache", "caches", "cached"),
    "sync": ("sync", "syncs", "synced", "synchronize", "synchronizes"),
    "tune": ("tune", "tunes", "tuned", "autotune"),
    "align": ("align", "aligns", "aligned"),
    "register": ("register", "registers", "registered"),
    "validate": ("validate", "validates", "validated", "check", "checks", "verify", "verifies"),
    "restore": ("restore", "restores", "restored"),
    "initialize": ("initialize", "initializes", "initialized", "init"),
    "adjust": ("adjust", "adjusts", "adjusted", "change", "changes", "modify", "modifies", "tweak"),
}
_VERB_OF = {form: action for action, forms in _VERBS.items() for form in forms}
# British spellings read as the American forms the table lists ("Optimise", "Reorganised").
_BRITISH = lazy(r"(?<=[a-z]{3})is(e|es|ed|ing)$|(?<=[a-z]{3})isation$", re.IGNORECASE)
# Any other title-initial word is a verb when lemminflect's lexicon (English lemmas and
# inflections, its data in its wheel; read by bot.analysis.lexicon) reads it as a verb's
# base form. A word that is also a noun or an
# adjective ("Model", "Test", "Pad") is a verb when English writes its past form about as
# often as the word (wordfreq): "padded", "tested" are common, "modeled" is 1.6 Zipf rarer.
# "Correctly identify X", "Automatically detect Y": the adverb before the verb.
_ADVERB = lazy(r"^[A-Za-z]{4,}ly\s+(?=[A-Za-z])")
_PAST_MIN_ZIPF = 3.0  # the past form is a word of wordfreq's small list
_PAST_MAX_GAP = 1.5  # ... at most this much rarer than the word
_GENERIC_WORD = lazy(r"^(?P<verb>[A-Za-z][a-z]{2,})\b[\s:,-]+(?P<object>\S.*)$")
_VERB_RE = lazy(
    r"^(?P<verb>"
    + "|".join(re.escape(f) for f in sorted(_VERB_OF, key=len, reverse=True)).replace(r"\ ", r"\s+")
    + r")\b[\s:,-]*(?P<object>.*)$",
    re.IGNORECASE,
)
# "EPLB support W8A8", "The DeepSeek V4 model supports kv pool adaptation": the subject
# gains support for the object.
_SUBJECT_SUPPORTS = lazy(r"^(?P<subject>[^:]{2,40}?)\s+supports?\s+(?P<object>.+)$", re.IGNORECASE)
# "Add support for X" / "Support for X": the action is support, its object X.
_SUPPORT_FOR = lazy(r"^(?:the\s+)?support\s+(?:for\s+)?(?P<object>.+)$", re.IGNORECASE)
# "Add model support for granite speech" / "Add kernel support for X": support for X.
_NOUN_SUPPORT_FOR = lazy(r"^(?:[\w-]+\s+){1,2}support\s+for\s+(?P<object>.+)$", re.IGNORECASE)
_AND_VERB = lazy(
    r"^(?:and|&)\s+(?:"
    + "|".join(re.escape(f) for f in sorted(_VERB_OF, key=len, reverse=True)).replace(r"\ ", r"\s+")
    + r"|stabili[sz]e|clean|tidy)\b\s*(?P<object>.*)$",
    re.IGNORECASE,
)
# A scope before the change: "(dsa, cp): Add …", "IndexCache: reuse …", "ascend_config: use …".
_SCOPE = lazy(r"^(?:\([^)]{1,40}\)\s*:?|[\w./-]{1,30}:)\s*")
# What a verb-less bug-fix title names as broken ("Gemma4 startup crash").
_BUG_NOUN = lazy(
    r"\b(?:crash(?:es)?|errors?|bugs?|issues?|failures?|fails?|hangs?|mismatch(?:es)?|"
    r"regressions?|NaNs?|leaks?|exceptions?|\w+Error|IMA|deadlocks?|broken|incorrect|wrong)\b",
    re.IGNORECASE,
)
_TRAILING_REF = lazy(r"\s*\((?:#\d+|from #\d+)\)\s*$|\s*[.;:,]+\s*$")
MAX_OBJECT_CHARS = 90


@dataclass(frozen=True, slots=True)
class Change:
    action: str  # a `_VERBS` key, "verb" (see `verb`), or "land" when there is no verb
    object: str  # what it acts on, as written (the whole title when there is no verb)
    verb: str = ""  # for action "verb": the title's own verb, lower case ("accept")
    # The whole title as written, tags and "(#N)" dropped: what a sentence quotes when it
    # cannot word the object (a Chinese digest, a title that is no verb phrase).
    title: str = ""


def _shorten(text: str, limit: int = MAX_OBJECT_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit - 1)
    return text[: cut if cut > limit // 2 else limit - 1].rstrip(" ,;:") + "…"


def lemmas(word: str, pos: str) -> tuple[str, ...]:
    """The word's lemmas as part of speech `pos` (UPOS: "NOUN", "VERB"): "kernels" ->
    ("kernel",); () when lemminflect knows none."""
    return all_lemmas(word.lower()).get(pos, ())


def inflect(verb: str, tag: str) -> str:
    """The verb in Penn tag `tag` (VBZ "accepts", VBG "skipping", VBD "padded"), by
    lemminflect; the verb as given when it knows no such form."""
    return verb_form(verb.lower(), tag) or verb


@lru_cache(maxsize=1 << 12)
def is_verb(word: str) -> bool:
    """A base-form English verb (lemminflect); one that is also a noun or an adjective only
    when its past form is common and at most _PAST_MAX_GAP Zipf rarer than the word."""
    from .themes import zipf  # Lazy: themes.py (its word list) only for a title's unknown verb

    word = word.lower()
    known = all_lemmas(word)
    if word not in known.get("VERB", ()):
        return False
    if not known.keys() & {"NOUN", "ADJ", "ADV", "PROPN"}:
        return True
    past = zipf(inflect(word, "VBD"))
    return past >= _PAST_MIN_ZIPF and past >= zipf(word) - _PAST_MAX_GAP


def starts_a_change(word: str) -> bool:
    """A word that opens a second change inside an object ("X and improve Y")."""
    word = _americanize(word).lower()
    return word in _VERB_OF or is_verb(word)


def _generic(rest: str) -> Change | None:
    m = _GENERIC_WORD.match(rest)
    if not m or not is_verb(m.group("verb")):
        return None
    return Change("verb", _shorten(m.group("object").strip()), m.group("verb").lower())


_ARTICLE = lazy(r"^(?:the|a|an|some|more|minor|small)\s+", re.IGNORECASE)


def says_little(change: Change) -> bool:
    """A change whose object is one plain word ("[Performance] Reduce sampling" -> "sampling",
    "Fix typo"): too little to name a group's work, so no highlight leads with it."""
    words = _ARTICLE.sub("", change.object).split()
    return len(words) <= 1 and (not words or (words[0].isalpha() and words[0][1:].islower()))


def third_person(verb: str) -> str:
    """ "accept" -> "accepts", "patch" -> "patches", "copy" -> "copies", "make" -> "makes"."""
    return inflect(verb, "VBZ")


def _americanize(rest: str) -> str:
    head, _, tail = rest.partition(" ")
    fixed = _BRITISH.sub(lambda m: "iz" + (m.group(1) or "ation"), head)
    return f"{fixed} {tail}" if tail else fixed


def title_change(title: str, kind: str | None = None) -> Change | None:
    """The change a title states; None for an empty title. Tags such as [Bugfix][CI] and
    conventional-commit prefixes are dropped; the object keeps its own spelling. A title
    without a verb whose kind is a bug fix ("[Bugfix] Gemma4 startup crash") fixes it."""
    rest = " ".join(parse_title(title).rest.split())
    rest = _TRAILING_REF.sub("", rest).strip()
    if not rest:
        return None
    return replace(_change_of(rest, kind), title=rest)


def _change_of(rest: str, kind: str | None) -> Change:
    adverb = _ADVERB.match(rest)
    if adverb and starts_a_change(rest[adverb.end() :].split(" ", 1)[0]):
        rest = rest[adverb.end() :]
    m = _VERB_RE.match(_americanize(rest))
    scope = _SCOPE.match(rest)
    if scope and not m:
        m = _VERB_RE.match(_americanize(rest[scope.end() :]))
    if not m:
        supports = _SUBJECT_SUPPORTS.match(rest)
        if supports:
            subject = re.sub(r"^the\s+", "", supports.group("subject"), flags=re.IGNORECASE)
            obj = f"{supports.group('object').strip()} in {subject}"
            return Change("support", _shorten(obj))
    if not m:
        generic = _generic(rest)
        if generic:
            return generic
    if not m or not m.group("object").strip():
        fixed = kind == "bugfix" and _BUG_NOUN.search(rest)
        return Change("fix" if fixed else "land", _shorten(rest))
    verb = re.sub(r"\s+", " ", m.group("verb").lower())
    action = _VERB_OF[verb]
    obj = m.group("object").strip()
    # "Fix and stabilize X": the first verb is the action, the object follows the second.
    second = _AND_VERB.match(obj)
    if second:
        obj = second.group("object").strip() or obj
    if action in {"add", "enable", "implement", "introduce"}:
        support = _SUPPORT_FOR.match(obj) or _NOUN_SUPPORT_FOR.match(obj)
        if support:
            action, obj = "support", support.group("object")
    if action == "support" and obj.lower().startswith("for "):
        obj = obj[4:]
    return Change(action, _shorten(obj.strip()))
