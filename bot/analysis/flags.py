"""Risk flags, each with the reason a user sees. File-based flags need a known file list."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import takewhile

from bot.core.models import Flag, PullRequest

from .files import FileFacts, pr_file_count, pr_lines
from .kinds import TRIVIAL_RE
from .paths import PatternSet
from .reasons import localized, make_flag
from .regex import lazy
from .rules import RuleSet
from .titles import TitleInfo, parse_title

# "breaking" alone is an ordinary English word ("breaking down the cost", "breaking ties"),
# so only phrases that announce a compatibility break count: "breaking change",
# "BC-breaking", "backward-incompatible", "breaks the API", an upper-case BREAKING, or
# "breaking:" used as a heading/prefix.
_BREAKING_WORD = lazy(
    r"(?i:\b(?:BC[- ]?)?breaking[- ](?:changes?|API|interface|behaviou?r)\b"
    r"|\bBC[- ]breaking\b|\bbackwards?[- ]incompatib(?:le|ility)\b"
    r"|\bbreaks? (?:backwards? compatibility|(?:the )?(?:public )?API|compat(?:ibility)?)\b"
    r"|(?:^|\n)[ \t#*>-]*breaking\s*[:!])"
    r"|\bBREAKING\b"
)
_NEGATED = lazy(
    r"(?:\bnon|\bno|\bnot(?: a)?|\bwithout|\bisn't|\bis not|\bany|\[ \])[\s-]*$",
    re.IGNORECASE,
)
_REMOVAL = lazy(
    r"\b(?:remove[sd]?|removing|removal of|drop(?:s|ped|ping)?|delete[sd]?|deleting|"
    r"deprecate[sd]?|deprecating|rename[sd]?|renaming|no longer support)\b"
    r"(?P<rest>.{0,80})",
    re.IGNORECASE,
)
_PUBLIC_THING = lazy(
    r"(?P<thing>\b(?:APIs?|endpoints?|CLI|(?:command[- ]line )?flags?|--[a-z][\w-]+|"
    r"env(?:ironment)?[ _]?var(?:iable)?s?|envs?\b|VLLM_[A-Z0-9_]+|config(?:uration)? options?|"
    # A function's arguments are internal; those users pass (CLI, engine, server, sampling,
    # API) are public.
    r"(?:CLI|engine|server|sampling|API|public|user[- ]facing)\s+(?:arguments?|args?|"
    r"parameters?|params?|options?)|options?|backends?|legacy|compat(?:ibility)?|"
    r"deprecated|support for|public (?:interfaces?|classes))\b)",
    re.IGNORECASE,
)
_INTERNAL = lazy(
    r"\b(?:dead|unused|redundant|stray|duplicate|unnecessary|unncessary)\b", re.IGNORECASE
)
_REVERT_QUOTED = lazy(
    r"\brevert(?:s|ed|ing)?\s+[\"“'](?P<title>.+?)(?:[\"”']\s*$|[\"”']\s|…|$)", re.IGNORECASE
)
# Never a number GitHub cut short ("(#308…" of "(#30802)").
_REVERT_NUMBER = lazy(
    r"(?:\brevert(?:s|ed|ing)?\b[^#\n]{0,60}?|\breverts\s+[\w.-]+/[\w.-]+)#(\d+)(?![\d…])",
    re.IGNORECASE,
)
_PR_REF = lazy(r"\(#(\d+)\)")
_REVERT_START = lazy(r"^\s*(?:\[[^\]]*\]\s*)*revert(?:s|ed)?\b", re.IGNORECASE)
_REVERT_COMMIT = lazy(r"This reverts commit ([0-9a-f]{7,40})", re.IGNORECASE)
_VERSION_PIN = lazy(
    r"\b(?P<verb>bump|bumps|upgrade|upgrades|update|updates|pin|pins|unpin|downgrade)\s+"
    r"(?:the\s+)?(?P<what>[\w.\-/\[\]]+)(?:\s+(?:version|dependency|requirement))?\s+"
    r"(?:from\s+v?[\w.\-+]+\s+)?(?:to\s+)(?P<to>v?\d[\w.\-+]*)",
    re.IGNORECASE,
)


def reverted(pr: PullRequest) -> tuple[int | None, str | None]:
    """What a revert reverts: the PR number and the quoted title, each when stated."""
    number = None
    for text in (pr.title, pr.body[:2000]):
        m = _REVERT_NUMBER.search(text)
        if m:
            number = int(m.group(1))
            break
    qm = _REVERT_QUOTED.search(pr.title)
    quoted = qm.group("title").strip().rstrip("…").strip() if qm else None
    if quoted:
        ref = _PR_REF.search(quoted)
        if ref:
            number = number or int(ref.group(1))
            quoted = _PR_REF.sub("", quoted).strip()
        quoted = _PR_SUFFIX.sub("", quoted)
    return number, quoted or None


def revert_target(pr: PullRequest) -> str | None:
    """Name what a revert reverts: '#41234 "title"', '#41234', '"title"' or a commit."""
    number, quoted = reverted(pr)
    if number and quoted:
        return f'#{number} "{quoted}"'
    if number:
        return f"#{number}"
    if quoted:
        return f'"{quoted}"'
    cm = _REVERT_COMMIT.search(pr.body[:2000])
    return f"commit {cm.group(1)[:10]}" if cm else None


_RELAND = lazy(
    r"^\s*(?:\[[^\]]*\]\s*)*(?:re-?land(?:s|ed|ing)?|re-?appl(?:y|ies|ied)|re-?submit|"
    r"re-?do(?:es|ne)?)\b[\s:]*[\"“']?(?P<rest>.*?)[\"”']?\s*$",
    re.IGNORECASE,
)
_RELAND_TAGS = frozenset({"reland", "re-land", "reapply", "redo", "resubmit"})
_RELAND_REF = lazy(r"\bre-?(?:land|apply|submit|do)\w*\b[^#\n]{0,40}#(\d+)", re.IGNORECASE)
# The "(#N)" GitHub appends to a squash-merged title, whole or cut short ("(#308…").
_PR_SUFFIX = lazy(r"\s*\(#\d*…?\)?\s*$")
_SUBJECT_WORD = lazy(r"[a-z][a-z0-9]{2,}|[a-z0-9]*\d[a-z0-9]*[a-z][a-z0-9]*")
_COMMON_WORDS = frozenset(
    {"the", "and", "for", "with", "from", "into", "when", "that", "this", "use", "using"}
    | {"via", "add", "adds", "added", "support", "fix", "fixes", "fixed", "bugfix", "again"}
    | {"redo", "reland", "reapply", "revert"}
)


def _norm_title(title: str) -> str:
    """A title as its change reads: tags, the "(#N)" suffix, quotes and backticks gone."""
    rest = _PR_SUFFIX.sub("", parse_title(title).rest.rstrip("…"))
    return " ".join(re.sub(r"[`\"“”']", "", rest).lower().split())


def _same_title(a: str, b: str) -> bool:
    """Equal titles, allowing GitHub's "…" truncation of the quoted one."""
    a, b = _norm_title(a), _norm_title(b)
    return bool(a and b) and (
        a == b or (len(a) >= 20 and b.startswith(a)) or (len(b) >= 20 and a.startswith(b))
    )


