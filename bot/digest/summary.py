"""One-line PR summaries: the first meaningful sentence of the description.

PR descriptions in vLLM and its plugins mostly start with a template (``## Purpose``,
``### What this PR does / why we need it?``, the "Essential Elements" checklist, "FIX #123",
version footers, sign-offs). The description is parsed with markdown-it-py so headings,
code, images and HTML are recognised structurally instead of with fragile regexes; only
paragraph and list text outside test/checklist sections is considered.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from bot.analysis import themes

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token as MarkdownToken

MAX_CHARS = 160

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
# Everything after this line of the vLLM template is removed by GitHub Actions anyway.
_CUT_MARKERS = re.compile(r"^\s*\**\s*BEFORE SUBMITTING, PLEASE READ.*$", re.IGNORECASE | re.M)

# Sections whose content is never a summary of what the PR does.
_SKIP_SECTION = re.compile(
    r"test\s*(plan|result|ing)|how was this (patch )?tested|checklist|user[- ]facing change|"
    r"essential elements|release note|documentation update|screenshot|benchmark result|"
    r"^\s*(notes?|todo|follow[- ]?ups?|cc)\s*:?\s*$",
    re.IGNORECASE,
)

# Paragraph/list text that is template or bookkeeping, not a description.
_BOILERPLATE = re.compile(
    r"^\s*("
    r"\[[ xX]?\]"  # checklist item
    r"|signed-off-by:|co-authored-by:|reviewed-by:|cc:?\s*@"
    r"|(fix(es|ed)?|close[sd]?|resolve[sd]?|related( to)?|part of|follow[- ]?up( to| of)?)"
    r"\s*:?\s*(#\d+|https?://\S+)[\s,.;]*$"  # only an issue reference
    r"|fix #xxxx|fix #\d+\s*\(\*?link existing issues"
    r"|vllm version:|vllm main:"
    r"|what this pr does|does this pr introduce|how was this patch tested"
    r"|purpose\s*:?$|test plan\s*:?$|test result\s*:?$"
    r"|the purpose of the pr|the test plan|the test results|\(optional\)"
    r"|essential elements of an effective pr description"
    r"|please fill in|before submitting"
    r"|n/?a\.?$|none\.?$|no\.?$|tbd\.?$|-+$"
    r")",
    re.IGNORECASE,
)
_URL = re.compile(r"https?://\S+")
_LEADING_ISSUE = re.compile(
    r"^\s*(fix(es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s*#\d+(\s*,\s*#\d+)*\s*[.:;,-]?\s*",
    re.IGNORECASE,
)
# A sentence ends at . ! ? followed by space and a non-lowercase start, or at CJK stops;
# "e.g. the", "v0.20.2", "vs. main" do not end a sentence.
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)[.!?](?=\s+[^a-z\s])|[。！？]")
_MIN_LETTERS = 12


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    # Lazy: a warm digest reads every sentence from the store's memo, and markdown-it-py
    # was 27 ms of its start-up (python -X importtime, 250-PR bench week).
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable("table")


def _inline_text(token: MarkdownToken) -> str:
    """Visible text of an inline token: text, inline code and link labels; images and
    inline HTML (badges, <br>, <img>) are not prose."""
    parts: list[str] = []
    for child in token.children or ():
        if child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type in ("text", "code_inline"):
            parts.append(child.content)
    return "".join(parts)


def _candidates(body: str) -> list[str]:
    return [content for _, content in _sections(body)]


@lru_cache(maxsize=1024)
def _sections(body: str) -> tuple[tuple[str, str], ...]:
    """(heading of the section it is in, text) of each paragraph or list item that may
    describe the PR; "" for text before any heading. Cached: the one-line summary and the
    purpose both read it."""
    text = _HTML_COMMENT.sub("", body.replace("\r\n", "\n"))
    cut = _CUT_MARKERS.search(text)
    if cut:
        text = text[: cut.start()]
    tokens = _markdown().parse(text)
    out: list[tuple[str, str]] = []
    heading = ""
    skipping = False  # inside a section whose heading says it is not a description
    in_heading = False
    in_table = 0
    for token in tokens:
        kind = token.type
        if kind == "heading_open":
            in_heading = True
            continue
        if kind == "heading_close":
            in_heading = False
            continue
        if kind == "table_open":
            in_table += 1
        elif kind == "table_close":
            in_table -= 1
        if kind == "hr":
            # "---" separates the description from template leftovers in vLLM's template.
            skipping = True
            continue
        if kind != "inline":
            continue
        content = _inline_text(token).strip()
        if in_heading:
            skipping = bool(_SKIP_SECTION.search(content))
            heading = content
            continue
        if skipping or in_table or not content:
            continue
        # A bold-only paragraph is used as a heading in many templates.
        children = token.children or []
        if children and children[0].type == "strong_open" and children[-1].type == "strong_close":
            skipping = bool(_SKIP_SECTION.search(content))
            if _BOILERPLATE.match(content) or content.endswith((":", "?")):
                heading = content
                continue
        out.append((heading, content))
    return tuple(out)


def _meaningful(text: str) -> str | None:
    text = _LEADING_ISSUE.sub("", text)
    # A stray "-->" (an HTML comment opened above the description) leaves "> " in front.
    text = _URL.sub("", text).lstrip(" \t-*:>").rstrip(" \t-*:")
    text = re.sub(r"\s+", " ", text)
    if not text or _BOILERPLATE.match(text):
        return None
    letters = sum(ch.isalpha() for ch in text)
    if letters < _MIN_LETTERS and not any("\u4e00" <= ch <= "\u9fff" for ch in text):
        return None
    if text.endswith("?") and len(text) < 80:
        return None  # a template question used as a heading
    return text


def _first_sentence(text: str) -> str:
    match = _SENTENCE_END.search(text)
    sentence = text[: match.end()] if match else text
    sentence = sentence.strip()
    if len(sentence) > MAX_CHARS:
        cut = sentence.rfind(" ", 0, MAX_CHARS - 1)
        sentence = sentence[: cut if cut > MAX_CHARS // 2 else MAX_CHARS - 1].rstrip(" ,;:") + "…"
    return sentence


# --------------------------------------------------------------- kept between runs

# Kept in the digest's memo (themes.active, bot.digest.theme_memo): what a description says
# depends on nothing but the description, its title and this code, and parsing the
# Markdown of every quoted description was a quarter of a warm 250-PR digest.


@lru_cache(maxsize=1)
def _code_version() -> str:
    """This module's source and the Markdown parser's (its package's __init__, which holds
    its version; found without importing it): a kept sentence is valid only for the code
    that wrote it."""
    parts = [Path(__file__).read_bytes()]
    spec = importlib.util.find_spec("markdown_it")
    if spec is not None and spec.origin:
        parts.append(Path(spec.origin).read_bytes())
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


def memo_prefix() -> str:
    """What the keys of this code's kept sentences start with (as themes.memo_prefix)."""
    return _code_version()[: themes.VERSION_CHARS]


