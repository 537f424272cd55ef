"""What a PR changes, read from its title: an action (the title's leading verb) and its
object as written ("Add Cohere EAGLE draft model" -> add, "Cohere EAGLE draft model").

Only the title's own words are used: a title that does not start with a known verb is a
noun phrase naming what landed ("Native W4A16 kernel for RDNA3"), action "land", rather
than a guessed verb.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
    "avoid": ("avoid", "avoids", "eliminate", "eliminates", "skip", "skips"),
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
}
_VERB_OF = {form: action for action, forms in _VERBS.items() for form in forms}
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
    action: str  # a `_VERBS` key, or "land" when the title starts with no known verb
    object: str  # what it acts on, as written (the whole title when there is no verb)


def _shorten(text: str, limit: int = MAX_OBJECT_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit - 1)
    return text[: cut if cut > limit // 2 else limit - 1].rstrip(" ,;:") + "…"


def title_change(title: str, kind: str | None = None) -> Change | None:
    """The change a title states; None for an empty title. Tags such as [Bugfix][CI] and
    conventional-commit prefixes are dropped; the object keeps its own spelling. A title
    without a verb whose kind is a bug fix ("[Bugfix] Gemma4 startup crash") fixes it."""
    rest = " ".join(parse_title(title).rest.split())
    rest = _TRAILING_REF.sub("", rest).strip()
    if not rest:
        return None
    m = _VERB_RE.match(rest)
    scope = _SCOPE.match(rest)
    if scope and not m:
        m = _VERB_RE.match(rest[scope.end() :])
    if not m:
        supports = _SUBJECT_SUPPORTS.match(rest)
        if supports:
            subject = re.sub(r"^the\s+", "", supports.group("subject"), flags=re.IGNORECASE)
            obj = f"{supports.group('object').strip()} in {subject}"
            return Change("support", _shorten(obj))
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
        support = _SUPPORT_FOR.match(obj)
        if support:
            action, obj = "support", support.group("object")
    if action == "support" and obj.lower().startswith("for "):
        obj = obj[4:]
    return Change(action, _shorten(obj.strip()))
