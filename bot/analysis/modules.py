"""Module classification from file paths, title tags, labels and title words."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.core.models import ModuleMatch, PullRequest

from .paths import PatternSet, scope_flags
from .regex import compiled
from .rules import KEYWORD_FLAGS, ModuleRule, RuleSet, keyword_union, normalize_tag
from .titles import Tag, TitleInfo

_PATH_CACHE_LIMIT = 200_000


@dataclass(slots=True)
class _CompiledModule:
    rule: ModuleRule
    index: int
    paths: PatternSet
    exclude: PatternSet
    keywords: re.Pattern[str] | None
    keyword_list: tuple[str, ...]
    hints: re.Pattern[str] | None
    hint_list: tuple[str, ...]


def _union(patterns: list[str]) -> tuple[re.Pattern[str] | None, tuple[str, ...]]:
    if not patterns:
        return None, ()
    # The singles are compiled only to name the word that matched, after the union hit.
    return compiled(keyword_union(patterns), KEYWORD_FLAGS), tuple(map(scope_flags, patterns))


def _first_hit(singles: tuple[str, ...], text: str) -> str:
    for p in singles:
        m = compiled(p, KEYWORD_FLAGS).search(text)
        if m:
            return m.group(0).strip()
    return ""


_MAX_PATTERNS_NAMED = 4


def _path_reason(counts: dict[str, int]) -> str:
    """ "path csrc/rocm/** (3 files)" or "paths csrc/rocm/**, vllm/platforms/rocm.py": each
    pattern with the number of files it matched."""
    parts = [p + (f" ({n} files)" if n > 1 else "") for p, n in counts.items()]
    extra = len(parts) - _MAX_PATTERNS_NAMED
    if extra > 0:
        parts = [*parts[:_MAX_PATTERNS_NAMED], f"{extra} more patterns"]
    return ("paths " if len(counts) > 1 else "path ") + ", ".join(parts)


@dataclass(slots=True)
class _Hit:
    reasons: list[str]
    lines: int = 0
    files: int = 0
    from_path: bool = False
    explicit: bool = False  # named by a tag, label or title word
    named: bool = False  # named by a tag or label (stronger than a title word)
    order: int = 0  # discovery order, so tag order decides ties


@dataclass(slots=True)
class ModuleClassifier:
    """Precompiled module rules; ``classify`` is pure and does no I/O."""

    ruleset: RuleSet
    _modules: list[_CompiledModule] = field(default_factory=list)
    _tag_index: dict[str, list[int]] = field(default_factory=dict)
    _label_index: dict[str, list[int]] = field(default_factory=dict)
    _path_cache: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    _fallback: int = 0

    def __post_init__(self) -> None:
        for i, m in enumerate(self.ruleset.modules):
            kw, kws = _union(m.keywords)
            hi, his = _union(m.hints)
            self._modules.append(
                _CompiledModule(
                    m,
                    i,
                    PatternSet.compile(m.paths),
                    PatternSet.compile(m.exclude),
                    kw,
                    kws,
                    hi,
                    his,
                )
            )
            for t in m.tags:
                self._tag_index.setdefault(normalize_tag(t), []).append(i)
            for label in m.labels:
                self._label_index.setdefault(label.strip().lower(), []).append(i)
            if m.id == self.ruleset.fallback_module:
                self._fallback = i

    # ------------------------------------------------------------ building blocks

    def modules_for_path(self, path: str) -> tuple[tuple[int, str], ...]:
        """(module index, matching pattern) for one path; memoised because real PR streams
        touch the same files again and again."""
        hit = self._path_cache.get(path)
        if hit is not None:
            return hit
        found: list[tuple[int, str]] = []
        catch_all: list[tuple[int, str]] = []
        for cm in self._modules:
            if cm.paths and cm.paths.matches(path) and not cm.exclude.matches(path):
                target = catch_all if cm.rule.catch_all else found
                target.append((cm.index, cm.paths.which(path) or "?"))
        result = tuple(found or catch_all)
        if len(self._path_cache) >= _PATH_CACHE_LIMIT:
            self._path_cache.clear()
        self._path_cache[path] = result
        return result

    def modules_for_tag(self, tag: Tag) -> list[int]:
        found = self._tag_index.get(tag.norm)
        if found:
            return found
        # "[MoE/b12x]" or "[Frontend/Core]": try the parts, but never split known tags
        # such as "P/D" or "CI/Build" (they were found above).
        if "/" in tag.norm:
            parts: list[int] = []
            for part in tag.norm.split("/"):
                parts.extend(i for i in self._tag_index.get(part, []) if i not in parts)
            return parts
        return []

    # ------------------------------------------------------------ classification

    def classify(self, pr: PullRequest, title: TitleInfo) -> list[ModuleMatch]:
        hits: dict[int, _Hit] = {}

        def hit(idx: int) -> _Hit:
            h = hits.get(idx)
            if h is None:
                h = hits[idx] = _Hit(reasons=[], order=len(hits))
            return h

        for tag in title.tags:
            for idx in self.modules_for_tag(tag):
                h = hit(idx)
                h.named = True
                if not h.explicit:
                    h.explicit = True
                    h.reasons.append(f"tag [{tag.raw}]")

        for label in pr.labels:
            for idx in self._label_index.get(label.strip().lower(), []):
                h = hit(idx)
                h.named = True
                if not h.explicit:
                    h.explicit = True
                    h.reasons.append(f"label {label}")

        if pr.files_known:
            # Files per (module, pattern), so the reason counts what each pattern matched.
            per_pattern: dict[int, dict[str, int]] = {}
            for f in pr.files:
                for idx, pattern in self.modules_for_path(f.path):
                    h = hit(idx)
                    h.lines += f.lines
                    h.files += 1
                    h.from_path = True
                    counts = per_pattern.setdefault(idx, {})
                    counts[pattern] = counts.get(pattern, 0) + 1
            for idx, counts in per_pattern.items():
                hits[idx].reasons.append(_path_reason(counts))

        # Identifiers in titles ("topk_topp_sampler", "bailing_moe") defeat word boundaries,
        # so keywords also see a copy with underscores read as spaces (one search, not two;
        # "^" anchors still only match the original title at the start of the string).
        text = pr.title if "_" not in pr.title else f"{pr.title}\n{pr.title.replace('_', ' ')}"
        use_hints = not pr.files_known or not any(h.from_path for h in hits.values())
        for cm in self._modules:
            if cm.keywords is not None and cm.keywords.search(text):
                h = hit(cm.index)
                if not h.explicit:
                    h.explicit = True
                    h.reasons.append(f"title word '{_first_hit(cm.keyword_list, text)}'")
            if (
                use_hints
                and cm.hints is not None
                and cm.index not in hits
                and cm.hints.search(text)
            ):
                h = hit(cm.index)
                h.explicit = True
                word = _first_hit(cm.hint_list, text)
                h.reasons.append(f"title hint '{word}' (files unknown)")

        # A title word must not override a clearer tag or label of the same group.
        named_groups = {
            self._modules[i].rule.group
            for i, h in hits.items()
            if h.named and self._modules[i].rule.group
        }
        if named_groups:
            for idx in [
                i
                for i, h in hits.items()
                if self._modules[i].rule.group in named_groups and not (h.named or h.from_path)
            ]:
                del hits[idx]

        # Auxiliary modules reached only through paths (tests next to a kernel change, docs
        # next to a feature) would drown the real subject, so they are dropped then.
        if any(not self._modules[i].rule.auxiliary for i in hits):
            for idx in [
                i for i, h in hits.items() if self._modules[i].rule.auxiliary and not h.explicit
            ]:
                del hits[idx]
        if self._fallback in hits and len(hits) > 1:
            del hits[self._fallback]
        if not hits:
            reason = "no rule matched" + ("" if pr.files_known else " (files unknown)")
            return [ModuleMatch(self.ruleset.fallback_module, reason, pr.lines)]

        # Primary = most changed lines; ties and line-less modules keep discovery order (tags
        # first), and regular modules always precede auxiliary ones.
        ordered = sorted(
            hits.items(),
            key=lambda item: (
                self._modules[item[0]].rule.auxiliary,
                -item[1].lines,
                item[1].order,
            ),
        )
        return [
            ModuleMatch(self._modules[i].rule.id, "; ".join(h.reasons), h.lines) for i, h in ordered
        ]