def text_key(kind: str, body: str, title: str) -> str:
    """The memo key of one sentence (themes.versioned_key of this code's version)."""
    return themes.versioned_key(_code_version(), kind, title, body)


def _kept(
    kind: str, body: str, title: str, compute: Callable[[str, str], str | None]
) -> str | None:
    kept = themes.active()
    if kept is None:
        return compute(body, title)
    key = text_key(kind, body, title)
    data = kept.entries.get(key)
    if data is not None:
        value: str | None = json.loads(data)
        return value
    value = compute(body, title)
    kept.fresh[key] = json.dumps(value, ensure_ascii=False)
    return value


def summarize(body: str, title: str) -> str:
    """First meaningful sentence of `body`, or `title` when there is none."""
    return _kept("summary", body, title, _summarize) or ""


@lru_cache(maxsize=2048)
def _summarize(body: str, title: str) -> str:
    if body:
        for candidate in _candidates(body):
            text = _meaningful(candidate)
            if text:
                return _first_sentence(text)
    return title.strip()


# --------------------------------------------------------------- purpose of a PR

# Template sections that state why a PR exists ("### What this PR does / why we need it?",
# "## Purpose", "Motivation").
_PURPOSE_SECTION = re.compile(
    r"what (?:this|the) pr does|why (?:we|is this|do we) need|purpose|motivation|"
    r"\bsummary\b|description|overview|background|\bwhy\b",
    re.IGNORECASE,
)
# Words that only point elsewhere ("Related RFC issue: Refs #123", "Part of #4567").
_REF_WORDS = re.compile(
    r"(?:[\w.-]+/[\w.-]+)?#\d+|https?://\S+|\[[^\]]{1,40}\]|\b(?:related|rfc|issues?|refs?|"
    r"see|fix(?:es|ed)?|close[sd]?|resolve[sd]?|part|of|follow[- ]?up|to|prs?|depends?|on|"
    r"this|the|tracking|parent|and)\b",
    re.IGNORECASE,
)
# A sentence cut before its list ("Adds dedicated light E2E test files for:").
_DANGLING = re.compile(r"(?:\b(?:for|to|with|of|in|and|the|as|by)|[:,])\s*$", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]+")
_TITLE_WORDS_SHARE = 0.7