def _subject(title: str) -> set[str]:
    words = (m.group(0) for m in _SUBJECT_WORD.finditer(_norm_title(title)))
    return {w for w in words if w not in _COMMON_WORDS}


def _same_subject(reland: str, reverted_title: str) -> bool:
    """A re-land named in its own words ("Redo Qwen3.5 GDN projector fusion" for "Fuse
    Qwen3.5 GDN's qkvz_proj and ba_proj"): most of the reverted title's words, each the
    same word or one of its forms (a shared stem of three letters or more)."""
    words, other = _subject(reverted_title), _subject(reland)
    if not words or not other:
        return False

    def stem(a: str, b: str) -> int:
        return sum(1 for _ in takewhile(lambda pair: pair[0] == pair[1], zip(a, b, strict=False)))

    def found(word: str) -> bool:
        return any((n := stem(word, o)) >= 3 and n * 4 >= 3 * min(len(word), len(o)) for o in other)

    shared = sum(1 for w in words if found(w))
    return shared >= 2 and shared * 2 >= len(words)


def relanded(prs: Sequence[PullRequest]) -> dict[int, int]:
    """Reverts in `prs` whose change landed again later in the same window: revert number
    -> the PR that re-landed it ("Reland #N", "Reapply \"X\"", "[Redo] X", a PR with the
    reverted title once tags and the "(#N)" suffix are stripped, a re-land named in its own
    words, or a revert of the revert). A revert that names only a PR number is matched by
    that PR's title when the PR is in the window."""
    order = sorted(prs, key=lambda p: (p.merged_at or p.created_at, p.number))
    reverts = [i for i, p in enumerate(order) if _REVERT_START.match(p.title)]
    if not reverts:
        return {}
    by_number = {pr.number: pr for pr in order}
    # Only a few PRs can be a re-land: index them once, so a 10,000-PR window stays linear.
    by_title: dict[str, list[int]] = defaultdict(list)
    for i, pr in enumerate(order):
        by_title[_title_key(pr.title)].append(i)
    # Each PR's reference and revert target are read once: a 10,000-PR window of many
    # reverts asked for them once per revert before it.
    refs = {i: _RELAND_REF.search(f"{pr.title}\n{pr.body[:2000]}") for i, pr in enumerate(order)}
    targets = {i: reverted(order[i]) for i in reverts}
    marked = [
        i
        for i, pr in enumerate(order)
        if i in targets or _is_marked_reland(pr) or refs[i] is not None
    ]
    out: dict[int, int] = {}
    for i in reverts:
        revert = order[i]
        number, quoted = targets[i]
        if not quoted and number in by_number:
            quoted = by_number[number].title  # "Revert #34208": the reverted PR's title
        candidates = set(marked)
        if quoted:
            candidates.update(by_title.get(_title_key(quoted), ()))
        for j in sorted(c for c in candidates if c > i):
            if _is_reland_of(order[j], revert, number, quoted, targets.get(j), refs[j]):
                out[revert.number] = order[j].number
                break
    return out


