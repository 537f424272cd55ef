"""Rule sets: which files, title tags, labels and words put a PR in a module, plus the
repository's analysis settings (core paths, thresholds, score weights).

Rule sets are TOML files validated with pydantic; every validation error is reported as
``FILE: key.path: problem (accepted: ...)`` so a user editing their own rule set can fix it
without reading this code.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from pathlib import Path

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from bot.core.errors import UsageError
from bot.core.messages import Text
from bot.core.models import KIND_IDS

from .paths import patterns_error, scope_flags
from .regex import compiled

BUILTIN_RULESETS = ("vllm", "generic")
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class RuleSetError(UsageError, ValueError):
    """A rule set could not be found, parsed or validated; the message is user-facing."""


class _Strict(BaseModel):
    # Unknown keys are almost always typos ("path" for "paths"); reject them loudly.
    # Empty lists and dicts are plain defaults, which pydantic copies per instance:
    # `default_factory=list` has it parse `list`'s signature from text, about a fifth of
    # the time this module takes to import and load a rule set.
    model_config = ConfigDict(extra="forbid", frozen=True)


def _shipped(info: ValidationInfo) -> bool:
    """A rule set shipped in bot/defaults: its patterns are checked by the test suite
    (tests/analysis/test_rules.py), so loading it leaves compiling them to first use."""
    return bool(info.context and info.context.get("shipped"))


def _check_patterns(values: list[str]) -> list[str]:
    err = patterns_error(values)
    if err:
        raise ValueError(err)
    return values


# Title words and hints are matched case-insensitively with ASCII semantics: titles are
# English and re's Unicode case folding costs ~25% there.
KEYWORD_FLAGS = re.IGNORECASE | re.ASCII


def keyword_union(patterns: list[str]) -> str:
    """The one alternation a module's title words (or hints) are searched with."""
    return "|".join(f"(?:{scope_flags(p)})" for p in patterns)


def _check_regexes(values: list[str]) -> list[str]:
    if not values:
        return values
    try:
        # Compiled as the module classifier will use it, which then finds it compiled.
        compiled(keyword_union(values), KEYWORD_FLAGS)
    except re.error as exc:
        for v in values:
            try:
                re.compile(v)
            except re.error as one:
                raise ValueError(f"invalid regular expression {v!r}: {one}") from None
        raise ValueError(f"invalid regular expressions {values!r}: {exc}") from None
    return values


def normalize_tag(tag: str) -> str:
    """Canonical form of a title tag or tag alias: case, spaces, '-', '_' and '.' ignored."""
    return re.sub(r"[\s\-_.]+", "", tag.strip().lower())


class ModuleRule(_Strict):
    id: str
    name_en: str
    name_zh: str
    paths: list[str] = []
    exclude: list[str] = []
    tags: list[str] = []
    labels: list[str] = []
    # Searched in the title whether or not files are known.
    keywords: list[str] = []
    # Weaker title evidence, only used when the file list is unknown.
    hints: list[str] = []
    # Path matches of auxiliary modules (tests, docs, catch-all folders) are dropped when a
    # PR also matches a regular module; tags and labels still add them.
    auxiliary: bool = False
    # Catch-all modules (a top-level source folder in `modules = "auto"`) take a file only
    # when no other module's paths match it, so "pkg/" gets what "ops" (pkg/ops/**) does
    # not; unlike auxiliary modules they are never dropped and compete on changed lines.
    catch_all: bool = False
    # Modules of one group are alternatives (hardware platforms): a module of the group that
    # only a title word found is dropped when a tag or label names another module of it, so
    # "[CPU] ... on AMD Zen CPUs" stays cpu and does not become rocm.
    group: str = ""
    # Importance of changes in this module for the score (the PR takes its best module).
    weight: float = Field(default=0.5, ge=0, le=10)

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not _ID_RE.match(v):
            raise ValueError(f"invalid module id {v!r}: use lower-case letters, digits, '-', '.'")
        return v

    @field_validator("paths", "exclude")
    @classmethod
    def _paths(cls, v: list[str], info: ValidationInfo) -> list[str]:
        return v if _shipped(info) else _check_patterns(v)

    @field_validator("keywords", "hints")
    @classmethod
    def _regexes(cls, v: list[str], info: ValidationInfo) -> list[str]:
        return v if _shipped(info) else _check_regexes(v)


