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
from bot.releases.model import Detail

# Accelerators and operator work: the "hardware and operator support" section.
_HARDWARE = lazy(
    r"\b(?:310P|A[235]|Ascend ?\d{3}\w*|9[15]0\w*|Atlas|ROCm|XPU|TPU|HPU|AscendC|"
    r"ACLNN|custom (?:op|ops|operators?|kernels?)|fused (?:op|ops|operators?|kernels?)|"
    r"operators?|kernels?|Triton|Dockerfiles?)\b",
    re.IGNORECASE,
)
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
_NOT_NAMES = frozenset({"upgrade", "bump", "update", "and", "the", "version", "pin"})
_DEP_FILE = lazy(
    r"(?:^|/)(?:requirements[\w.\-]*\.txt|pyproject\.toml|setup\.py|setup\.cfg|"
    r"Dockerfile[\w.\-]*|environment\.ya?ml|constraints[\w.\-]*\.txt)$"
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
    versions: list[tuple[str, str | None, str]]  # (name, before, after) stated in the title
    dependency_files: list[str]  # dependency files changed (versions not in the data)


def user_facing(body: str) -> str | None:
    """The answer to the PR template's "user-facing change?" when it starts with yes."""
    found = _USER_FACING.search(body or "")
    if not found:
        return None
    answer = " ".join(found.group("answer").split())
    return answer if _YES.search(answer) else None


def _quote(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def version_changes(title: str) -> list[tuple[str, str | None, str]]:
    """Versions a title says changed, as (name, before or None, after)."""
    rest = parse_title(title).rest
    if not _UPGRADE_VERB.search(rest):
        return []
    found = []
    for m in _VERSION_CHANGE.finditer(rest):
        words = [w for w in re.split(r"\s+", m.group("name")) if w.lower() not in _NOT_NAMES]
        # A CI action ("actions/checkout") is the build's, not a dependency users install.
        if not words or "/" in words[-1]:
            continue
        found.append((" ".join(words), m.group("before"), m.group("after")))
    return found


def _hardware(apr: AnalyzedPR) -> bool:
    title = parse_title(apr.pr.title)
    if any(tag.norm in _HARDWARE_TAGS for tag in title.tags):
        return True
    return bool(_HARDWARE.search(title.rest))


def _flag(apr: AnalyzedPR, flag_id: str) -> Flag | None:
    return next((flag for flag in apr.analysis.flags if flag.id == flag_id), None)


def place(apr: AnalyzedPR) -> Placement:
    pr, analysis = apr.pr, apr.analysis
    kind = analysis.kind
    main = MAIN_KINDS.get(kind, "other")
    detail: Detail | None = None
    if main == "features" and _PERFORMANCE.search(parse_title(pr.title).rest):
        main = "performance"
    elif main in ("features", "other") and kind not in ("test", "revert") and _hardware(apr):
        main = "hardware"
    if kind == "performance" or main in ("features", "hardware"):
        claim = best_claim(analysis.claims)
        if claim is not None and claim.metric:
            detail = claim
    housekeeping = kind in ("ci", "test", "docs", "revert")
    breaking: Flag | Text | None = None if housekeeping else _flag(apr, "breaking")
    answer = user_facing(pr.body)
    if breaking is None and not housekeeping:
        title = parse_title(pr.title).rest
        if _MIGRATION.search(title):
            breaking = Text("release.evidence.title")
        elif answer and kind != "bugfix" and _ANSWER_BREAK.search(answer):
            # A fix's "no longer crashes" is the fix itself, not a change users act on.
            breaking = Text("release.evidence.answer", {"answer": _quote(answer)})
    deprecation = None
    if not housekeeping or kind == "docs":
        if _DEPRECATION.search(parse_title(pr.title).rest):
            deprecation = Text("release.evidence.title")
        elif answer and _DEPRECATION.search(answer):
            deprecation = Text("release.evidence.answer", {"answer": _quote(answer)})
    versions = version_changes(pr.title)
    listed = pr.files_known and kind not in ("ci", "test")
    files = [f.path for f in pr.files if _DEP_FILE.search(f.path)] if listed else []
    return Placement(main, detail, breaking, deprecation, versions, files)