def _is_marked_reland(pr: PullRequest) -> bool:
    """A title that says it lands a change again ("Reland …", "Redo …", "[Redo] …")."""
    return bool(_RELAND.match(pr.title)) or any(
        t.norm in _RELAND_TAGS for t in parse_title(pr.title).tags
    )


def _title_key(title: str) -> str:
    # The first 20 characters: a quoted title may be cut short with "…".
    return _norm_title(title)[:20]


def _is_reland_of(
    pr: PullRequest,
    revert: PullRequest,
    number: int | None,
    quoted: str | None,
    target: tuple[int | None, str | None] | None,
    ref: re.Match[str] | None,
) -> bool:
    """`target`: what `pr` reverts when it is a revert (`reverted(pr)`), else None; `ref`:
    its re-land reference (`_RELAND_REF` over title and description)."""
    if number is not None and pr.number == number:
        return False  # the original itself (merged after its revert only on odd data)
    if target is not None:
        # A revert of the revert brings the change back.
        back, back_title = target
        return back == revert.number or bool(back_title and _same_title(back_title, revert.title))
    if ref and number is not None and int(ref.group(1)) == number:
        return True
    if not quoted:
        return False
    reland = _RELAND.match(pr.title)
    if reland and _same_title(reland.group("rest"), quoted):
        return True
    if _is_marked_reland(pr) and _same_subject(pr.title, quoted):
        return True
    return _same_title(pr.title, quoted)


def breaking_reason(
    pr: PullRequest, title: TitleInfo, facts: FileFacts, labels: set[str], kind: str
) -> Flag | None:
    for label in pr.labels:
        if label.strip().lower() in labels:
            return make_flag("breaking", "flag.breaking.label", label=label)
    if facts.deleted_public:
        extra = len(facts.deleted_public) - 1
        if extra > 0:
            return make_flag(
                "breaking",
                "flag.breaking.deleted-files",
                path=facts.deleted_public[0],
                more=extra,
            )
        return make_flag("breaking", "flag.breaking.deleted-file", path=facts.deleted_public[0])
    # A title that calls the removed thing dead or unused says no one can depend on it
    # (issue 21: "Remove dead environment variable X" is not breaking); only a label or a
    # stated break (checked above and below) overrules it.
    internal = bool(_INTERNAL.search(title.rest))
    if facts.settings_removed and not internal:
        path, removed = facts.settings_removed[0]
        return make_flag("breaking", "flag.breaking.settings-removed", path=path, removed=removed)
    # A change confined to docs, tests or CI cannot break users.
    if pr.files_known and facts.total_files and facts.source_files == 0 and facts.dep_files == 0:
        return None
    for key, text in (
        ("flag.breaking.word-title", title.rest),
        ("flag.breaking.word-body", pr.body[:4000]),
    ):
        for m in _BREAKING_WORD.finditer(text):
            if not _NEGATED.search(text[max(0, m.start() - 14) : m.start()]):
                word = m.group(0).strip(" \t\n#*>-:!")
                return make_flag("breaking", key, word=word)
    if kind in {"bugfix", "test", "ci", "docs", "revert"}:
        return None  # "args dropped in streaming" is a bug being fixed, not an API removal
    for m in _REMOVAL.finditer(title.rest):
        rest = m.group("rest")
        thing = _PUBLIC_THING.search(rest)
        if not thing:
            continue
        named = rest[: thing.end()]
        if _INTERNAL.search(rest[:30]):
            continue
        what = re.sub(r"\s+", " ", (m.group(0)[: m.start("rest") - m.start()] + named).strip())
        return make_flag("breaking", "flag.breaking.title", what=what)
    return None