class CorePath(_Strict):
    name: str  # how the reason reads: "touches the scheduler"
    name_zh: str = ""  # the same in Chinese ("调度器"); the English name when empty
    paths: list[str]

    @field_validator("paths")
    @classmethod
    def _paths(cls, v: list[str], info: ValidationInfo) -> list[str]:
        if not v:
            raise ValueError("a core path needs at least one pattern")
        return v if _shipped(info) else _check_patterns(v)


class PathCategories(_Strict):
    tests: list[str] = Field(
        default_factory=lambda: [
            "tests/**",
            "test/**",
            "**/tests/**",
            "**/test_*.py",
            "**/*_test.py",
            "**/*_test.go",
            "**/conftest.py",
        ]
    )
    docs: list[str] = Field(
        default_factory=lambda: ["docs/**", "doc/**", "**/*.md", "**/*.rst", "**/*.po"]
    )
    ci: list[str] = Field(
        default_factory=lambda: [
            ".github/**",
            ".buildkite/**",
            ".circleci/**",
            ".gitlab-ci.yml",
            ".pre-commit-config.yaml",
        ]
    )
    dependencies: list[str] = Field(
        default_factory=lambda: [
            "requirements/**",
            "**/requirements*.txt",
            "**/requirements*.in",
            "pyproject.toml",
            "setup.py",
            "setup.cfg",
            "**/Dockerfile*",
            "**/*.Dockerfile",
            "**/Cargo.toml",
            "**/go.mod",
            "**/package.json",
        ]
    )
    # Deleting or renaming these files is a breaking change for users.
    public_api: list[str] = []
    # Files that declare user-facing settings (env vars, CLI flags); a change that removes
    # more lines than it adds there removes a setting, which is a breaking change.
    settings: list[str] = []
    source_extensions: list[str] = Field(
        default_factory=lambda: [
            ".py", ".pyx", ".cu", ".cuh", ".c", ".cc", ".cpp", ".h", ".hpp", ".rs", ".go",
            ".js", ".ts", ".java", ".cmake", ".sh",
        ]
    )  # fmt: skip

    @field_validator("tests", "docs", "ci", "dependencies", "public_api", "settings")
    @classmethod
    def _paths(cls, v: list[str], info: ValidationInfo) -> list[str]:
        return v if _shipped(info) else _check_patterns(v)


class Thresholds(_Strict):
    missing_tests_lines: int = Field(default=80, ge=0)
    large_lines: int = Field(default=1000, ge=1)
    large_files: int = Field(default=40, ge=1)


class ScoreWeights(_Strict):
    core_path: float = 2.0
    size: float = 2.5
    size_saturation_lines: int = Field(default=2000, ge=10)
    breadth_per_module: float = 0.4
    breadth_max: float = 1.2
    claim: float = 1.0
    claim_factor: float = 1.0
    breaking: float = 1.0
    activity: float = 1.0
    activity_saturation: int = Field(default=40, ge=1)
    module: float = 1.0


def _default_kind_points() -> dict[str, float]:
    return {
        "security": 2.0,
        "performance": 1.5,
        "model": 1.5,
        "feature": 1.2,
        "refactor": 0.8,
        "bugfix": 0.8,
        "misc": 0.3,
        "test": 0.2,
        "revert": 0.2,
        "ci": 0.1,
        "docs": 0.0,
    }


def _default_kind_caps() -> dict[str, float]:
    # Low-value kinds are capped so they can never outrank real code changes.
    return {"docs": 2.0, "ci": 2.0, "revert": 2.0, "test": 3.0}


