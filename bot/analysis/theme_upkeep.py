"""Upkeep themes: a week's large CI, test and docs efforts, named by their subject
("CI: nightly, weekly", "Tests: attention", "Docs: locale") (pure, no I/O).

A PR's kind (bot.analysis.kinds: `ci`, `test`, `docs`) says what it does; what it does it to
comes from the words of its changed paths (folders and file names: `tests/e2e/nightly`,
`.github/workflows/schedule_nightly_test_a3.yaml`) and the distinctive words of its title
("ROCm" of "[ROCm][CI] Fix MI355 test"). Upkeep PRs are grouped greedily by the subject word
most of them share; a group is a theme only when it is a large share of the week
(`min_members`), so a stray test fix never takes a slot. The PRs of a group leave the named
themes' pool: a CI change that mentions a model ("[CI] fix nightly MiniMax-M2.5") is CI work,
not work on that model.

A week that upgrades its stack in several PRs ("Upgrade CANN to 9.0.0 and triton-ascend to
3.2.1", "Upgrade torch-npu to 2.10.0") is one upkeep effort too, named by what it upgrades
("Toolchain upgrade: CANN 9.0.0, triton-ascend 3.2.1, torch-npu 2.10.0"), with the PRs whose
titles name an upgraded package ("Drop custom so for CANN8.5.1": the old version's fallout).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.analysis.theme_words import is_common, is_misspelling, is_name

# Which upkeep a kind is: CI and test changes are one effort more often than not (a nightly
# suite is both), docs another.
UPKEEP_CLASS: Mapping[str, str] = {"ci": "ci", "test": "ci", "docs": "docs"}
SHARE = 0.05  # a group holds at least 5% of the week's PRs ...
MIN_MEMBERS = 3  # ... and at least 3 of them
MAX_GROUPS = 3  # upkeep never fills the highlights
SECOND_WORD = 0.8  # a second subject word named when this share of the group has it too
# A subject read from a title is a name as theme names are (theme_words.is_name: an
# identifier such as "ROCm" or "MI355", or a capitalised word that is not common English
# nor a misspelling: not "fix", "chore", "nightly" or "Spplement"). Folders need no such
# test: a folder is a subject ("tests/e2e/nightly").
# A word in more than this share of a class's PRs is how the repository lays that work out
# ("e2e" of every e2e workflow, "ut" of every unit test), not one effort's subject.
LAYOUT_SHARE = 0.5
# Layout words of a repository's paths: where files live, not what they are about.
LAYOUT = frozenset(
    [
        "github",
        "workflows",
        "workflow",
        "tests",
        "test",
        "docs",
        "doc",
        "source",
        "src",
        "scripts",
        "script",
        "misc",
        "yaml",
        "yml",
        "md",
        "py",
        "sh",
        "txt",
        "json",
        "toml",
        "cfg",
        "ini",
        "rst",
        "init",
        "conftest",
        "readme",
        "utils",
        "common",
        "main",
        "index",
        "zh",
        "cn",
        "en",
        "png",
        "svg",
    ]
)
_PATH_SPLIT = re.compile(r"[/_\-.\s]+")
_TITLE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[._\-][A-Za-z0-9]+)*")
_TAG = re.compile(r"^\s*(?:[\[【][^\]】]{1,60}[\]】]\s*:?\s*)+")


@dataclass(frozen=True, slots=True)
class UpkeepDoc:
    """What the upkeep pass reads of one PR."""

    number: int
    title: str
    kind: str
    paths: tuple[str, ...] = ()  # changed file paths (empty on title-only data)
    score: float = 0.0


@dataclass(slots=True)
class UpkeepGroup:
    key: str  # "u:ci:nightly": the same every week the same subject is upkept
    upkeep: str  # "ci" | "tests" | "docs": what the members mostly do
    words: list[str]  # subject words as written, the shared one first
    numbers: list[int]  # members, most important first
    evidence: dict[int, str]  # member -> where its subject word was read

    @property
    def name(self) -> str:
        label = {"ci": "CI", "tests": "Tests", "docs": "Docs", "deps": "Toolchain upgrade"}
        return f"{label[self.upkeep]}: {', '.join(self.words)}"


def path_words(paths: Iterable[str]) -> frozenset[str]:
    """Lower-case words of the folders of changed paths, layout words left out. File names
    are left out too: a workflow's name ("_e2e_nightly_multi_node.yaml") is shared by
    unrelated changes to it, a folder (`tests/e2e/nightly`) holds one kind of work."""
    out: set[str] = set()
    for path in paths:
        folder = path.rsplit("/", 1)[0] if "/" in path else ""
        for word in _PATH_SPLIT.split(folder.lower()):
            if len(word) >= 2 and not word.isdigit() and word not in LAYOUT:
                out.add(word)
    return frozenset(out)


def _title_words(title: str, stop: frozenset[str]) -> dict[str, str]:
    """Lower-case word -> as written, of a title without its leading tags."""
    rest = _TAG.sub("", title)
    tags = title[: len(title) - len(rest)]
    out: dict[str, str] = {}
    for text in (rest, *re.findall(r"[\[【]([^\]】]{1,60})[\]】]", tags)):
        for match in _TITLE_WORD.finditer(text):
            written = match.group(0)
            word = written.lower()
            if len(word) >= 2 and word not in stop and word not in LAYOUT:
                out.setdefault(word, written)
    return out


def upkeep_groups(
    docs: Sequence[UpkeepDoc], stop: frozenset[str] = frozenset(), window: int | None = None
) -> list[UpkeepGroup]:
    """The week's large upkeep efforts among `docs`, largest first (module docstring);
    `window`: the week's PRs in all (default: `docs`), of which a group is a share."""
    n = len(docs) if window is None else window
    least = max(MIN_MEMBERS, round(SHARE * n))
    titles = {d.number: _title_words(d.title, stop) for d in docs}
    df: Counter[str] = Counter(w for words in titles.values() for w in words)
    groups: list[UpkeepGroup] = []
    for upkeep_class in sorted(set(UPKEEP_CLASS.values())):
        pool = [d for d in docs if UPKEEP_CLASS.get(d.kind) == upkeep_class]
        words: dict[int, dict[str, str]] = {}  # number -> word -> where it was read
        written: dict[str, Counter[str]] = {}
        for doc in pool:
            found = {w: "files" for w in path_words(doc.paths)}
            for word, surface in titles[doc.number].items():
                if is_name(surface):
                    found[word] = "title"
                    written.setdefault(word, Counter())[surface] += 1
            words[doc.number] = found
        groups += _greedy(pool, words, written, df, least, upkeep_class)
    groups.sort(key=lambda g: (-len(g.numbers), g.key))
    return groups[:MAX_GROUPS]


