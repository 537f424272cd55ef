"""Counts the lead clauses of Chinese digests whose object is English (issue 33).

A lead clause names one PR's change: "新增 Cohere EAGLE 草稿模型（#42078）". Its object is
what follows the Chinese verb. It is *English* when it holds no Chinese character and is not
a PR's whole title in quotes (“…”, as the seeds quote titles); among those, an object made
only of identifiers ("升级 CANN", "支持 Ascend950": a digit, an underscore, inner capitals,
an acronym) is counted apart, since the seeds write those bare. Clauses are read from the
summary, each highlight's paragraph and the key-PR table's summaries of the markdown
digests (`*.zh.md`, as bench/score_labels.py --out keeps them):

    python bench/zh_clauses.py DIR_OR_FILE ... [--examples N]

Reads markdown only, so it measures any tree's digests the same way (goal: 0 English).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.core import i18n  # noqa: E402  (the tree measured: its catalogue's verbs)

_LINK = re.compile(r"\[(#\d+)\]\([^)]*\)")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_CJK = re.compile(r"[\u3400-\u9fff]")
_REF = re.compile(r"（(#\d+)）")
_TAGS = re.compile(r"^(?:\s*[\[【][^\]】]*[\]】])+\s*")
_MEMBER = re.compile(r"^- (#\d+) (.+?)（作者 ")
_TOKEN = re.compile(r"[^\s、，,;]+")
# A clause starts after one of these; the "、" of a list keeps the verb before it.
_SPLIT = re.compile(r"[，；。：:]|(?<=）)、")
_LEADING = re.compile(r"^[、\s]*(?:本周|本期|此外|另外|其中|同时|以及|并|还|与|和|及)*\s*")


def _verbs() -> list[str]:
    """The catalogue's Chinese verbs (change.*), longest first."""
    verbs = set()
    for msg_id, entry in i18n.MESSAGES.items():
        if msg_id.startswith("change.") and "{what}" in entry["zh"]:
            head = entry["zh"].split("{", 1)[0].strip()
            if head and _CJK.search(head):
                verbs.add(head)
    return sorted(verbs, key=len, reverse=True)


def _plain(text: str) -> str:
    return _ESCAPE.sub(r"\1", _LINK.sub(r"\1", text))


def _title_key(title: str) -> str:
    title = _TAGS.sub("", title.strip()).lstrip(" :-–—")
    title = re.sub(r"\s*\(#\d+\)\s*$", "", title)
    return " ".join(title.split()).rstrip(" .。").lower()


def identifier(token: str) -> bool:
    """A written name: a digit, an underscore, a dot or slash inside, inner capitals, or an
    acronym ("W4A8", "split_group", "dsa.py", "DeepSeek", "CANN")."""
    token = token.strip("`'\"()“”")
    return bool(
        re.search(r"\d|_|\w[./]\w", token)
        or (len(token) >= 2 and any(c.isupper() for c in token[1:]))
    )


@dataclass
class Count:
    clauses: int = 0
    english: list[str] = field(default_factory=list)  # no Chinese, not a whole quoted title
    bare: list[str] = field(default_factory=list)  # of those, identifiers only

    def add(self, other: Count) -> None:
        self.clauses += other.clauses
        self.english += other.english
        self.bare += other.bare


def _sections(lines: list[str]) -> Iterator[tuple[str, str]]:
    section = ""
    for line in lines:
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        yield section, line


def clauses(markdown: str) -> Iterator[tuple[str, str, str]]:
    """(where, clause text up to its reference, #N) of every clause naming one PR."""
    lines = [_plain(line) for line in markdown.splitlines()]
    for section, line in _sections(lines):
        if section == "执行摘要" and line and not line.startswith("-"):
            yield from _of_text(line, "summary")
        elif re.match(r"^\*\*\d+\. ", line):
            body = line.split("**", 2)[2]
            # Quoted descriptions ("…的描述（英文原文）") are the author's words, not clauses.
            body = re.split(r"#\d+ 的描述", body, maxsplit=1)[0]
            yield from _of_text(body, "highlight")
        elif section == "重点 PR 速览" and line.startswith("| #"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            number = cells[0]
            summary = cells[-1]
            if summary and not summary.startswith(("“",)) and _CJK.search(summary[:4]):
                yield "key-pr", summary, number


def _of_text(text: str, where: str) -> Iterator[tuple[str, str, str]]:
    start = 0
    for ref in _REF.finditer(text):
        before = text[start : ref.start()]
        start = ref.end()
        # The clause is the text after the last separator outside quotes.
        depth = 0
        cut = 0
        for i, ch in enumerate(before):
            if ch == "“":
                depth += 1
            elif ch == "”":
                depth = max(depth - 1, 0)
            elif depth == 0 and _SPLIT.match(before, i):
                cut = i + 1
        yield where, before[cut:].strip(), ref.group(1)


def judge(clause: str, verbs: Iterable[str], titles: dict[str, str], number: str) -> str:
    """ "ok", "english" or "bare" (identifiers only) for one clause."""
    text = _LEADING.sub("", clause.strip())
    for verb in verbs:
        if text.startswith(verb):
            text = text[len(verb) :]
            break
    obj = text.strip()
    if not obj or _CJK.search(obj):
        return "ok"
    if obj.startswith("“") and obj.endswith("”"):
        quoted = _title_key(obj[1:-1])
        title = titles.get(number)
        if title is not None and quoted == _title_key(title):
            return "ok"
        if title is None and quoted:
            return "ok"  # a title the digest does not list: trust the quotes
    tokens = [t for t in _TOKEN.findall(obj) if t not in {"与", "等"}]
    if tokens and all(identifier(t) for t in tokens):
        return "bare"
    return "english"


def count_file(path: Path, verbs: list[str]) -> Count:
    text = path.read_text(encoding="utf-8")
    titles: dict[str, str] = {}
    for line in map(_plain, text.splitlines()):
        m = _MEMBER.match(line)
        if m:
            titles[m.group(1)] = m.group(2)
    out = Count()
    for where, clause, number in clauses(text):
        out.clauses += 1
        verdict = judge(clause, verbs, titles, number)
        if verdict != "ok":
            out.english.append(f"{where}: {clause}（{number}）")
            if verdict == "bare":
                out.bare.append(out.english[-1])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--examples", type=int, default=0, help="English clauses to print")
    args = parser.parse_args()
    verbs = _verbs()
    files = sorted(
        f for p in args.paths for f in ([p] if p.is_file() else sorted(p.glob("*.zh.md")))
    )
    total = Count()
    for path in files:
        count = count_file(path, verbs)
        total.add(count)
        print(
            f"{path.name}: {len(count.english)}/{count.clauses} English objects "
            f"({len(count.bare)} of them identifiers only)"
        )
        for example in count.english[: args.examples]:
            print(f"    {example}")
    print(
        f"total: {len(total.english)}/{total.clauses} English objects "
        f"({len(total.bare)} identifiers only, {len(total.english) - len(total.bare)} prose)"
    )


if __name__ == "__main__":
    main()