class ScoreSettings(_Strict):
    key_count: int = Field(default=24, ge=0)
    key_floor: float = Field(default=5.0, ge=0, le=10)
    trivial_cap: float = Field(default=1.5, ge=0, le=10)
    weights: ScoreWeights = Field(default_factory=ScoreWeights)
    kinds: dict[str, float] = Field(default_factory=_default_kind_points)
    kind_caps: dict[str, float] = Field(default_factory=_default_kind_caps)
    labels: dict[str, float] = {}

    @field_validator("kinds", "kind_caps")
    @classmethod
    def _kinds(cls, v: dict[str, float]) -> dict[str, float]:
        for k in v:
            if k not in KIND_IDS:
                raise ValueError(f"unknown kind {k!r} (accepted: {', '.join(KIND_IDS)})")
        return v


def _default_kind_tags() -> dict[str, list[str]]:
    return {
        "bugfix": ["bugfix", "bug", "fix", "fixes", "hotfix", "bugfixes", "bugs"],
        "performance": ["perf", "performance", "optimization", "optimize", "opt", "speedup"],
        "refactor": [
            "refactor",
            "refactoring",
            "cleanup",
            "clean",
            "deprecation",
            "chore",
            "typing",
            "mypy",
        ],
        "model": ["model", "newmodel", "models"],
        "ci": ["ci", "ci/build", "build", "cibuild", "ci/cd", "docker", "release", "infra"],
        "docs": ["doc", "docs", "documentation", "typo"],
        "test": ["test", "tests", "testing", "ut", "e2e", "unittest"],
        "feature": ["feature", "feat", "features", "enhancement", "new", "rfc"],
        "security": ["security", "cve", "vulnerability"],
        "revert": ["revert"],
        "misc": ["misc", "minor", "nit", "trivial", "style"],
    }


def _default_kind_labels() -> dict[str, list[str]]:
    return {
        "bugfix": ["bug", "bugfix", "kind/bug", "type: bug"],
        "performance": ["performance", "perf"],
        "model": ["new-model", "new model"],
        "docs": ["documentation", "docs"],
        "security": ["security"],
        "feature": ["enhancement", "feature", "kind/feature"],
        "refactor": ["refactor", "cleanup"],
        "revert": ["revert"],
    }