def _greedy(
    pool: Sequence[UpkeepDoc],
    words: Mapping[int, Mapping[str, str]],
    written: Mapping[str, Counter[str]],
    df: Counter[str],
    least: int,
    upkeep_class: str,
) -> list[UpkeepGroup]:
    by_number = {d.number: d for d in pool}
    open_ = set(by_number)
    out = []
    while len(open_) >= least:
        counts: Counter[str] = Counter(w for x in open_ for w in words[x])
        if len(pool) >= 2 * least:
            # Among many upkeep PRs, a folder word most of them share is the layout.
            for word in [w for w, c in counts.items() if c > LAYOUT_SHARE * len(pool)]:
                if word not in written:  # a path word only: the layout, not a subject
                    del counts[word]
        # Most members first; then the word rarer in the rest of the week (more specific).
        best = min(counts, key=lambda w: (-counts[w], df[w], w), default=None)
        if best is None or counts[best] < least:
            break
        members = sorted(
            (x for x in open_ if best in words[x]),
            key=lambda x: (-by_number[x].score, x),
        )
        # A second word most members share, as their titles write it when they do.
        second = Counter(w for x in members for w in words[x] if w != best)
        common = [w for w, c in second.items() if c >= math.ceil(SECOND_WORD * len(members))]
        common.sort(key=lambda w: (w not in written, -second[w], w))
        shown = [best, *common[:1]]
        kinds = Counter(by_number[x].kind for x in members)
        if upkeep_class == "docs":
            label = "docs"
        else:
            label = "tests" if kinds["test"] * 2 > len(members) else "ci"
        out.append(
            UpkeepGroup(
                key=f"u:{upkeep_class}:{best}",
                upkeep=label,
                words=[_display(w, written) for w in shown],
                numbers=members,
                evidence={x: f"{by_number[x].kind}, {words[x][best]} “{best}”" for x in members},
            )
        )
        open_ -= set(members)
    return out


