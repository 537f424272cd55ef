"""Per-PR file facts (tests, docs, CI, dependencies, source) computed once per analysis."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.models import PullRequest

from .paths import PatternSet
from .rules import RuleSet

TEST, DOCS, CI, DEPS, SOURCE, OTHER = 1, 2, 4, 8, 16, 32
_CACHE_LIMIT = 200_000


def pr_lines(pr: PullRequest) -> int:
    """Changed lines of a PR; the file list stands in when the PR totals are missing."""
    if pr.lines or not pr.files_known:
        return pr.lines
    return sum(f.lines for f in pr.files)


def pr_file_count(pr: PullRequest) -> int:
    return pr.changed_files or (len(pr.files) if pr.files_known else 0)


@dataclass(slots=True)
class FileFacts:
    total_files: int = 0
    test_files: int = 0
    docs_files: int = 0
    ci_files: int = 0
    dep_files: int = 0
    source_files: int = 0
    source_lines: int = 0  # non-test, non-docs source lines
    source_additions: int = 0  # of which added: 0 for a pure deletion
    dependency_paths: list[str] = field(default_factory=list)
    deleted_public: list[str] = field(default_factory=list)
    # (path, net lines removed) of settings files (env var / CLI registries) that shrank.
    settings_removed: list[tuple[str, int]] = field(default_factory=list)
    adds_model: bool = False


@dataclass
class FileCategorizer:
    ruleset: RuleSet
    _cache: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        p = self.ruleset.paths
        self._tests = PatternSet.compile(p.tests)
        self._docs = PatternSet.compile(p.docs)
        self._ci = PatternSet.compile(p.ci)
        self._deps = PatternSet.compile(p.dependencies)
        self._public = PatternSet.compile(p.public_api)
        self._settings = PatternSet.compile(p.settings)
        self._exts = tuple(p.source_extensions)
        # A new file in these folders together with a registry edit is a new model.
        self._model_dirs = ("vllm/model_executor/models/", "vllm/models/")

    def category(self, path: str) -> int:
        cat = self._cache.get(path)
        if cat is not None:
            return cat
        cat = 0
        if self._tests.matches(path):
            cat |= TEST
        if self._docs.matches(path):
            cat |= DOCS
        if self._ci.matches(path):
            cat |= CI
        if self._deps.matches(path):
            cat |= DEPS
        if not cat & (TEST | DOCS) and path.endswith(self._exts):
            cat |= SOURCE
        if not cat:
            cat = OTHER
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[path] = cat
        return cat

    def facts(self, pr: PullRequest) -> FileFacts:
        ff = FileFacts()
        if not pr.files_known:
            return ff
        added_model = registry = False
        for f in pr.files:
            cat = self.category(f.path)
            ff.total_files += 1
            if cat & TEST:
                ff.test_files += 1
            elif cat & DOCS:
                ff.docs_files += 1
            if cat & CI:
                ff.ci_files += 1
            if cat & DEPS:
                ff.dep_files += 1
                ff.dependency_paths.append(f.path)
            if cat & SOURCE and not cat & (CI | DEPS):
                ff.source_files += 1
                ff.source_lines += f.lines
                ff.source_additions += f.additions
            change = (f.change_type or "").upper()
            if change in {"DELETED", "RENAMED", "REMOVED"} and self._public.matches(f.path):
                ff.deleted_public.append(f.path)
            # A registry of env vars / flags that loses lines lost a setting users may set;
            # the 2-line minimum ignores one-line default changes.
            elif f.deletions - f.additions >= 2 and self._settings.matches(f.path):
                ff.settings_removed.append((f.path, f.deletions - f.additions))
            if f.path.startswith(self._model_dirs):
                if f.path.endswith("registry.py"):
                    registry = True
                elif change == "ADDED" or (f.deletions == 0 and f.additions >= 100):
                    added_model = True
        ff.adds_model = added_model and registry
        return ff
