"""A title's object in Chinese (issue 33: "Chinese written as Chinese").

English appears in a Chinese digest only as a bare identifier (a model, op, flag or file
name: "DeepSeekV2", "W4A8", "split_group", "dsa.py") or as a PR's whole title in quotes.
So an object is worded from the catalogue's terms (bot/core/messages/terms.py) with its
identifiers kept bare, "Cohere EAGLE draft model" -> "Cohere EAGLE 草稿模型", and is
`None` when any other English word is left: the caller then quotes the whole title instead
of half translating it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.analysis.changes import lemmas, starts_a_change
from bot.analysis.theme_words import is_clipped, is_common, is_misspelling
from bot.core import i18n

# Where a title's object stops naming the thing and starts saying where, why or how
# ("attention sink support | to AITer flash attention backend", "Native W4A16 kernel | —
# fp16"): the Chinese keeps the head.
_CUT = re.compile(
    r"\s+(?:due\s+to|because\s+of|caused\s+by|for|to|in|on|with|from|by|via|when|if|using|so|"
    r"that|because|instead|at|into|during|after|before|without|across|under|per|through|as|"
    r"where|which|whose|while|between)\s+|\s+[—–-]+\s+|\s*[(\[]|"
    r"[;:.]\s|\.{3}|…",
    re.IGNORECASE,
)
# "Upgrade CANN to 9.0.0": the version it moves to is part of the news ("升级 CANN 至 9.0.0").
_TO_VERSION = re.compile(r"\s+to\s+(?P<version>v?\d[\w.+-]*)(?=[\s,]|$)", re.IGNORECASE)
_VERSION_MARK = "\u2192"  # stands for "to <version>" until the words are looked up
_AND_WORD = re.compile(r"\s+(?:and|&)\s+([A-Za-z]+)\b")
_LEADING = re.compile(r"^(?:for|to|in|on|with|the|a|an)\s+", re.IGNORECASE)
_AND = re.compile(r",?\s+(?:and|&)\s+|\s*,\s+")
_OF = re.compile(r"\s+of\s+(?:the\s+)?", re.IGNORECASE)
_VERSION = re.compile(r"^v?\d+(?:\.\d+)*[a-z0-9.+-]*$", re.IGNORECASE)
_BASED = re.compile(r"^(.+)-based$", re.IGNORECASE)
_POS = ("NOUN", "VERB", "ADJ", "ADV")
_ARTICLES = frozenset({"the", "a", "an"})
_STRIP = "\"'“”‘’,;:.!?"
_CJK = re.compile(r"[\u3400-\u9fff]")
LIST_ITEMS = 2  # a longer list of objects names its first two, then 等 ("and others")
MAX_WORDS = 7  # a longer head is no name of a thing: it is quoted as the title


def identifier(token: str) -> bool:
    """A written name kept bare in Chinese: a digit, an underscore, a dot or slash inside,
    inner capitals, an acronym, or code in backticks ("W4A8", "split_group", "dsa.py",
    "DeepSeek", "CANN", "`--enforce-eager`")."""
    return bool(
        (token.startswith("`") and token.endswith("`") and len(token) > 2)
        or re.search(r"\d|_|\w[./]\w", token)
        or (len(token) >= 2 and any(c.isupper() for c in token[1:]))
    )


def _name(token: str) -> bool:
    """A word that is no English word but a name: "Cohere", "Mooncake", "flashinfer";
    never a misspelling ("compatability") or a clipping ("perf") of an English word, nor a
    word an English dictionary (lemminflect) knows as a noun or adjective ("Kernels")."""
    if not token.isalpha() or is_common(token) or is_misspelling(token) or is_clipped(token):
        return False
    known = _POS if token[0].islower() else ("NOUN", "ADJ")
    return not any(lemmas(token, pos) for pos in known)


@lru_cache(maxsize=1 << 12)
def term(word: str) -> str | None:
    """The catalogue's Chinese for an English word, through its noun lemma for a plural
    ("kernels" -> 内核); None when it has none."""
    lower = word.lower()
    for form in (lower, *lemmas(lower, "NOUN")):
        msg_id = f"term.{form}"
        if msg_id in i18n.MESSAGES:
            return i18n.t("zh", msg_id)
    return None


def _word(token: str) -> str | None:
    token = token.rstrip(",;:.!?")
    if token.startswith(_VERSION_MARK):
        return join(["至", token[1:]])
    if identifier(token):
        return token  # as written, quotes inside included ('tool_choice="none"')
    if token in {"+", "/", "×"}:
        return token  # "async scheduling + PP": a symbol reads the same in Chinese
    token = token.strip(_STRIP)
    if not token:
        return ""
    if identifier(token):
        return token
    found = term(token)
    if found is not None:
        return found
    based = _BASED.match(token)
    if based:  # "Triton-based": "基于 Triton 的"
        on = _word(based.group(1))
        return None if on is None else join(["基于", on, "的"])
    if "-" in token:
        # "multi-head": every piece worded; "triton-ascend", "LFM2-ColBERT": a name.
        pieces = token.split("-")
        if any(identifier(p) or _name(p) for p in pieces if p):
            return token
        worded = [_word(p) for p in pieces]
        if all(worded):
            return join([w for w in worded if w])
    return token if _name(token) else None


def join(words: list[str]) -> str:
    """Chinese words run together; a Latin word keeps a space on each side."""
    out = ""
    for word in words:
        if out and not (_CJK.search(out[-1]) and _CJK.search(word[0])):
            out += " "
        out += word
    return out


def _phrase(text: str) -> str | None:
    """One noun phrase in Chinese ("recompilation of X" -> "X 的重新编译"); None when a
    word has no Chinese."""
    of = _OF.split(text, maxsplit=1)
    if len(of) == 2:
        owner, owned = _phrase(of[1]), _phrase(of[0])
        return None if owner is None or owned is None else join([owner, "的" + owned])
    words = []
    for token in text.split():
        if token.lower() in _ARTICLES:
            continue
        word = _word(token)
        if word is None:
            return None
        if word:
            words.append(word)
    return join(words) or None


def _names(head: str) -> bool:
    words = head.split()
    return len(words) >= 2 or any(identifier(w) or _name(w) for w in words)


def zh_object(text: str) -> str | None:
    """A title's object in Chinese: its head noun phrase ("the Tree Attention backend for X"
    -> "Tree Attention 后端"), a list joined with 与 or named two and 等, the version an
    upgrade moves to; None when a word of it has no Chinese (the caller quotes the title)."""
    text = _LEADING.sub("", text.strip())
    # "wheel build and Replace hardcoded …": a second change starts at "and <verb>".
    second = next((m for m in _AND_WORD.finditer(text) if starts_a_change(m.group(1))), None)
    text = text[: second.start()] if second else text
    text = _TO_VERSION.sub(lambda m: f" {_VERSION_MARK}{m.group('version').rstrip('.')}", text)
    # The first cut whose head still names something: "mechanism | to configure …" does not.
    head = next(
        (text[: c.start()].strip() for c in _CUT.finditer(text) if _names(text[: c.start()])),
        text,
    )
    parts = [p for p in _AND.split(head) if p.strip()]
    if not parts or any(len(p.split()) > MAX_WORDS for p in parts[:LIST_ITEMS]):
        return None
    worded = [_phrase(p) for p in parts[:LIST_ITEMS]]
    if not worded or any(w is None for w in worded):
        return None
    shown = [w for w in worded if w]
    if len(parts) > LIST_ITEMS:
        out = join(["、".join(shown), "等"])
    elif len(shown) > 1:
        out = join([shown[0], "与", shown[1]])
    else:
        out = shown[0]
    return out


def identifiers(title: str, limit: int = 3) -> list[str]:
    """The bare identifiers a title names, first written first ("Pixtral", "Eagle3")."""
    out: list[str] = []
    for token in title.split():
        token = token.strip(_STRIP + "()[]")
        if _VERSION.match(token):
            continue  # "9.0.0" names nothing alone
        if (identifier(token) or _name(token)) and token not in out:
            out.append(token)
    return out[:limit]
