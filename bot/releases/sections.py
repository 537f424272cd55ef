"""Which release-notes section each PR belongs to, with the evidence it is listed with.

Built on the weekly analysis (kind, flags, claims, modules): a PR has one main section
(features, hardware and platform support, performance, fixes, docs or other) and may also
be listed under dependencies, breaking changes or deprecations, as maintainers list a
feature that removes an option twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.analysis.claims import best_claim
from bot.analysis.regex import lazy
from bot.analysis.titles import parse_title
from bot.core.messages import Text
from bot.core.models import AnalyzedPR, Flag
from bot.releases.commits import without_tooling
from bot.releases.model import Detail

# Accelerators and operator work: the "hardware and operator support" section.
_HARDWARE = lazy(
    r"\b(?:310P|A[235]|Ascend ?\d{3}\w*|9[15]0\w*|Atlas|ROCm|XPU|TPU|HPU|AscendC|"
    r"ACLNN|custom (?:op|ops|operators?|kernels?)|fused (?:op|ops|operators?|kernels?)|"
    r"operators?|kernels?|Triton|Dockerfiles?)\b",
    re.IGNORECASE,
)
_HARDWARE_NAME = lazy(
    r"\b(?:310P|A[235]|Ascend ?\d{3}\w*|9[15]0\w*|Atlas|ROCm|XPU|TPU|HPU)\b", re.IGNORECASE
)
_BRING_UP = lazy(
    r"^(?:add )?(?:support|enable|adapt)\w*\b|\b(?:support|enable|adapt)\w*\b[^.]{0,40}"
    r"\b(?:on|for)\b|\bfor\s+(?:the\s+)?\S+\s*$",
    re.IGNORECASE,
)
_FIX_FIRST = lazy(r"\s*(?:fix|repair|revert|correct)\w*\b", re.IGNORECASE)
_HARDWARE_TAGS = frozenset(
    {"310p", "a2", "a3", "a5", "ascend950", "950", "hardware", "platform", "rocm", "xpu", "tpu"}
)
# A feature whose point is speed (overlap, reuse, fusion): the performance section.
_PERFORMANCE = lazy(
    r"\b(?:overlap\w*|multi-?stream\w*|optimi[sz]\w*|speed\s?up\w*|accelerat\w*|reuse\w*|"
    r"faster|latency|throughput|(?:reduce[sd]?|lower)\b.{0,30}\b(?:overhead|sync\w*))\b",
    re.IGNORECASE,
)
_DEPRECATION = lazy(r"\bdeprecat\w*", re.IGNORECASE)
# A change of behaviour users must act on, beyond what the breaking flag catches.
_MIGRATION = lazy(
    r"\b(?:migrat(?:e|es|ed|ing|ion)\b.{0,60}\b(?:to|from)\b|by default\b|default\b.{0,40}"
    r"\b(?:changed?|now)\b|rename[sd]?\b|no longer\b)",
    re.IGNORECASE,
)
# In the PR's own "user-facing change?" answer only words of removal count: "disabled by
# default" there describes an opt-in, not a changed default.
_ANSWER_BREAK = lazy(
    r"\b(?:remove[sd]?|removal|rename[sd]?|no longer|drop(?:s|ped)?|deprecat\w*|migrat\w*|"
    r"(?:must|need to|should) (?:now )?(?:set|use|update|change))\b",
    re.IGNORECASE,
)
_USER_FACING = lazy(
    r"user[- ]facing change\??\s*\**\s*\n+(?P<answer>(?:(?!#).*\n?){1,6})", re.IGNORECASE
)
_YES = lazy(r"^\W*yes\b", re.IGNORECASE)
_NO = lazy(r"^\W*(?:no|none|n/?a)\b", re.IGNORECASE)
# What users set: an environment variable, an option, a flag, a config key.
_SETTING = lazy(
    r"(?:\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|--[a-z][\w-]+|\b(?:env(?:ironment)? ?var\w*|"
    r"envs?\b|options?|flags?|config(?:uration)? (?:options?|keys?)|settings?|switch\w*))",
)
# A removed or renamed setting in a title: "Remove VLLM_ASCEND_X", "Drop Prefetch MLP Env".
_REMOVED_SETTING = lazy(
    r"\b(?:remove[sd]?|drop(?:s|ped)?|rename[sd]?|delete[sd]?)\b.{0,60}?"
    r"(?:(?-i:\b[A-Z][A-Z0-9]*_[A-Z0-9_]{3,}\b)|\benv(?:ironment)?(?: ?var\w*)?s?\b|\boptions?\b|"
    r"\bflags?\b|--[a-z][\w-]+|\bconfig(?:uration)? (?:options?|keys?)\b)",
    re.IGNORECASE,
)
# One setting made two, or a switch decoupled from another: users must set both now.
_SPLIT = lazy(
    r"\b(?:decoupl\w*|split\w*\b.{0,40}\binto|separat\w* (?:switch|option|flag|config)\w*|"
    r"(?:must|should|need to|have to) (?:now )?(?:explicitly )?(?:enable|set|specify) both)\b",
    re.IGNORECASE,
)
_RELIEF = lazy(r"\bno longer (?:need|needs|required|necessary|have to)\b[^.]*", re.IGNORECASE)
# "To enable X, users need to set `Y`": how to opt in to something new, not a change to act on.
_OPT_IN = lazy(
    r"\b(?:to|in order to) (?:enable|use|turn on|try)\b[^.]*?\b(?:must|needs? to|should|"
    r"have to)\s+(?:now\s+)?(?:set|use|add|pass|specify)\b|\b(?:must|needs? to|should|have to)"
    r"\s+(?:set|add|pass|specify)\b[^.]{0,80}?\bto (?:enable|use|turn on)\b",
    re.IGNORECASE,
)
# The release-notes PR of the release itself is no change of it.
_RELEASE_NOTES = lazy(r"\brelease[ -]?notes?\b|\bReleaseNote\b", re.IGNORECASE)
# "Upgrade CANN to 9.0.0 and triton-ascend to 3.2.1", "Bump torch from 2.9 to 2.10".
_UPGRADE_VERB = lazy(
    r"\b(?:upgrade[sd]?|bump(?:s|ed)?|update[sd]?|pin(?:s|ned)?|downgrade[sd]?)\b", re.IGNORECASE
)
_VERSION_CHANGE = lazy(
    r"(?:\b(?:upgrade[sd]?|bump(?:s|ed)?|update[sd]?|pin(?:s|ned)?|downgrade[sd]?|and)|,)\s+"
    r"(?:the\s+)?(?P<name>[A-Za-z][\w.\-]*)(?:\s+(?:version|image|dependency|baseline))?\s+"
    r"(?:from\s+v?(?P<before>\d[\w.\-+]*)\s+)?to\s+v?(?P<after>\d(?:[\w.\-+]*\w)?)",
    re.IGNORECASE,
)
_NOT_NAMES = frozenset(
    {
        "upgrade",
        "bump",
        "update",
        "and",
        "the",
        "version",
        "versions",
        "pin",
        "image",
        "images",
        "from",
        "to",
        "it",
        "dockerfile",
        "dockerfiles",
        "files",
        "base",
        "branch",
        "tag",
        "default",
    }
)
# Tools of the project's own build and lint: not dependencies users install.
_DEV_TOOLS = frozenset(
    {
        "ruff",
        "pre-commit",
        "mypy",
        "black",
        "isort",
        "codespell",
        "yapf",
        "clang-format",
        "pytest",
        "actionlint",
        "markdownlint",
        "shellcheck",
        "typos",
        "pylint",
        "flake8",
    }
)
_LINT = lazy(r"\b(?:ruff|lint\w*|format\w*|pre-commit|typos?|codespell|mypy|style)\b", re.I)
BODY_CHARS = 4000
_TEMPLATE_LINES = lazy(r"^\s*-\s*vLLM (?:version|main)\s*:.*$", re.IGNORECASE | re.MULTILINE)
_VNUM = r"v?(?P<{g}>\d[\w.\-+]*\w|\d)`?"
# "`VLLM_TAG` v0.20.2 → v0.21.0", "torch-npu: 2.10.0.post2 -> 2.10.0.post4".
_BODY_ARROW = lazy(
    r"(?P<name>`?[A-Za-z][\w.\-]*`?)(?:\s+version)?:?\s+`?"
    + _VNUM.format(g="before")
    + r"\s*(?:→|->|=>)\s*`?"
    + _VNUM.format(g="after"),
)
# "Upgrade CANN from 9.0.1 to 9.1.0 … torch-npu from 2.10.0.post2 to 2.10.0.post4".
_BODY_FROM = lazy(
    r"(?P<name>`?[A-Za-z][\w.\-]*`?)(?:\s+version)?\s+from\s+`?"
    + _VNUM.format(g="before")
    + r"\s+to\s+`?"
    + _VNUM.format(g="after"),
    re.IGNORECASE,
)
# "the `xlite` development dependency is updated to `0.1.0rc10.dev210`".
_BODY_UPDATED = lazy(
    r"(?P<name>`?[A-Za-z][\w.\-]*`?)(?:\s+[a-z]+){0,2}\s+(?:is|was|has been|are)\s+"
    r"(?:upgraded|updated|bumped|pinned|raised)\s+to\s+`?" + _VNUM.format(g="after"),
    re.IGNORECASE,
)
# "the Python version in the CANN base Docker images from 3.11 to 3.12".
_BODY_VERSION_OF = lazy(
    r"\b(?P<name>[A-Z][\w.\-]*) version\b[^.\n]{0,60}?\bfrom\s+`?"
    + _VNUM.format(g="before")
    + r"\s+to\s+`?"
    + _VNUM.format(g="after"),
)
_BODY_PATTERNS = (_VERSION_CHANGE, _BODY_VERSION_OF, _BODY_FROM, _BODY_ARROW, _BODY_UPDATED)
_DEP_FILE = lazy(
    r"(?:^|/)(?:requirements[\w.\-]*\.txt|pyproject\.toml|setup\.py|setup\.cfg|"
    r"Dockerfile[\w.\-]*|environment\.ya?ml|constraints[\w.\-]*\.txt|CMakeLists\.txt|"
    r"[\w.\-]+\.cmake)$"
)

MAIN_KINDS = {
    "feature": "features",
    "model": "features",
    "security": "fixes",
    "bugfix": "fixes",
    "performance": "performance",
    "docs": "docs",
}


@dataclass(slots=True)
class Placement:
    main: str  # features | hardware | performance | fixes | docs | other
    detail: Detail | None  # the main section's evidence (a claim), None when none
    breaking: Flag | Text | None  # the evidence of a breaking change / migration note
    deprecation: Text | None
    versions: list[tuple[str, str | None, str]]  # (name, before, after) stated by the PR
    dependency_files: list[str]  # dependency files changed (versions not in the data)
    excluded: bool = False  # the release-notes PR: in the changelog only
    enable: str | None = None  # how the description says to turn it on


def template_answer(body: str) -> str | None:
    """The answer to the PR template's "user-facing change?", whatever it says."""
    found = _USER_FACING.search(body or "")
    if not found:
        return None
    answer = " ".join(found.group("answer").split())
    # The template's trailing "- vLLM version: …" lines are not part of the answer.
    answer = re.split(r"\s-\s+vLLM (?:version|main)\b", answer)[0].strip()
    return answer or None


