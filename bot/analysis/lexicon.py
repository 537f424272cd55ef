"""English lemmas and verb inflections from lemminflect's own tables (its data ships in its
wheel), looked up without importing lemminflect.

`import lemminflect` and its first lookups cost 0.32 s of CPU and 67 MB in a fresh process
(it imports numpy for its spelling-style model and builds dicts of all 120,000 rows); a
weekly digest asks about a few hundred words. The tables are sorted, so a lookup is a
binary search over their text (~50 ms to read both, 3 MB). Only what the tables do not hold, the
inflection of a verb they do not list, goes through lemminflect itself.
"""

from __future__ import annotations

import gzip
import importlib.util
from functools import lru_cache
from pathlib import Path

# Penn tags of a verb row in infl_lu: "take,verb,took,taken,taking,takes" (an empty VBN
# is the VBD form).
_VERB_TAGS = {"VBD": 0, "VBN": 1, "VBG": 2, "VBZ": 3}


def _resources() -> Path | None:
    spec = importlib.util.find_spec("lemminflect")  # finds the package without importing it
    for folder in spec.submodule_search_locations or () if spec else ():
        path = Path(folder) / "resources"
        if path.is_dir():
            return path
    return None


@lru_cache(maxsize=2)
def _table(name: str) -> str:
    """A sorted table's text ("" when the package moved its files): kept whole and searched
    in place, as lists of its lines would cost ~20 MB."""
    folder = _resources()
    path = folder / f"{name}.csv.gz" if folder else None
    if path is None or not path.exists():
        return ""
    return gzip.decompress(path.read_bytes()).decode("utf-8")


def _key(text: str, start: int) -> str:
    comma = text.find(",", start)
    return text[start : comma if comma >= 0 else len(text)]


def _rows(name: str, key: str) -> list[list[str]]:
    """The rows whose first column is `key`: a binary search over line starts."""
    text = _table(name)
    lo, hi = 0, len(text)  # line starts: keys before lo are < key, from hi on >= key
    while lo < hi:
        start = text.rfind("\n", 0, (lo + hi) // 2) + 1
        start = max(start, lo)
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if _key(text, start) < key:
            lo = end + 1
        else:
            hi = start
    out = []
    while lo < len(text) and _key(text, lo) == key:
        end = text.find("\n", lo)
        end = len(text) if end < 0 else end
        out.append(text[lo:end].split(","))
        lo = end + 1
    return out


@lru_cache(maxsize=1)
def _overrides(name: str) -> dict[str, list[list[str]]]:
    folder = _resources()
    path = folder / f"{name}.csv" if folder else None
    out: dict[str, list[list[str]]] = {}
    if path is None or not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            row = line.split(",")
            out.setdefault(row[0], []).append(row)
    return out


@lru_cache(maxsize=1 << 13)
def all_lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """lemminflect's getAllLemmas for a lower-case word: UPOS -> lemmas ("kernels" ->
    {"NOUN": ("kernel",), "VERB": ("kernel",)}); {} for a word it does not know."""
    out: dict[str, tuple[str, ...]] = {}
    for row in _rows("lemma_lu", word):
        if len(row) >= 3:
            out[row[1].upper()] = tuple(row[2].split("/"))
    for row in _overrides("lemma_overrides").get(word, []):
        if len(row) >= 3:
            out[row[1].upper()] = (row[2],)
    return out


@lru_cache(maxsize=1 << 12)
def verb_form(lemma: str, tag: str) -> str | None:
    """The verb `lemma` in Penn tag `tag` (VBD, VBN, VBG, VBZ) as lemminflect inflects it:
    "take" VBZ -> "takes", "skip" VBG -> "skipping"; lemminflect's own rules for a verb its
    table does not list; None when it knows no such form."""
    for row in _overrides("infl_overrides").get(lemma, []):
        if len(row) >= 3 and row[1] == tag:
            return row[2]
    index = _VERB_TAGS[tag]
    for row in _rows("infl_lu", lemma):
        if len(row) >= 6 and row[1] == "verb":
            form = row[2 + index] or (row[2] if tag == "VBN" else "")
            if form:
                return form.split("/")[0]
    from lemminflect import getInflection  # Lazy: numpy and its model, rarely needed

    forms = getInflection(lemma, tag)
    return forms[0] if forms else None