class KindRules(_Strict):
    tags: dict[str, list[str]] = Field(default_factory=_default_kind_tags)
    labels: dict[str, list[str]] = Field(default_factory=_default_kind_labels)

    @field_validator("tags", "labels")
    @classmethod
    def _kinds(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        for k in v:
            if k not in KIND_IDS:
                raise ValueError(f"unknown kind {k!r} (accepted: {', '.join(KIND_IDS)})")
        return v


class ThemeSettings(_Strict):
    """`[themes]`: how theme detection reads this repository's words (bot/analysis/themes.py)."""

    # Display name -> other spellings: "DeepSeek V4" = ["DSV4", "DeepSeek-V4"]. A module's
    # id or English name as the display name makes the spellings evidence for that module.
    aliases: dict[str, list[str]] = {}
    # Words and phrases that never make a theme (added to the built-in generic words).
    stop_terms: list[str] = []
    max_groups: int = Field(default=8, ge=1, le=20)

    @field_validator("aliases")
    @classmethod
    def _aliases(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        for name, variants in v.items():
            if not re.sub(r"[\s\-_./]+", "", name):
                raise ValueError("an alias needs a display name")
            if not all(isinstance(x, str) and x.strip() for x in variants):
                raise ValueError(f"aliases of {name!r} must be non-empty strings")
        return v


class RuleSet(_Strict):
    name: str
    description: str = ""
    fallback_module: str = "other"
    # Tags that carry no module or kind information ("[1/N]" is handled without a list).
    ignore_tags: list[str] = Field(default_factory=lambda: ["wip", "rfc", "draft", "v1", "v0"])
    modules: list[ModuleRule] = []
    core_paths: list[CorePath] = []
    paths: PathCategories = Field(default_factory=PathCategories)
    thresholds: Thresholds = Field(default_factory=Thresholds)
    score: ScoreSettings = Field(default_factory=ScoreSettings)
    kinds: KindRules = Field(default_factory=KindRules)
    themes: ThemeSettings = Field(default_factory=ThemeSettings)

    @model_validator(mode="after")
    def _unique_ids(self) -> RuleSet:
        seen: set[str] = set()
        for m in self.modules:
            if m.id in seen:
                raise ValueError(f"duplicate module id {m.id!r}")
            seen.add(m.id)
        if self.fallback_module not in seen:
            raise ValueError(
                f"fallback_module {self.fallback_module!r} is not a module id "
                f"(accepted: {', '.join(sorted(seen)) or 'define a module first'})"
            )
        return self

    def module_names(self) -> dict[str, tuple[str, str]]:
        """Module id -> (English name, Chinese name)."""
        return {m.id: (m.name_en, m.name_zh) for m in self.modules}

    def module(self, module_id: str) -> ModuleRule | None:
        for m in self.modules:
            if m.id == module_id:
                return m
        return None


# ---------------------------------------------------------------- loading


def _loc_to_path(loc: tuple[int | str, ...], data: object) -> str:
    """Render a pydantic error location as a TOML key path; name modules by their id."""
    parts: list[str] = []
    node = data
    for item in loc:
        if isinstance(item, int):
            label = f"[{item}]"
            if isinstance(node, list) and item < len(node):
                node = node[item]
                if isinstance(node, dict) and isinstance(node.get("id"), str):
                    label = f"[{item}](id={node['id']})"
            else:
                node = None
            if parts:
                parts[-1] += label
            else:
                parts.append(label)
        else:
            parts.append(str(item))
            node = node.get(item) if isinstance(node, dict) else None
    return ".".join(parts) or "(top level)"


def _accepted_keys(model: type[BaseModel], loc: tuple[int | str, ...]) -> str | None:
    """For an unknown key, list the keys the enclosing table accepts."""
    current: object = model
    for item in loc[:-1]:
        if isinstance(item, int):
            continue
        field = current.model_fields.get(item) if hasattr(current, "model_fields") else None
        if field is None:
            return None
        ann = field.annotation
        args = getattr(ann, "__args__", None)
        if args:
            ann = next((a for a in args if isinstance(a, type) and issubclass(a, BaseModel)), ann)
        current = ann
    if isinstance(current, type) and issubclass(current, BaseModel):
        return ", ".join(current.model_fields)
    return None


def _format_error(source: str, exc: ValidationError, data: object) -> str:
    lines = []
    for err in exc.errors():
        loc = tuple(err.get("loc", ()))
        msg = err.get("msg", "invalid value").removeprefix("Value error, ")
        if err.get("type") == "extra_forbidden":
            accepted = _accepted_keys(RuleSet, loc)
            msg = f"unknown key{f' (accepted: {accepted})' if accepted else ''}"
        elif err.get("type") == "missing":
            msg = "required key is missing"
        lines.append(f"{source}: {_loc_to_path(loc, data)}: {msg}")
    return "\n".join(lines)


def parse_ruleset(text: str, source: str = "<rules>", *, shipped: bool = False) -> RuleSet:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleSetError(
            Text("error.rules.toml", {"source": source, "problem": str(exc)})
        ) from None
    if "name" not in data:
        data["name"] = Path(source).stem
    try:
        return RuleSet.model_validate(data, context={"shipped": shipped})
    except ValidationError as exc:
        raise RuleSetError(_format_error(source, exc, data)) from None


def builtin_ruleset_text(name: str) -> str:
    resource = importlib.resources.files("bot.defaults") / "modules" / f"{name}.toml"
    return resource.read_text(encoding="utf-8")


def load_ruleset(name_or_path: str | Path) -> RuleSet:
    """Load a shipped rule set by name ("vllm", "generic"; "auto" without repository data
    is the generic base) or a user rule set from a TOML path."""
    key = str(name_or_path)
    if key == "auto":
        key = "generic"
    if key in BUILTIN_RULESETS:
        text = builtin_ruleset_text(key)
        return parse_ruleset(text, f"bot/defaults/modules/{key}.toml", shipped=True)
    path = Path(key).expanduser()
    if path.suffix == ".toml" or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            reason = str(exc.strerror)
            raise RuleSetError(
                Text("error.rules.unreadable", {"path": str(path), "reason": reason})
            ) from None
        return parse_ruleset(text, str(path))
    accepted = ", ".join(BUILTIN_RULESETS)
    raise RuleSetError(Text("error.rules.unknown", {"name": repr(key), "accepted": accepted}))