def user_facing(body: str) -> str | None:
    """The answer to the PR template's "user-facing change?" when it starts with yes."""
    answer = template_answer(body)
    return answer if answer and _YES.search(answer) else None


def says_no(body: str) -> bool:
    """The template's answer is an explicit no ("No.", "None", "N/A")."""
    answer = template_answer(body)
    return bool(answer and _NO.search(answer))


def is_release_notes(apr: AnalyzedPR) -> bool:
    """The PR writing the release notes (or their known issues): never a change listed."""
    if apr.analysis.kind not in ("docs", "misc"):
        return False
    title = parse_title(apr.pr.title)
    return bool(_RELEASE_NOTES.search(title.rest)) or any(
        _RELEASE_NOTES.search(tag.norm.replace("-", " ")) or tag.norm == "releasenote"
        for tag in title.tags
    )


def is_lint(title: str) -> bool:
    """A change of the project's lint or format tooling ("[Lint] Add lint hooks")."""
    return bool(_LINT.search(title))


def _quote(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _version_ok(version: str) -> bool:
    """A version has a dot and is not a date ("0619", "20260322", "2026.06.19")."""
    if "." not in version:
        return False
    head = version.split(".")[0]
    return not (len(head) == 4 and head.startswith("20"))


def _name_ok(name: str) -> bool:
    """A package-like name: not a setting ("num_speculative_tokens") nor a dev tool."""
    low = name.lower().strip("`'\"")
    if low.count("_") >= 2 or low in _DEV_TOOLS or "/" in low:
        return False
    return bool(re.match(r"^[a-z][\w.\-]*$", low)) and low not in _NOT_NAMES


def _canonical(name: str) -> str:
    """ "VLLM_TAG" and "vllm_version" name vLLM: a build variable names its package."""
    bare = name.strip("`'\"")
    return re.sub(r"[_-](?:TAG|VERSION|VER)$", "", bare, flags=re.IGNORECASE)


def version_changes(title: str, body: str = "") -> list[tuple[str, str | None, str]]:
    """Versions a title (or, for a PR that upgrades something, its description) says
    changed, as (name, before or None, after); never a date-like token."""
    rest = parse_title(title).rest
    texts = [rest] if _UPGRADE_VERB.search(rest) else []
    if body:
        # The template's "- vLLM version: v0.16.0" is what the PR was tested with.
        texts.append(_TEMPLATE_LINES.sub("", body[:BODY_CHARS]))
    found: dict[str, tuple[str, str | None, str]] = {}
    for i, text in enumerate(texts):
        title_only = i == 0 and bool(texts) and texts[0] is rest
        patterns = (_VERSION_CHANGE,) if title_only else _BODY_PATTERNS
        for pattern in patterns:
            for m in pattern.finditer(text):
                words = [
                    w for w in re.split(r"\s+", m.group("name")) if w.lower() not in _NOT_NAMES
                ]
                after = m.group("after").strip("`").rstrip(".")
                before = (m.groupdict().get("before") or "").strip("`").rstrip(".") or None
                if not words or not _version_ok(after) or (before and not _version_ok(before)):
                    continue
                name = _canonical(words[-1] if len(words) > 1 else words[0])
                if not _name_ok(name):
                    continue
                key = name.lower().replace("_", "-")
                known = found.get(key)
                if known is None or (known[1] is None and before and known[2] == after):
                    found[key] = (known[0] if known else name, before, after)
    # "main_vllm_tag" beside "VLLM_TAG": a variable about a package already named.
    keys = set(found)
    return [v for k, v in found.items() if not any(k.endswith("-" + o) for o in keys - {k})]


def brings_up_hardware(title: str) -> bool:
    """A title bringing something up on an accelerator ("Support DeepSeek for A5", "Add
    support for Ascend950 chip"): a new platform users can run on."""
    rest = without_tooling(parse_title(title).rest)
    if _FIX_FIRST.match(rest):
        return False
    return bool(_BRING_UP.search(rest)) and bool(_HARDWARE_NAME.search(rest))


def _hardware(apr: AnalyzedPR) -> bool:
    title = parse_title(apr.pr.title)
    if any(tag.norm in _HARDWARE_TAGS for tag in title.tags):
        return True
    return bool(_HARDWARE.search(title.rest))


def _flag(apr: AnalyzedPR, flag_id: str) -> Flag | None:
    return next((flag for flag in apr.analysis.flags if flag.id == flag_id), None)


# What turns a feature on, in its description: "enable it with `--x`", "set `VLLM_X=1`",
# "--additional-config '{...}'".
_ENABLE = lazy(
    r"(?:\b(?:to enable|enable (?:it|this)(?: feature)?|turn (?:it )?on|opt[- ]in|"
    r"to use (?:it|this))"
    r"\b[^.\n]{0,40}?(?:by|with|via|set(?:ting)?|add(?:ing)?|pass(?:ing)?)?\s*|"
    r"\b(?:set(?:ting)?|export)\s+)"
    r"(?P<how>`[^`\n]{3,120}`|--[a-z][\w-]+(?:[= ](?:'[^'\n]{1,100}'|\S+))?|"
    r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]{3,}=[^\s*`,;)]+)",
)
TAG_KINDS = {
    "feature": "features",
    "feat": "features",
    "model": "features",
    "bugfix": "fixes",
    "fix": "fixes",
    "hotfix": "fixes",
    "perf": "performance",
    "performance": "performance",
}
HOUSEKEEPING_KINDS = ("ci", "test", "revert")


def how_to_enable(body: str) -> str | None:
    """How the description says to turn the feature on (a flag, an env var), or None."""
    found = _ENABLE.search(body or "")
    if not found:
        return None
    how = found.group("how").strip()
    return how if how.startswith("`") else f"`{how}`"


def _main(apr: AnalyzedPR) -> str:
    """The section by what the PR does: its kind, with a title tag deciding between a
    feature and a fix ("[Feature] … fix" is a feature), CI and tests never hardware."""
    pr, kind = apr.pr, apr.analysis.kind
    if kind in HOUSEKEEPING_KINDS or (kind == "misc" and _LINT.search(pr.title)):
        return "other"
    main = MAIN_KINDS.get(kind, "other")
    tagged = [TAG_KINDS[t.norm] for t in parse_title(pr.title).tags if t.norm in TAG_KINDS]
    if tagged and main in ("features", "fixes", "performance", "other") and kind != "docs":
        main = tagged[0]
    title = parse_title(pr.title).rest
    if main == "features" and _PERFORMANCE.search(title):
        return "performance"
    if main in ("features", "other") and kind not in ("docs",) and _hardware(apr):
        return "hardware"
    return main


def _breaking(apr: AnalyzedPR) -> Flag | Text | None:
    """Evidence users must act on. The template's own answer decides first: a "No" is
    never overridden by a title word, a "Yes" naming a removal or rename is breaking
    wherever the PR lives (docs included); then a removed or renamed setting, a split one,
    a migrating or default-changing title."""
    pr, kind = apr.pr, apr.analysis.kind
    flag = _flag(apr, "breaking")
    labelled = flag is not None and flag.key == "flag.breaking.label"
    if labelled:
        return flag
    answer = template_answer(pr.body)
    if answer and _NO.search(answer):
        return None
    title = without_tooling(parse_title(pr.title).rest)
    if answer and _YES.search(answer):
        if _SPLIT.search(answer):
            return Text("release.evidence.split", {"answer": _quote(answer)})
        # "users no longer need to set X" is relief and "to enable X, set Y" an opt-in,
        # not changes to act on.
        rest = _OPT_IN.sub("", _RELIEF.sub("", answer))
        removal = _ANSWER_BREAK.search(rest)
        # A fix's "no longer crashes" is the fix itself; a removed setting is not.
        if removal and (kind != "bugfix" or _SETTING.search(answer)):
            return Text("release.evidence.answer", {"answer": _quote(answer)})
    if kind in ("ci", "test", "revert", "docs"):
        return None  # a document's own wording changes no setting
    if _REMOVED_SETTING.search(title):
        return Text("release.evidence.removed", {"title": _quote(title)})
    if _SPLIT.search(title):
        return Text("release.evidence.split", {"answer": _quote(title)})
    if flag is not None:
        return flag
    if _MIGRATION.search(title):
        return Text("release.evidence.title")
    return None


def place(apr: AnalyzedPR) -> Placement:
    pr, analysis = apr.pr, apr.analysis
    kind = analysis.kind
    main = _main(apr)
    detail: Detail | None = None
    if kind == "performance" or main in ("features", "hardware", "performance"):
        claim = best_claim(analysis.claims)
        if claim is not None and claim.metric:
            detail = claim
    breaking = _breaking(apr)
    answer = user_facing(pr.body)
    deprecation = None
    if kind not in ("ci", "test", "revert"):
        if _DEPRECATION.search(parse_title(pr.title).rest):
            deprecation = Text("release.evidence.title")
        elif answer and _DEPRECATION.search(answer):
            deprecation = Text("release.evidence.answer", {"answer": _quote(answer)})
    listed = pr.files_known and kind not in ("ci", "test") and not _LINT.search(pr.title)
    files = [f.path for f in pr.files if _DEP_FILE.search(f.path)] if listed else []
    upgrades = bool(_UPGRADE_VERB.search(parse_title(pr.title).rest))
    # A description's versions count for a PR about dependencies (its title upgrades
    # something or it changes a dependency file), not for one that only mentions them.
    body = pr.body if (upgrades or files) and kind not in ("ci", "test") else ""
    versions = version_changes(pr.title, body)
    enable = how_to_enable(pr.body) if main in ("features", "hardware", "performance") else None
    return Placement(
        main,
        detail,
        breaking,
        deprecation,
        versions,
        files,
        excluded=is_release_notes(apr),
        enable=enable,
    )