def _display(word: str, written: Mapping[str, Counter[str]]) -> str:
    """A word as the titles wrote it most ("ROCm"), else as the paths do."""
    forms = written.get(word)
    return forms.most_common(1)[0][0] if forms else word


# An upgrade title: a leading verb, then one or more "<package> [image|version] to <version>"
# ("Upgrade CANN to 9.0.0 and triton-ascend to 3.2.1", "update vllm to v0.19.1").
_UPGRADE_VERB = re.compile(r"^\s*(?:upgrade|bump|update|pin|downgrade)s?\b", re.IGNORECASE)
_UPGRADE_TO = re.compile(
    r"(?:^|\band\s+|,\s*)(?:the\s+)?([A-Za-z0-9][\w.\-/]*(?:\s+[A-Za-z][\w.\-/]*)?)\s+"
    r"(?:image\s+|version\s+)?(?:from\s+\S+\s+)?to\s+(v?\d[\w.\-]*)",
    re.IGNORECASE,
)
UPGRADES_MIN = 2  # several PRs upgrading the stack, not one routine bump


def upgrades(title: str) -> list[tuple[str, str]]:
    """(package as written, version) of an upgrade title, [] for any other title. A GitHub
    Action ("actions/checkout") is CI plumbing, not the stack the project runs on."""
    rest = _TAG.sub("", title)
    verb = _UPGRADE_VERB.match(rest)
    if verb is None:
        return []
    out = []
    for match in _UPGRADE_TO.finditer(rest[verb.end() :].strip()):
        # The package is the last word no English word is: "310P CANN" -> CANN, "vllm
        # version" -> vllm, "opencv-python dependecy version" -> opencv-python.
        written = match.group(1).split()
        names = [w for w in written if not (is_common(w.lower()) or is_misspelling(w.lower()))]
        package = names[-1] if names else written[0]
        if "/" not in package and any(c.isalpha() for c in package):
            out.append((package, match.group(2)))
    return out


def _names_package(title: str, package: str) -> bool:
    """`package` in `title` as a word, a version glued on allowed ("CANN8.5.1")."""
    pattern = rf"(?<![A-Za-z0-9]){re.escape(package)}(?![A-Za-z])"
    return re.search(pattern, title, re.IGNORECASE) is not None


def upgrade_group(
    docs: Sequence[UpkeepDoc], stop: frozenset[str] = frozenset(), window: int | None = None
) -> UpkeepGroup | None:
    """The week's stack upgrade (module docstring): UPGRADES_MIN upgrade PRs or more, with
    the PRs naming an upgraded package, a group of at least `least` PRs; None otherwise. A
    package that is a stop term (the repository's own name: "vllm" of vllm-ascend) names
    every PR, so only its upgrade titles join."""
    n = len(docs) if window is None else window
    least = max(MIN_MEMBERS, round(SHARE * n))
    found = {d.number: ups for d in docs if (ups := upgrades(d.title))}
    if len(found) < UPGRADES_MIN:
        return None
    by_number = {d.number: d for d in docs}
    leads = sorted(found, key=lambda x: (-by_number[x].score, x))
    versions: dict[str, str] = {}  # lower-case package -> "CANN 9.0.0", first lead's first
    for x in leads:
        for package, version in found[x]:
            versions.setdefault(package.lower(), f"{package} {version}")
    evidence = {x: f"upgrades {', '.join(p for p, _ in found[x])}" for x in leads}
    for doc in docs:
        if doc.number in evidence:
            continue
        named = next((p for p in versions if p not in stop and _names_package(doc.title, p)), None)
        if named is not None:
            evidence[doc.number] = f"names upgraded {named}"
    if len(evidence) < least:
        return None
    members = sorted(evidence, key=lambda x: (-by_number[x].score, x))
    first = next(iter(versions))
    return UpkeepGroup(
        key=f"u:deps:{re.sub(r'[^a-z0-9]+', '', first) or 'stack'}",
        upkeep="deps",
        words=list(versions.values()),
        numbers=members,
        evidence=evidence,
    )
