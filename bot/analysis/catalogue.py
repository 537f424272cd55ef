"""A rule set's module vocabulary: ids and names (English and Chinese) that a person may
type, resolved the same way by `vllm-bot digest --module`, `/vllm digest`, `/vllm
subscribe` and the scheduler's module digests."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.errors import InputError, UsageError
from bot.core.i18n import message
from bot.core.messages import Text

if TYPE_CHECKING:
    from bot.analysis.rules import RuleSet
    from bot.core.config import Config


def suggest(word: str, choices: list[str] | tuple[str, ...]) -> str | None:
    """The closest choice to a typo, or None when nothing is close enough to be helpful."""
    found = difflib.get_close_matches(word.lower(), [c.lower() for c in choices], n=1, cutoff=0.6)
    if not found:
        return None
    by_lower = {c.lower(): c for c in choices}
    return by_lower[found[0]]


# The generic rule set's modules (config/modules/generic.toml), which every "auto" rule set
# starts from: a hint shows a module of the repository's own before these.
GENERIC_MODULES = frozenset({"ci-build", "docs", "tests", "benchmarks", "dependencies", "other"})


@dataclass(frozen=True, slots=True)
class ModuleInfo:
    id: str
    name_en: str
    name_zh: str = ""
    rule: str = ""  # a short human description of what assigns the module
    generic: bool = False  # one of the generic modules, or the rule set's fallback

    def name(self, language: str) -> str:
        return (self.name_zh if language == "zh" else self.name_en) or self.name_en or self.id


def module_infos(ruleset: RuleSet) -> list[ModuleInfo]:
    """ModuleInfo for each module of a `bot.analysis.RuleSet`."""
    infos = []
    for m in ruleset.modules:
        evidence = [*m.paths[:2], *(f"[{t}]" for t in m.tags[:1])]
        evidence += [f"label {x}" for x in m.labels[:1]]
        generic = m.id in GENERIC_MODULES or m.id == ruleset.fallback_module
        infos.append(ModuleInfo(m.id, m.name_en, m.name_zh, ", ".join(evidence), generic))
    return infos


class UnknownModule(UsageError):
    """A module word no module of the rule set answers to; `hint` is the closest id. The
    message is the reason alone: each surface adds where its list of modules is."""

    def __init__(self, name: str, hint: str | None, language: str = "en") -> None:
        self.name = name
        self.hint = hint
        shown = message(language, "error.hint", word=hint) if hint else ""
        super().__init__(message(language, "error.module.unknown.reason", name=name, hint=shown))


def _normal(name: str) -> str:
    return re.sub(r"[\s\-_./]+", "", name.strip().lower())


@dataclass(frozen=True, slots=True)
class ModuleCatalogue:
    """Module ids and names (English and Chinese) that commands may name."""

    modules: tuple[ModuleInfo, ...]

    @classmethod
    def of(cls, modules: Iterable[ModuleInfo]) -> ModuleCatalogue:
        unique = {m.id: m for m in modules}
        return cls(tuple(unique.values()))

    @classmethod
    def from_rulesets(cls, rulesets: Iterable[RuleSet]) -> ModuleCatalogue:
        """From `bot.analysis.RuleSet`s (one per watched repository)."""
        return cls.of(m for ruleset in rulesets for m in module_infos(ruleset))

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(m.id for m in self.modules)

    def examples(self, count: int = 1) -> list[str]:
        """Module ids a hint may show ("try /vllm subscribe X"): the repository's own
        modules first, in rule order, then the generic ones."""
        ordered = sorted(self.modules, key=lambda m: m.generic)
        return [m.id for m in ordered[:count]]

    def resolve(self, word: str) -> str | None:
        """The module id for an id or a name in either language, ignoring case/spacing."""
        key, raw = _normal(word), " ".join(word.split())
        for m in self.modules:
            if key in (_normal(m.id), _normal(m.name_en)) or (m.name_zh and raw == m.name_zh):
                return m.id
        return None

    def suggestion(self, word: str) -> str | None:
        hint = suggest(word, list(self.ids))
        if hint is None:
            names = {m.name_en.lower(): m.id for m in self.modules if m.name_en}
            by_name = suggest(word, list(names))
            hint = names[by_name.lower()] if by_name else None
        return hint

    def words(self, words: Sequence[str], language: str = "en") -> list[str]:
        """Module ids (each once, in order) for ids or names as typed; raises UnknownModule
        for the first word that names none.

        Names may span several words (`Mixture of Experts`, unquoted): the longest run of
        words that names a module wins."""
        longest = max(
            (len(n.split()) for m in self.modules for n in (m.id, m.name_en, m.name_zh) if n),
            default=1,
        )
        ids: list[str] = []
        i = 0
        while i < len(words):
            for size in range(min(longest, len(words) - i), 0, -1):
                found = self.resolve(" ".join(words[i : i + size]))
                if found is not None:
                    break
            else:
                raise UnknownModule(words[i], self.suggestion(words[i]), language)
            if found not in ids:
                ids.append(found)
            i += size
        return ids

    def check(self, words: Sequence[str]) -> tuple[list[str], str | None]:
        """The ids of `words` (each once, in order) and, when some are unknown, the problem
        naming each with a suggestion ("unknown module 'rcom' (did you mean 'rocm'?)")."""
        ids: list[str] = []
        problems: list[str] = []
        for word in words:
            found = self.resolve(word)
            if found is None:
                hint = self.suggestion(word)
                problems.append(f"'{word}'" + (f" (did you mean '{hint}'?)" if hint else ""))
            elif found not in ids:
                ids.append(found)
        if not problems:
            return ids, None
        noun = "module" if len(problems) == 1 else "modules"
        return ids, f"unknown {noun} {', '.join(problems)}"

    def resolve_all(self, words: Sequence[str], command: str) -> list[str]:
        ids, problem = self.check(words)
        if problem is not None:
            unknown = [w for w in words if self.resolve(w) is None]
            names = [
                Text("error.module.unknown_item", {"word": w, "hint": hint})
                if (hint := self.suggestion(w))
                else Text("error.module.unknown_word", {"word": w})
                for w in unknown
            ]
            raise InputError("error.modules.unknown", command, count=len(unknown), names=names)
        return ids


def catalogue_of(config: Config) -> ModuleCatalogue:
    """The modules subscriptions may name: those of every watched repository's rule set
    (an "auto" one is built at run time, so the generic set stands in when all are)."""
    # Lazy: the rule engine only once a subscription is changed, not when one is listed.
    from bot.analysis.rules import load_ruleset

    rulesets = [load_ruleset(r.modules) for r in config.repos if r.modules != "auto"] or [
        load_ruleset("generic")
    ]
    return ModuleCatalogue.from_rulesets(rulesets)
