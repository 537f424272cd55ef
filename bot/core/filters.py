"""The filters of one alert subscription: plain data shared by the command parser (which
builds them from `/vllm subscribe …`), the alerts (which store and evaluate them) and
the command replies (which list them). In the core, so none of those imports another.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass


def quote_word(value: str) -> str:
    """A value as the user would type it: quoted when it holds whitespace."""
    return shlex.quote(value) if re.search(r"\s", value) else value


@dataclass(frozen=True, slots=True)
class SubscriptionFilters:
    """Filters of one subscription; they combine with AND, `not_*` ones exclude."""

    labels: tuple[str, ...] = ()
    not_labels: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    not_authors: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    not_paths: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    not_flags: tuple[str, ...] = ()
    min_score: float | None = None
    language: str | None = None
    # `repo:OWNER/NAME`: follow the modules in these repositories only (none: every
    # watched repository, e.g. across an organisation); `-repo:` leaves one out.
    repos: tuple[str, ...] = ()
    not_repos: tuple[str, ...] = ()

    def describe(self) -> str:
        """The filters as the user would type them (also how `subscriptions` lists them)."""
        parts: list[str] = []
        for key, plus, minus in (
            ("label", self.labels, self.not_labels),
            ("author", self.authors, self.not_authors),
            ("path", self.paths, self.not_paths),
            ("flag", self.flags, self.not_flags),
            ("repo", self.repos, self.not_repos),
        ):
            parts += [f"{key}:{quote_word(v)}" for v in plus]
            parts += [f"-{key}:{quote_word(v)}" for v in minus]
        if self.min_score is not None:
            parts.append(f"min:{self.min_score:g}")
        if self.language:
            parts.append(f"lang:{self.language}")
        return " ".join(parts)