def _restates(sentence: str, title: str) -> bool:
    """True when the sentence says little beyond the title ("Fix permission check logic."
    under "[Bugfix] Fix permission check logic")."""
    words = set(_WORD.findall(_REF_WORDS.sub(" ", sentence).lower()))
    title_words = set(_WORD.findall(title.lower()))
    words -= {"this", "pr", "the", "a", "an", "to", "we", "in", "of", "for"}
    if not words:
        return True
    return len(words & title_words) / len(words) >= _TITLE_WORDS_SHARE


def _refs_only(text: str) -> bool:
    rest = _REF_WORDS.sub(" ", text)
    return sum(ch.isalpha() for ch in rest) < _MIN_LETTERS


def _sentences(text: str) -> list[str]:
    out, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        out.append(text[start : match.end()].strip())
        start = match.end()
    out.append(text[start:].strip())
    return [s for s in out if s]


def purpose(body: str, title: str) -> str | None:
    """Why the PR was made, from its description: the first informative sentence of the
    template's purpose section, else of the description; never a sentence that only
    restates the title or points at an issue. None when the description says nothing more."""
    if not body:
        return None
    return _kept("purpose", body, title, _purpose)


@lru_cache(maxsize=2048)
def _purpose(body: str, title: str) -> str | None:
    sections = _sections(body)
    ordered = [c for h, c in sections if _PURPOSE_SECTION.search(h)]
    ordered += [c for h, c in sections if not _PURPOSE_SECTION.search(h)]
    for candidate in ordered:
        # A stray "-->" (an HTML comment opened above the description) or a quote marker.
        text = _meaningful(candidate.lstrip("> -"))
        text = text.lstrip("> ") if text else text
        if not text or _refs_only(text):
            continue
        for sentence in _sentences(text):
            if _refs_only(sentence) or _restates(sentence, title) or _DANGLING.search(sentence):
                continue
            if sum(ch.isalpha() for ch in sentence) < _MIN_LETTERS and not any(
                "\u4e00" <= ch <= "\u9fff" for ch in sentence
            ):
                continue
            return _first_sentence(sentence)
    return None


_CJK = re.compile("[\u4e00-\u9fff]")


def has_cjk(text: str) -> bool:
    """Text with Chinese characters: a description a Chinese digest quotes without an
    "in English" mark."""
    return _CJK.search(text) is not None