@dataclass
class FlagDetector:
    ruleset: RuleSet

    def __post_init__(self) -> None:
        self._core = [(c.name, PatternSet.compile(c.paths)) for c in self.ruleset.core_paths]
        self._core_zh = {c.name: c.name_zh for c in self.ruleset.core_paths}
        self._core_params: dict[tuple[str, ...], dict[str, str]] = {}
        self._core_cache: dict[str, tuple[str, ...]] = {}
        self._breaking_labels = {
            "breaking",
            "breaking-change",
            "breaking change",
            "bc-breaking",
            "api-change",
        }

    def core_paths(self, pr: PullRequest, test_paths: set[str]) -> list[str]:
        names: list[str] = []
        for f in pr.files:
            if f.path in test_paths:
                continue
            hit = self._core_cache.get(f.path)
            if hit is None:
                hit = tuple(name for name, ps in self._core if ps.matches(f.path))
                if len(self._core_cache) > 200_000:
                    self._core_cache.clear()
                self._core_cache[f.path] = hit
            names.extend(n for n in hit if n not in names)
        # Report in rule-set order so the reason reads the same whatever the file order.
        order = {name: i for i, (name, _) in enumerate(self._core)}
        return sorted(names, key=order.__getitem__)

    def detect(
        self,
        pr: PullRequest,
        title: TitleInfo,
        facts: FileFacts,
        kind: str,
        core_names: list[str],
    ) -> list[Flag]:
        th = self.ruleset.thresholds
        flags: list[Flag] = []
        if pr.files_known and core_names:
            flags.append(
                make_flag("core-path", "flag.core-path", names=self.core_name_params(core_names))
            )
        if (
            pr.files_known
            and facts.source_lines >= th.missing_tests_lines
            and facts.test_files == 0
            # Deleting code needs no new test: only a change that adds lines is "untested".
            and facts.source_additions > 0
            and kind not in {"docs", "revert"}
        ):
            flags.append(make_flag("missing-tests", "flag.missing-tests", lines=facts.source_lines))
        breaking = breaking_reason(pr, title, facts, self._breaking_labels, kind)
        if breaking:
            flags.append(breaking)
        dep = self._dependency_flag(pr, facts)
        if dep:
            flags.append(dep)
        large = self._large_flag(pr)
        if large:
            flags.append(large)
        if kind == "revert":
            target = revert_target(pr)
            if target:
                flags.append(make_flag("revert", "flag.revert.target", target=target))
            else:
                flags.append(make_flag("revert", "flag.revert.unknown"))
        return flags

    def core_name_params(self, names: list[str]) -> dict[str, str]:
        """Core path names as one localised reason parameter ("the scheduler, the sampler" /
        "调度器、采样器"), memoised: few combinations recur across thousands of PRs."""
        key = tuple(names)
        param = self._core_params.get(key)
        if param is None:
            zh = "、".join(self._core_zh.get(n) or n for n in names)
            param = self._core_params[key] = localized(", ".join(names), zh)
        return param

    def _dependency_flag(self, pr: PullRequest, facts: FileFacts) -> Flag | None:
        pin = _VERSION_PIN.search(pr.title)
        if pin:
            verb = pin.group("verb").lower()
            verb = verb if verb.endswith("s") else verb + "s"
            return make_flag(
                "dependency",
                "flag.dependency.pin",
                verb={"key": f"verb.{verb}", "params": {}},
                what=pin.group("what"),
                to=pin.group("to"),
            )
        # "Fix typo in setup.py warning" touches a dependency file without changing one.
        if pr.files_known and facts.dependency_paths and not TRIVIAL_RE.search(pr.title):
            extra = len(facts.dependency_paths) - 1
            if extra > 0:
                return make_flag(
                    "dependency",
                    "flag.dependency.files",
                    path=facts.dependency_paths[0],
                    more=extra,
                )
            return make_flag("dependency", "flag.dependency.file", path=facts.dependency_paths[0])
        return None

    def _large_flag(self, pr: PullRequest) -> Flag | None:
        th = self.ruleset.thresholds
        files = pr_file_count(pr)
        lines = pr_lines(pr)
        many_lines, many_files = lines > th.large_lines, files > th.large_files
        if many_lines and many_files:
            return make_flag(
                "large",
                "flag.large.both",
                lines=lines,
                line_limit=th.large_lines,
                files=files,
                file_limit=th.large_files,
            )
        if many_lines:
            return make_flag("large", "flag.large.lines", lines=lines, limit=th.large_lines)
        if many_files:
            return make_flag("large", "flag.large.files", files=files, limit=th.large_files)
        return None
