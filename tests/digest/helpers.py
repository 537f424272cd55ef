"""Shared builders for the digest tests."""

from __future__ import annotations

from bot.digest.build import build_digest
from bot.digest.model import Digest
from tests.digest.fixtures import (
    MODULE_NAMES,
    NEW_CONTRIBUTORS,
    REPO,
    WINDOW,
    previous_week,
    this_week,
)


def fixture_digest(**overrides) -> Digest:
    """The synthetic week's digest (language-neutral: render it in any language)."""
    kwargs = {
        "repo": REPO,
        "window": WINDOW,
        "timezone": "UTC",
        "module_names": MODULE_NAMES,
        "new_contributors": NEW_CONTRIBUTORS,
    }
    kwargs.update(overrides)
    prs = kwargs.pop("prs", None)
    previous = kwargs.pop("previous", None)
    return build_digest(
        this_week() if prs is None else prs,
        previous_week() if previous is None else previous,
        **kwargs,
    )
