"""Whether a written word can name a theme: common English, misspellings and clippings by
the `wordfreq` English list, and identifiers (pure, no I/O; the list is read once)."""

from __future__ import annotations

import gzip
import importlib.util
import math
import re
from collections import defaultdict
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

# "Common English": Zipf frequency >= 3.0 (once per million words: "install", "router",
# "cache", "embedding" ...). A capitalised rare word one edit away from a word of Zipf >= 4
# is a misspelling ("Spplement"), checked from MISSPELLING_MIN letters (short names such as
# "Qwen" are a letter away from too many words).
COMMON_ZIPF = 3.0
MISSPELLING_ZIPF = 4.0
MISSPELLING_MIN = 6
# A clipped common word ("Config", "Perf") starts a word of Zipf >= 3.5 at least 3 letters
# longer; checked from 4 letters ("Phi" starts "philosophy").
CLIPPED_ZIPF = 3.5
CLIPPED_MIN = 4
_DIGIT = re.compile(r"\d")
_VERSION_RE = re.compile(r"^v?\d+(?:\.\d+)*[a-z]?$")
_TOKEN_SPLIT = re.compile(r"[\s\-./:,;()\[\]]+")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@lru_cache(maxsize=1)
def _zipf_table() -> Mapping[str, float]:
    """English words of Zipf >= ~3 with their Zipf frequency: wordfreq's "small" list.

    Read from the package's data file rather than through `import wordfreq`, which costs
    0.4 s in a fresh process (langcodes, the large list); the small list covers every word
    COMMON_ZIPF and MISSPELLING_ZIPF ask about. Falls back to wordfreq's own API."""
    spec = importlib.util.find_spec("wordfreq")
    for folder in spec.submodule_search_locations or () if spec else ():
        path = Path(folder) / "data" / "small_en.msgpack.gz"
        if not path.exists():
            continue
        import msgpack  # Lazy: only when themes are detected (a wordfreq dependency)

        data = msgpack.unpackb(gzip.decompress(path.read_bytes()), raw=False)
        if data and data[0] == {"format": "cB", "version": 1}:
            # Bucket i holds the words of frequency 10^(-i/100): Zipf = 9 - i/100.
            return {w: 9 - i / 100 for i, bucket in enumerate(data[1:]) for w in bucket}
    from wordfreq import get_frequency_dict  # Lazy: fallback when the data file moved

    return {
        w: math.log10(f) + 9 for w, f in get_frequency_dict("en", wordlist="small").items() if f > 0
    }


def zipf(word: str) -> float:
    """The word's Zipf frequency in English (0 when it is rarer than the small list)."""
    return _zipf_table().get(word.lower(), 0.0)


def is_common(word: str) -> bool:
    """A common English word (Zipf >= COMMON_ZIPF): never a theme's name alone."""
    return zipf(word) >= COMMON_ZIPF


@lru_cache(maxsize=1 << 14)
def is_misspelling(word: str) -> bool:
    """A rare word one edit (deletion, insertion, substitution, swap) away from a frequent
    one: "spplement" (supplement), "quantiztion"."""
    word = word.lower()
    if len(word) < MISSPELLING_MIN or not word.isalpha() or is_common(word):
        return False
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    edits = {a + b[1:] for a, b in splits if b}
    edits |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    edits |= {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    edits |= {a + c + b for a, b in splits for c in _LETTERS}
    edits.discard(word)
    # One set intersection in C instead of a lookup per edit (~400 of them a word).
    return not _frequent().isdisjoint(edits)


@lru_cache(maxsize=1)
def _frequent() -> frozenset[str]:
    """Words of Zipf >= MISSPELLING_ZIPF: what a misspelling is one edit away from."""
    return frozenset(w for w, z in _zipf_table().items() if z >= MISSPELLING_ZIPF)


def _identifier(token: str) -> bool:
    """A written token that is a name whatever English says: a digit ("W4A8", "V4"), an
    underscore ("split_group"), inner capitals ("DeepSeek", "ROCm", "XPU", "MoE")."""
    return bool(
        _DIGIT.search(token)
        or "_" in token
        or (len(token) >= 2 and any(c.isupper() for c in token[1:]))
    )


@lru_cache(maxsize=1 << 14)
def is_clipped(word: str) -> bool:
    """A rare word that is the start of a common longer word: a clipping ("config" of
    configuration, "perf" of performance, "param" of parameter), not a name."""
    word = word.lower()
    if len(word) < CLIPPED_MIN or not word.isalpha() or is_common(word):
        return False
    return any(
        w.startswith(word) and len(w) >= len(word) + 3
        for w in _frequent_by_start().get(word[:2], ())
    )


@lru_cache(maxsize=1)
def _frequent_by_start() -> Mapping[str, tuple[str, ...]]:
    """Words of Zipf >= CLIPPED_ZIPF by their first two letters (for clippings)."""
    out: dict[str, list[str]] = defaultdict(list)
    for w, z in _zipf_table().items():
        if z >= CLIPPED_ZIPF and len(w) > CLIPPED_MIN:
            out[w[:2]].append(w)
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=1 << 14)
def is_name(written: str) -> bool:
    """Whether a written term can name a theme: one of its words is an identifier, or a
    capitalised word that is neither common English, a misspelling of it nor a clipping
    ("Mooncake", "Triton"). "install", "Router", "quant", "Config" and "Spplement" are not
    names."""
    for token in _TOKEN_SPLIT.split(written):
        if not token:
            continue
        if _identifier(token) and not _VERSION_RE.match(token.lower()):
            return True
        if (
            token[0].isupper()
            and token[1:].islower()
            and len(token) >= 3
            and not is_common(token)
            and not is_misspelling(token)
            and not is_clipped(token)
        ):
            return True
    return False
